import type { MemoryCollection, MemoryStore } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { MemoryRecord } from '../types';
import { failure } from './check';
import { armLimitTimer } from '../timer';
import { describeDifference } from './helpers/sampling';

/** Error codes a fault may surface as (TIMEOUT for adapters that tell a timeout apart). */
export const FAULT_CODES: readonly string[] = ['BACKEND_ERROR', 'TIMEOUT'];

/** How a call ended within a time limit. */
export type Settled = { how: 'resolved'; ms: number } | { how: 'rejected'; ms: number; code: string; message: string } | { how: 'hung'; ms: number };

/** Wait for `p` at most `limitMs`; never rejects. `ms` counts from `t0` (performance.now()). */
export async function settle(p: Promise<unknown>, limitMs: number, t0 = performance.now()): Promise<Settled> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((r) => {
    timer = armLimitTimer(() => r('hung'), limitMs);
  });
  try {
    const out = await Promise.race([
      p.then(
        () => 'resolved' as const,
        (e: unknown) => e,
      ),
      hung,
    ]);
    const ms = performance.now() - t0;
    if (out === 'resolved' || out === 'hung') return { how: out, ms };
    const err = out as { code?: unknown; message?: unknown };
    return { how: 'rejected', ms, code: typeof err?.code === 'string' ? err.code : '<no code>', message: String(err?.message ?? out) };
  } finally {
    clearTimeout(timer);
  }
}

/** `upsert of 2000 memories (mem-00101 … mem-02100) into collection c23_ab12cd` — names a write in messages. */
export function describeWrite(records: MemoryRecord[], collection: string): string {
  const ids = records.map((r) => r.id).sort();
  return `upsert of ${records.length} memories (${ids[0]} … ${ids[ids.length - 1]}) into collection ${collection}`;
}

/**
 * The verdict on one faulted call: it must reject with a fault code (`FAULT_CODES`) — resolving
 * is a silent no-op, hanging past the limit is a hang, another code is the wrong error. `hostFactor`
 * (spec host.ts) is named in a hang's message: the limit it stretched. Returns the failures (empty
 * when it surfaced correctly).
 */
export function judgeSurfaced(cell: LiveCell, s: Settled, what: string, fault: string, after?: string, hostFactor = 1): Failure[] {
  if (s.how === 'rejected' && FAULT_CODES.includes(s.code)) return [];
  const actual =
    s.how === 'rejected'
      ? `rejected with code ${s.code} (${s.message.split('\n')[0]})`
      : s.how === 'hung'
        ? `neither resolved nor rejected within ${Math.round(s.ms)} ms (the hang limit${hostFactor === 1 ? '' : `, stretched by host factor ${hostFactor}`})`
        : `resolved without an error after ${Math.round(s.ms)} ms (a silent no-op${after ? `: ${after}` : ''})`;
  return [
    failure(cell, 'fault-surfaced', `${what} during ${fault}: ${actual}; expected an error with code ${FAULT_CODES.join(' or ')}`, {
      expected: FAULT_CODES.join('|'),
      actual: s.how === 'rejected' ? s.code : s.how,
    }),
  ];
}

/**
 * How long a partial first read waits for the batch to finish landing: a server that received a
 * whole request before the fault may still be applying it after the client gave up (Chroma applies
 * one add in pieces that readers see); "after recovery" is once it has finished.
 */
export const SETTLE_MS = 30_000;

/**
 * After recovery, a batch must have landed fully (every memory identical to what was written) or
 * not at all. Reads through a NEW client; a partial first read is read again every 500 ms for up to
 * `SETTLE_MS` until the batch is complete (a batch still partial then fails). Returns how many of
 * the batch are present, how many the first read saw, and failures.
 */
export async function batchAtomic(cell: LiveCell, reader: MemoryStore, collection: string, batch: MemoryRecord[], what: string): Promise<{ present: number; firstRead: number; failures: Failure[] }> {
  const col = await reader.openCollection(collection);
  const ids = batch.map((r) => r.id);
  let back = await col.get(ids);
  const firstRead = back.length;
  const t0 = Date.now();
  while (back.length !== 0 && back.length !== batch.length && Date.now() - t0 < SETTLE_MS) {
    await new Promise((r) => setTimeout(r, 500));
    back = await col.get(ids);
  }
  const failures: Failure[] = [];
  if (back.length !== 0 && back.length !== batch.length) {
    failures.push(
      failure(
        cell,
        'fault-partial',
        `${what}: after recovery ${back.length} of ${batch.length} memories are present (first read ${firstRead}, still partial ${Math.round((Date.now() - t0) / 1000)} s later; a batch must land fully or not at all)`,
        { expected: `0 or ${batch.length}`, actual: back.length },
      ),
    );
  }
  const byId = new Map(batch.map((r) => [r.id, r]));
  for (const b of back) {
    const diff = describeDifference(byId.get(b.id)!, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack);
    if (diff) failures.push(failure(cell, 'fault-partial', `${what}: memory ${b.id} present after recovery but changed: ${diff}`, { id: b.id }));
  }
  return { present: back.length, firstRead, failures };
}

/**
 * A retry of the faulted write must complete: resolve, then every memory of the batch present and
 * identical; and the faulted client itself must work again.
 * - The retry goes through `reader`, a client with the adapter's ordinary limits that saw no fault:
 *   C23's 1.5 s fault limits exist to end calls to a paused server, and an unfaulted 1,000-row chunk
 *   of the retry can outlast them on a loaded host (CI, 4 cells at once: pgvector@pg18's 3,000-memory
 *   retry rejected "Query read timeout" and nothing else was wrong). What the retry proves is that
 *   the store takes the batch after recovery, not how fast.
 * - The faulted client (`faulted`, the handle the fault hit) must answer a `count()` after recovery
 *   (a small call that fits its limits): a client left broken by the fault fails `fault-recovery`.
 * Returns the failures (empty when both hold).
 */
export async function retryCompletes(cell: LiveCell, faulted: MemoryCollection, reader: MemoryStore, batch: MemoryRecord[], what: string): Promise<Failure[]> {
  const out: Failure[] = [];
  try {
    await faulted.count();
  } catch (e) {
    out.push(failure(cell, 'fault-recovery', `${what}: the faulted client did not recover: count() on collection ${faulted.spec.name} after recovery failed: ${String((e as Error).message ?? e)}`));
  }
  try {
    await (await reader.openCollection(faulted.spec.name)).upsert(batch);
  } catch (e) {
    return [...out, failure(cell, 'fault-retry', `${what}: the retry after recovery (through a client that saw no fault) failed: ${String((e as Error).message ?? e)}`)];
  }
  const a = await batchAtomic(cell, reader, faulted.spec.name, batch, `${what} (retried)`);
  if (a.present !== batch.length) {
    return [
      ...out,
      ...a.failures,
      failure(cell, 'fault-retry', `${what}: after a successful retry ${a.present} of ${batch.length} memories are present`, { expected: batch.length, actual: a.present }),
    ];
  }
  return [...out, ...a.failures];
}
