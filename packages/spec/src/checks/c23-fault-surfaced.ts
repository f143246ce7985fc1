import type { MemoryCollection, MemoryStore } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import { requireFaults, type ClientTimeouts, type FaultTarget } from '../durability';
import { hasCode } from '../errors';
import { hostCalibration } from '../host';
import type { MemoryRecord, RecallHit, RecallQuery } from '../types';
import { requireMemories } from './helpers/sampling';
import { type CheckDefinition, failure, needs } from './check';
import { batchAtomic, describeWrite, judgeSurfaced, retryCompletes, settle, type Settled } from './c23-steps';

/** The error the caller saw (first line, ≤ 200 chars), or null when the call did not reject. */
export const messageOf = (s: Settled): string | null => (s.how === 'rejected' ? s.message.split('\n')[0]!.slice(0, 200) : null);

/**
 * Client limits of the faulted client. A paused server answers nothing, so only the client's own
 * query/connect timeouts can end a call; 1.5 s keeps the check short, and a call may take two of
 * them (the statement, then the ROLLBACK on the same connection) before it rejects.
 */
export const C23_TIMEOUTS: Required<ClientTimeouts> = { connectMs: 1_500, queryMs: 1_500, statementMs: 1_500 };
/** A faulted call that has neither resolved nor rejected after this long is a hang (at least two client timeouts and 5 s). */
const HANG_LIMIT_MS = 20_000;

/**
 * The faulted client's limits on `cell`: `C23_TIMEOUTS`, or every limit set to the target's
 * declared `tolerances.faultClientTimeoutMs` (Chroma: one request of a C23 batch takes seconds),
 * each × `factor` (the host calibration, spec host.ts: a busy host stretches them, a paused server
 * still ends them), and the hang limit that goes with them (× the same factor).
 */
export function c23Timeouts(cell: LiveCell, factor = 1): { timeouts: Required<ClientTimeouts>; hangMs: number } {
  const ms = cell.config.tolerances.faultClientTimeoutMs;
  const base = ms === undefined ? C23_TIMEOUTS : { connectMs: ms, queryMs: ms, statementMs: ms };
  const x = (v: number): number => Math.round(v * factor);
  const timeouts = { connectMs: x(base.connectMs), queryMs: x(base.queryMs), statementMs: x(base.statementMs) };
  return { timeouts, hangMs: Math.max(x(HANG_LIMIT_MS), 2 * timeouts.queryMs + 5_000) };
}
/** The faulted client's name (`ConnectOptions.clientName`): what `dropConnections` and `awaitWriteInFlight` select. */
export const CLIENT = 'mm-c23';
/** Memories C23 needs: 50 stored, then batches of ⌊0.4·(n − 50)⌋ ≥ 1 and the rest ≥ 1 for the two faults. */
export const C23_MIN_MEMORIES = 53;

/**
 * C23 fault-surfaced, on a fresh instance of the target (default configuration) whose client has
 * timeouts configured (`C23_TIMEOUTS`):
 * 1. `docker pause` while a multi-chunk upsert is issued → the caller gets an error with a code
 *    (BACKEND_ERROR / TIMEOUT), never a resolved no-op or a hang; after unpause the batch is
 *    fully present or fully absent, and a retry completes it;
 * 2. `docker pause` during a recall → an error with a code; after unpause the same recall answers
 *    as before the pause;
 * 3. the client's session terminated in the middle of a multi-chunk upsert (once the server shows
 *    the write in flight) → an error with a code; batch all-or-nothing; a retry completes it.
 * Every failure names the write (ids, collection) and the fault.
 */
export const c23FaultSurfaced: CheckDefinition = {
  id: 'C23',
  name: 'fault-surfaced',
  requires: needs('vectors', 'faults'),
  timeoutMs: 4 * 60_000,
  async run(cell) {
    const faults = requireFaults(cell.config.faults, cell.target);
    const ft = await faults.start(faults.configurations[0]!.name);
    try {
      return await runSteps(cell, ft);
    } finally {
      await ft.stop();
    }
  },
};

async function runSteps(cell: LiveCell, ft: FaultTarget) {
  const golden = cell.dataset.memories;
  requireMemories('C23', cell.datasetName, golden.length, C23_MIN_MEMORIES, '50 stored memories and two non-empty faulted batches');
  const chunk = cell.config.capabilities.maxBatch ?? 1_000;
  // Multi-chunk batches where the dataset allows: 2 chunks for the pause, 3 for the drop.
  const sizeA = Math.min(2 * chunk, Math.floor((golden.length - 50) * 0.4));
  const sizeB = Math.min(3 * chunk, golden.length - 50 - sizeA);
  const [base, batchA, batchB] = [golden.slice(0, 50), golden.slice(50, 50 + sizeA), golden.slice(50 + sizeA, 50 + sizeA + sizeB)];
  const host = hostCalibration();
  const limits = c23Timeouts(cell, host.factor);
  const { timeouts } = limits;
  // The reader sets up, checks what landed and retries: the adapter's ordinary limits (see
  // retryCompletes). The faulted client's short limits are for the faulted calls: its unfaulted
  // set-up (a 50-memory upsert) outlasted 1.5 s on a loaded CI host ("Query read timeout",
  // pgvector@pg18), and how fast a store loads is not what C23 asks.
  const reader = await ft.connect();
  const store = await ft.connect({ clientName: CLIENT, timeouts });
  const failures: Failure[] = [];
  const figures: Record<string, Figure> = {
    clientTimeouts: `connect ${timeouts.connectMs} ms, query ${timeouts.queryMs} ms, statement ${timeouts.statementMs} ms`,
    hangLimitMs: limits.hangMs,
    hostFactor: host.factor,
    batchPause: batchA.length,
    batchDrop: batchB.length,
  };
  try {
    const spec = cell.collectionSpec('c23');
    await (await reader.createCollection(spec)).upsert(base);
    const col = await store.openCollection(spec.name);
    failures.push(...(await pauseDuringWrite(cell, ft, col, reader, batchA, figures, limits.hangMs)));
    failures.push(...(await pauseDuringQuery(cell, ft, col, figures, limits.hangMs)));
    failures.push(...(await dropMidBatch(cell, ft, col, reader, batchB, figures, limits.hangMs)));
    const count = await (await reader.openCollection(col.spec.name)).count();
    const want = base.length + batchA.length + batchB.length;
    figures.countAfter = count;
    if (count !== want) failures.push(failure(cell, 'fault-count', `after the faults and retries count() is ${count}, expected ${want}`, { expected: want, actual: count }));
  } finally {
    await ft.unpause().catch(() => undefined);
    await Promise.allSettled([store.close(), reader.close()]);
  }
  return { figures, failures };
}

async function pauseDuringWrite(
  cell: LiveCell,
  ft: FaultTarget,
  col: MemoryCollection,
  reader: MemoryStore,
  batch: MemoryRecord[],
  figures: Record<string, Figure>,
  hangMs: number,
): Promise<Failure[]> {
  const what = describeWrite(batch, col.spec.name);
  await ft.pause();
  let s;
  try {
    s = await settle(col.upsert(batch), hangMs);
  } finally {
    await ft.unpause();
  }
  Object.assign(figures, { pauseWrite: s.how === 'rejected' ? s.code : s.how, pauseWriteMs: Math.round(s.ms), pauseWriteMessage: messageOf(s) });
  const a = await batchAtomic(cell, reader, col.spec.name, batch, what);
  figures.pauseWritePresentAfter = a.present;
  if (a.firstRead !== a.present) figures.pauseWritePresentFirstRead = a.firstRead; // landed in pieces after the client gave up
  const out = judgeSurfaced(cell, s, what, 'docker pause of the server', `${a.present} of ${batch.length} memories present after unpause`, Number(figures.hostFactor));
  return [...out, ...a.failures, ...(await retryCompletes(cell, col, reader, batch, what))];
}

async function pauseDuringQuery(cell: LiveCell, ft: FaultTarget, col: MemoryCollection, figures: Record<string, Figure>, hangMs: number): Promise<Failure[]> {
  const q = cell.dataset.queries[0]!;
  let query: RecallQuery = { vector: q.vector, k: 10, scan: 'exact' };
  let before: RecallHit[];
  try {
    before = await col.recall(query);
  } catch (e) {
    if (!hasCode(e, 'CAPABILITY_MISSING')) throw e;
    query = { ...query, scan: 'index' }; // no exact path at all (Chroma: HNSW only); the same index query twice answers the same
    before = await col.recall(query);
  }
  await ft.pause();
  let s;
  try {
    s = await settle(col.recall(query), hangMs);
  } finally {
    await ft.unpause();
  }
  Object.assign(figures, { pauseQuery: s.how === 'rejected' ? s.code : s.how, pauseQueryMs: Math.round(s.ms), pauseQueryMessage: messageOf(s) });
  const out = judgeSurfaced(cell, s, `recall (query ${q.id}, k 10, ${query.scan}) on collection ${col.spec.name}`, 'docker pause of the server', undefined, Number(figures.hostFactor));
  const after = await col.recall(query);
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    out.push(
      failure(cell, 'fault-recovery', `recall of query ${q.id} after unpause differs from before the pause: ${JSON.stringify(after.slice(0, 3))} vs ${JSON.stringify(before.slice(0, 3))}`, {
        queryId: q.id,
      }),
    );
  }
  return out;
}

/**
 * Step 3 of C23, also all of C30: the client's server session terminated once the server shows its
 * multi-chunk upsert of `batch` in flight; the call must reject with a code (not hang past
 * `hangMs`), the batch be all there or absent, and a retry through `col` complete it. Writes the
 * figures `dropMidBatch`, `dropSessions`, `dropMs`, `dropMessage`, `dropPresentAfter` into `figures`.
 */
export async function dropMidBatch(
  cell: LiveCell,
  ft: FaultTarget,
  col: MemoryCollection,
  reader: MemoryStore,
  batch: MemoryRecord[],
  figures: Record<string, Figure>,
  hangMs: number,
): Promise<Failure[]> {
  const what = describeWrite(batch, col.spec.name);
  let t0 = 0;
  let write: Promise<void> | undefined;
  const startWrite = (): Promise<void> => {
    t0 = performance.now();
    write = col.upsert(batch);
    write.catch(() => undefined); // judged below by settle()
    return write;
  };
  let dropped = 0;
  let seen = true;
  try {
    // The write starts only once the watch is in place: started before it, a short write could
    // commit while the watcher was still connecting (seen on pgvector@pg18 under load).
    await ft.awaitWriteInFlight(CLIENT, 15_000, startWrite);
    dropped = await ft.dropConnections(CLIENT);
  } catch (e) {
    seen = false;
    figures.dropError = String((e as Error).message ?? e);
  }
  // When the watch could not be put in place the write still runs (unfaulted): the fault-setup failure below says why.
  const s = await settle(write ?? startWrite(), hangMs, t0);
  Object.assign(figures, { dropMidBatch: s.how === 'rejected' ? s.code : s.how, dropSessions: dropped, dropMs: Math.round(s.ms), dropMessage: messageOf(s) });
  const a = await batchAtomic(cell, reader, col.spec.name, batch, what);
  figures.dropPresentAfter = a.present;
  if (a.firstRead !== a.present) figures.dropPresentFirstRead = a.firstRead;
  const out: Failure[] = [];
  const after = `${a.present} of ${batch.length} memories present afterwards`;
  if (!seen || dropped === 0) {
    out.push(
      failure(
        cell,
        'fault-setup',
        `${what}: the write was not seen in flight or no session was terminated (${String(figures.dropError ?? `${dropped} sessions`)}); the fault could not be applied mid-batch`,
      ),
    );
  } else {
    out.push(...judgeSurfaced(cell, s, what, `termination of its server session mid-batch (${dropped} session(s))`, after, Number(figures.hostFactor)));
  }
  return [...out, ...a.failures, ...(await retryCompletes(cell, col, reader, batch, what))];
}
