import { MemoryMatrixError, isMemoryMatrixError } from '@memory-matrix/spec';
import type Database from 'libsql';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'libsql';

/** One `libsql` (better-sqlite3-compatible, synchronous) connection. */
export type LibsqlDb = InstanceType<typeof Database>;

/**
 * Shared by a store and its collections: the one connection, its database file and whether the
 * store is closed. `run` is the one place backend errors are wrapped (the kit's store context,
 * issue 33 step 6a, when it lands).
 */
export class LibsqlContext {
  closed = false;
  constructor(
    readonly db: LibsqlDb,
    /** Absolute path of the database file. */
    readonly file: string,
  ) {}

  /**
   * Run `fn`; anything it throws that is not a MemoryMatrixError becomes BACKEND_ERROR
   * `libsql: <what> on table <table> failed: <message> (SQLITE_xxx)`, the driver's error as
   * `cause`. Rejects with BACKEND_ERROR at once when the store is closed.
   */
  run<T>(what: string, table: string | undefined, fn: () => T): Promise<T> {
    const where = `${what}${table ? ` on table ${table}` : ''}`;
    if (this.closed) return Promise.reject(new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: the store is closed`));
    try {
      return Promise.resolve(fn());
    } catch (err) {
      if (isMemoryMatrixError(err)) return Promise.reject(err);
      const e = err as { message?: unknown; code?: unknown };
      const code = typeof e?.code === 'string' && e.code.startsWith('SQLITE_') ? ` (${e.code})` : '';
      const message = typeof e?.message === 'string' ? e.message : String(err);
      return Promise.reject(new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where} failed: ${message}${code}`, { cause: err }));
    }
  }
}
