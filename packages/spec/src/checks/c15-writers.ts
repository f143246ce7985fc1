import type { MemoryCollection } from '../adapter';
import type { MemoryRecord } from '../types';

/** One batch a writer sent, as the writer saw it end. */
export interface SentBatch {
  writer: number;
  /** 1-based number of the batch within its writer and cycle. */
  batch: number;
  ids: string[];
  /** `performance.now()` when the upsert resolved (acknowledged) or rejected. */
  at: number;
  /** The rejection's code and message, for batches that were not acknowledged. */
  error?: string;
}

/** What the writers of one kill cycle did. */
export interface StreamLog {
  /** Batches whose upsert resolved: every id in them is an acknowledged write. */
  acked: SentBatch[];
  /** Batches whose upsert rejected (the kill cut them): sent or attempted, not acknowledged. */
  inFlight: SentBatch[];
  /** `performance.now()` when the kill was issued, and when it had landed. */
  killIssuedAt: number;
  killDoneAt: number;
  /** Acknowledged memories when the kill was issued. */
  ackedAtKill: number;
  /** Writers that ran out of records before the kill landed (the kill then hit fewer writes). */
  exhausted: number;
}

/** Options of `writeUntilKilled`. */
export interface StreamOptions {
  /** One collection handle per writer, each on its own client (connection pool). */
  collections: MemoryCollection[];
  /** Records of each writer, written in order, `batchSize` per upsert. */
  queues: MemoryRecord[][];
  batchSize: number;
  /** Issue the kill once this many memories of the cycle are acknowledged. */
  killAfterAcked: number;
  /**
   * Ask for the kill (`FaultTarget.kill`, possibly shared with other writers: c15-cycles.ts); it
   * calls `issued` when the kill -9 really starts and resolves once it has landed. Writers keep
   * writing meanwhile.
   */
  kill(issued: () => void): Promise<void>;
}

/**
 * Concurrent writers stream acknowledged batches while a kill -9 is issued mid-stream: each writer
 * upserts its queue batch by batch and records every acknowledged batch; when the acknowledged
 * count reaches `killAfterAcked` the kill is asked for, and the writers go on writing until their
 * connection dies (that rejected batch is the writer's in-flight batch) or their queue ends.
 * When every queue ends before the trigger, the kill is issued at the end (noted via `exhausted`).
 * Resolves when the kill has landed and every writer has stopped; rejects only when the kill fails.
 */
export async function writeUntilKilled(o: StreamOptions): Promise<StreamLog> {
  const log: StreamLog = { acked: [], inFlight: [], killIssuedAt: 0, killDoneAt: 0, ackedAtKill: 0, exhausted: 0 };
  let ackedCount = 0;
  let killing: Promise<void> | undefined;
  const startKill = (): Promise<void> => {
    killing ??= (async () => {
      await o.kill(() => {
        log.killIssuedAt = performance.now();
        log.ackedAtKill = ackedCount;
      });
      log.killDoneAt = performance.now();
    })();
    return killing;
  };
  const writer = async (w: number): Promise<void> => {
    const queue = o.queues[w] ?? [];
    let batch = 0;
    for (let i = 0; i < queue.length; i += o.batchSize) {
      const records = queue.slice(i, i + o.batchSize);
      const ids = records.map((r) => r.id);
      batch++;
      try {
        await o.collections[w]!.upsert(records);
      } catch (e) {
        const err = e as { code?: unknown; message?: unknown };
        log.inFlight.push({ writer: w + 1, batch, ids, at: performance.now(), error: `${String(err?.code ?? 'no code')}: ${String(err?.message ?? e)}` });
        return;
      }
      log.acked.push({ writer: w + 1, batch, ids, at: performance.now() });
      ackedCount += ids.length;
      if (ackedCount >= o.killAfterAcked) void startKill().catch(() => undefined);
    }
    log.exhausted++;
  };
  await Promise.all(o.queues.map((_, w) => writer(w)));
  await startKill(); // the trigger never fired (queues too short), or wait for the one that did
  return log;
}

/** Split `records` round-robin over `n` writers (writer w gets records w, w+n, w+2n …). */
export function roundRobin<T>(records: readonly T[], n: number): T[][] {
  const out: T[][] = Array.from({ length: n }, () => []);
  records.forEach((r, i) => out[i % n]!.push(r));
  return out;
}
