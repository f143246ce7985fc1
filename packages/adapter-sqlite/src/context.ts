import { MemoryMatrixError, isMemoryMatrixError } from '@memory-matrix/spec';
import type { Database } from 'better-sqlite3';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'sqlite';

/**
 * State shared by a store and its collections: the one better-sqlite3 connection, the database
 * file, and whether the store is closed. `run` is the one place backend errors are wrapped.
 * better-sqlite3 is synchronous: a statement (or a `db.transaction`) runs to completion before
 * any other JavaScript, so two connections of one process never interleave inside a transaction.
 */
export class StoreContext {
  closed = false;
  constructor(
    readonly db: Database,
    /** Absolute path of the database file. */
    readonly file: string,
  ) {}

  /**
   * Run `fn` and wrap anything it throws that is not already a MemoryMatrixError as
   * BACKEND_ERROR: `sqlite: <what> on table <table> failed: <message> (SQLITE_xxx)`, with the
   * driver's error as `cause`. Throws BACKEND_ERROR at once when the store is closed.
   */
  run<T>(what: string, table: string | undefined, fn: () => T): Promise<T> {
    const where = table ? ` on table ${table}` : '';
    if (this.closed) return Promise.reject(new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${what}${where}: the store is closed`));
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(wrapBackendError(err, `${what}${where}`));
    }
  }
}

/** Pass MemoryMatrixErrors through; wrap anything else as BACKEND_ERROR naming `what` and SQLite's result code (`SQLITE_BUSY` …). */
export function wrapBackendError(err: unknown, what: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const e = err as { message?: unknown; code?: unknown };
  const code = typeof e?.code === 'string' && e.code.startsWith('SQLITE_') ? ` (${e.code})` : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${what} failed: ${message}${code}`, { cause: err });
}

/** SQLite's extended result code of a better-sqlite3 error (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE` …), if any. */
export function sqliteCode(err: unknown): string | undefined {
  const c = (err as { code?: unknown; cause?: { code?: unknown } })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  return typeof c === 'string' && c.startsWith('SQLITE_') ? c : undefined;
}
