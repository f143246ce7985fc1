import { randomBytes } from 'node:crypto';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { Figure } from '../conformance/result';
import type { WriteLockHold } from '../durability';
import { MemoryMatrixError } from '../errors';
import type { ChatMessage } from '../history';
import { scaledLimitMs } from '../host';
import type { MemoryRecord } from '../types';
import { failure } from './check';
import type { C22Clients } from './c22-clients';
import { historyOn } from './c22-clients';
import { checkPrefix } from './helpers/history';
import { describeDifference, sampleRecords } from './helpers/sampling';

/**
 * How much longer than the writers' wait limit the lock is held, ms before the host factor: long
 * enough that a writer which honours its limit has given up before the lock goes (its wait is
 * timed by the store from the moment the write reaches it, after a loopback round trip).
 */
const MARGIN_MS = 1_500;
/** The longest wait limit the step waits out, ms: a store configured to wait longer is not held (a note says so). */
const MAX_WAIT_LIMIT_MS = 30_000;
/** Lock wait when writers wait without limit (`waitLimitMs` null), ms before the host factor: the writes must then land once the lock goes. */
const UNLIMITED_HOLD_MS = 2_000;

/** One write made while the lock is held, and how it ended. */
interface LockedWrite {
  what: string;
  /** Performs the write (resolves: acknowledged). */
  run(): Promise<void>;
  /** After the lock is gone: how many of the write's items are stored as written, of `size`, and the first difference seen. */
  readBack(): Promise<{ stored: number; difference?: string }>;
  size: number;
  /** How it ended, after how long (ms), and whether the lock was still held then. */
  outcome?: { ok: true; ms: number; whileHeld: boolean } | { ok: false; ms: number; error: unknown; whileHeld: boolean };
}

/**
 * C22, write-lock step (issue 36, kind 1), run where the writers are processes on one storage and
 * the storage has a write lock one client can hold (`C22Clients.holdWriteLock`; SQLite's
 * `BEGIN IMMEDIATE`): process 1 takes the lock, then processes 0 and 2 write at once — an upsert of
 * 3 memories into a new collection (capabilities vectors + upsert) and an append of 2 messages to a
 * new session (history) — and the lock is kept until both writes have ended (at most twice the
 * store's wait limit, busy_timeout, + `MARGIN_MS` × host factor), then let go. Each write must either be acknowledged and then stored exactly as
 * written, or fail with a coded error (`MemoryMatrixError`) and be wholly absent. A write that was
 * acknowledged but is missing (an adapter that catches SQLITE_BUSY and returns), one refused but
 * stored anyway (wholly or in part), and an uncoded error are failures (kind `write-lock`).
 * A write that ends only after the lock went is judged the same way and the note says so.
 * Where writers wait without limit (`waitLimitMs` null) the lock is held `UNLIMITED_HOLD_MS`; a wait
 * limit over `MAX_WAIT_LIMIT_MS` is not waited out (a note says so, the step is skipped).
 * Figures (prefix `lock/`): waitLimitMs, heldMs, and per write `upsert` / `append` (`landed` or
 * `refused <CODE>`) with its time in ms (`upsertMs`, `appendMs`).
 */
export async function lockedWrites(cell: LiveCell, clients: C22Clients): Promise<{ figures: Record<string, Figure>; failures: Failure[]; notes: string[] }> {
  const failures: Failure[] = [];
  const figures: Record<string, Figure> = {};
  if (!clients.holdWriteLock) return { figures, failures, notes: [`${clients.label}: the store has no write lock one client can hold; a write waiting on a lock was not tried`] };
  const caps = cell.config.capabilities;
  const writes: LockedWrite[] = [];
  if (caps.vectors && caps.upsert) writes.push(await upsertWrite(cell, clients));
  if (caps.history) writes.push(await appendWrite(cell, clients));
  if (!writes.length) return { figures, failures, notes: [] };

  const hold: WriteLockHold = await clients.holdWriteLock();
  let heldMs = 0;
  try {
    const limit = hold.waitLimitMs;
    if (limit !== null && limit > MAX_WAIT_LIMIT_MS) {
      return {
        figures: { 'lock/waitLimitMs': limit },
        failures,
        notes: [`${clients.label}: writers wait ${limit} ms for a lock (over ${MAX_WAIT_LIMIT_MS} ms): a write waiting out the lock was not tried`],
      };
    }
    // Writers with a wait limit: the lock is kept until both writes have ended (SQLite counts its
    // busy sleeps, not wall time, so under load a wait outlasts busy_timeout: a release on a fixed
    // timer let a write land after it, and a dropped SQLITE_BUSY went unseen), at most twice the
    // limit + the margin. Writers without a limit: released after a fixed hold, so they can land.
    const holdMs = limit === null ? scaledLimitMs(UNLIMITED_HOLD_MS) : 2 * limit + scaledLimitMs(MARGIN_MS);
    const t0 = performance.now();
    let held = true;
    const settled = Promise.all(
      writes.map(async (w) => {
        const s = performance.now();
        try {
          await w.run();
          w.outcome = { ok: true, ms: performance.now() - s, whileHeld: held };
        } catch (error) {
          w.outcome = { ok: false, ms: performance.now() - s, error, whileHeld: held };
        }
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise((r) => (timer = setTimeout(r, holdMs)));
    await (limit === null ? bound : Promise.race([settled, bound]));
    clearTimeout(timer);
    held = false;
    heldMs = performance.now() - t0;
    await hold.release();
    await settled;
  } finally {
    await hold.release();
  }

  figures['lock/waitLimitMs'] = hold.waitLimitMs;
  figures['lock/heldMs'] = Math.round(heldMs);
  const waited = hold.waitLimitMs === null ? 'writers wait without limit' : `past the writers' wait limit of ${hold.waitLimitMs} ms`;
  const during = `while another process held the storage's write lock ${Math.round(heldMs)} ms (${waited})`;
  const told: string[] = [];
  for (const w of writes) {
    const o = w.outcome!;
    const key = w.what.split(' ')[0]!;
    figures[`lock/${key}Ms`] = Math.round(o.ms);
    const { stored, difference } = await w.readBack();
    const fail = (message: string, extra: Partial<Failure>) => failures.push(failure(cell, 'write-lock', `${w.what} ${during}: ${message}`, extra));
    told.push(
      `${key} ${o.ok ? 'acknowledged' : `refused${o.error instanceof MemoryMatrixError ? ` ${o.error.code}` : ' (uncoded)'}`} after ${Math.round(o.ms)} ms${o.whileHeld ? '' : ' (after the lock was let go)'}, ${stored} of ${w.size} stored`,
    );
    if (o.ok) {
      figures[`lock/${key}`] = 'landed';
      if (stored < w.size)
        fail(`acknowledged after ${Math.round(o.ms)} ms, but ${w.size - stored} of ${w.size} are missing after the lock was let go${difference ? ` (${difference})` : ''}`, {
          expected: `${w.size} stored`,
          actual: stored,
        });
      continue;
    }
    if (!(o.error instanceof MemoryMatrixError)) {
      figures[`lock/${key}`] = 'uncoded error';
      fail(`failed after ${Math.round(o.ms)} ms with an uncoded error: ${(o.error as Error)?.message ?? String(o.error)}`, { expected: 'acknowledged, or a coded error', actual: 'uncoded error' });
      continue;
    }
    figures[`lock/${key}`] = `refused ${o.error.code}`;
    if (stored > 0) fail(`refused after ${Math.round(o.ms)} ms (${o.error.code}: ${o.error.message}), but ${stored} of ${w.size} are stored`, { expected: 'absent', actual: `${stored} stored` });
  }
  return { figures, failures, notes: [`${clients.label}: process 1 held the write lock ${Math.round(heldMs)} ms (${waited}): ${told.join('; ')}`] };
}

/** The upsert of the step: 3 memories into a new collection, written through process 0, read back through the reader. */
async function upsertWrite(cell: LiveCell, clients: C22Clients): Promise<LockedWrite> {
  const records: MemoryRecord[] = sampleRecords(cell.dataset.memories, 3);
  const spec = cell.collectionSpec('c22l', cell.config.index);
  await clients.create(spec);
  const col = await (await clients.writer(0)).openCollection(spec.name);
  return {
    what: `upsert of ${records.length} memories (process 0)`,
    size: records.length,
    run: () => col.upsert(records),
    async readBack() {
      const reader = await (await clients.reader()).openCollection(spec.name);
      const got = new Map((await reader.get(records.map((r) => r.id))).map((r) => [r.id, r]));
      let stored = 0;
      let difference: string | undefined;
      for (const r of records) {
        const b = got.get(r.id);
        const d = b ? describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack) : `${r.id} missing`;
        if (d === null) stored++;
        else difference ??= d;
      }
      return { stored, difference };
    },
  };
}

/** The append of the step: 2 messages in one call to a new session, through process 2 (of the writers), read back through the reader. */
async function appendWrite(cell: LiveCell, clients: C22Clients): Promise<LockedWrite> {
  const opts = { sessionId: `l-${randomBytes(4).toString('hex')}`, keyPrefix: checkPrefix(cell, 'c22l') };
  const history = await historyOn(cell, await clients.writer(2), opts);
  const at = Date.UTC(2024, 4, 1, 9, 30);
  const messages: ChatMessage[] = [0, 1].map((i) => ({
    role: i ? 'assistant' : 'user',
    content: `locked write ${i} — 鎖 🔒`,
    createdAt: new Date(at + i).toISOString(),
    metadata: { locked: i },
  }));
  return {
    what: `append of ${messages.length} messages (process 2)`,
    size: messages.length,
    run: () => history.append(messages),
    async readBack() {
      const got = await (await historyOn(cell, await clients.reader(), opts)).read();
      const stored = messages.filter((m) => got.some((g) => g.content === m.content && g.role === m.role && g.metadata.locked === m.metadata.locked)).length;
      return { stored, ...(stored < messages.length ? { difference: `${got.length} messages read back` } : {}) };
    },
  };
}
