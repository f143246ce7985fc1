import { hasCode } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/**
 * A backend write error swallowed. Public bug kind: "add() returned but nothing was stored" — a
 * `try { … } catch { return }` (or a fire-and-forget promise) around the backend call of upsert
 * and delete, so a refused or failed write looks acknowledged. Only backend failures are
 * swallowed (`BACKEND_ERROR`, `OUT_OF_MEMORY`, and errors without a code): the adapter's own input
 * validation (DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT …) runs before the backend call
 * and still throws, as in the real bug. A swallowed delete reports 0 deleted.
 */
function swallowed(e: unknown): boolean {
  if (hasCode(e, 'BACKEND_ERROR') || hasCode(e, 'OUT_OF_MEMORY')) return true;
  return typeof (e as { code?: unknown })?.code !== 'string';
}

export const writeErrorSwallowed: Mutant = {
  name: 'write-error-swallowed',
  family: 'write-errors',
  bug: 'upsert / delete resolve normally when the backend write fails',
  requires: needsCaps('vectors'),
  fault: () => ({
    collection: (inner) => ({
      upsert: async (records) => {
        try {
          await inner.upsert(records);
        } catch (e) {
          if (!swallowed(e)) throw e;
        }
      },
      delete: async (ids) => {
        try {
          return await inner.delete(ids);
        } catch (e) {
          if (!swallowed(e)) throw e;
          return 0;
        }
      },
    }),
  }),
};

/**
 * Whether `e` is a write that gave up waiting on a lock another connection held: SQLite's
 * SQLITE_BUSY / SQLITE_LOCKED after `busy_timeout`, PostgreSQL's lock_not_available (SQLSTATE
 * 55P03, `lock_timeout`), by the wrapped backend error's code, or a message saying so.
 */
function lockWait(e: unknown): boolean {
  const cause = (e as { cause?: { code?: unknown } })?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (/^SQLITE_(BUSY|LOCKED)/.test(code) || code === '55P03') return true;
  return /database is locked|database table is locked|lock timeout|could not obtain lock/i.test(String((e as Error)?.message));
}

/** Run `op`; a lock-wait failure resolves with `dropped` instead (the write is silently lost). */
async function dropOnLockWait<T>(op: () => Promise<T>, dropped: T): Promise<T> {
  try {
    return await op();
  } catch (e) {
    if (!lockWait(e)) throw e;
    return dropped;
  }
}

/**
 * A write that waits on a lock and is dropped (issue 36, kind 1). Public bug kind: an adapter that
 * catches SQLITE_BUSY ("database is locked") and returns as if the write had landed — a retry
 * wrapper that gives up and resolves, or a `catch` written for a different error. Every other
 * error still throws, so only a check that makes a write wait out a lock held by another process
 * past the store's busy timeout can see it.
 */
export const lockWaitDropped: Mutant = {
  name: 'lock-wait-dropped',
  family: 'write-errors',
  bug: "a write that gives up waiting on another process's lock (SQLITE_BUSY) resolves as if it had landed",
  requires: (caps) => (caps.history || (caps.vectors && caps.upsert) ? null : 'capability: history or vectors + upsert'),
  fault: () => ({
    collection: (inner) => ({
      upsert: (records) => dropOnLockWait(() => inner.upsert(records), undefined),
      delete: (ids) => dropOnLockWait(() => inner.delete(ids), ids.length),
    }),
    history: (inner) => ({
      append: (messages) => dropOnLockWait(() => inner.append(messages), undefined),
    }),
  }),
};

/**
 * A failed write that takes another client's acknowledged write with it (issue 36, kind 6). Public
 * bug kind: a memory layer that sends `BEGIN`, the INSERTs and `COMMIT` / `ROLLBACK` as separate
 * queries on a connection POOL, so they land on different connections: the `ROLLBACK` after a
 * failed batch ends the transaction another writer's batch is in, and that writer's acknowledged
 * rows are gone (measured on such a layer: 31 acknowledged, 25 stored). Here: every client's
 * collection of one name shares the last acknowledged upsert; an upsert that fails deletes that
 * batch (when another handle wrote it) before it rethrows its own error.
 */
export const failedBatchRollsBackOthers: Mutant = {
  name: 'failed-batch-rolls-back-others',
  family: 'write-errors',
  bug: "a failed upsert rolls back another client's acknowledged batch (BEGIN / ROLLBACK on pooled connections)",
  requires: needsCaps('vectors', 'upsert'),
  fault: () => {
    // Per collection name: the last acknowledged batch, and the handle that wrote it.
    const last = new Map<string, { ids: string[]; by: object }>();
    return {
      collection: (inner) => {
        const handle = {};
        return {
          upsert: async (records) => {
            try {
              await inner.upsert(records);
            } catch (e) {
              const other = last.get(inner.spec.name);
              if (other && other.by !== handle) await inner.delete(other.ids).catch(() => 0);
              throw e;
            }
            last.set(inner.spec.name, { ids: records.map((r) => r.id), by: handle });
          },
        };
      },
    };
  },
};

export const WRITE_ERROR_MUTANTS: readonly Mutant[] = [writeErrorSwallowed, lockWaitDropped, failedBatchRollsBackOthers];
