import { KitStoreContext, SQLITE_LIKE, wrapBackendErrorIn, type ContextStyle, type MemoryMatrixError } from '@memory-matrix/spec';
import type { Database } from 'better-sqlite3';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'sqlite';

/** SQLite's wording of backend errors: `sqlite: <what> on table <table> failed: <message> (SQLITE_xxx)` (spec kit/context.ts). */
export const SQLITE_STYLE: ContextStyle = { ...SQLITE_LIKE, adapter: ADAPTER };

/**
 * State shared by a store and its collections: the one better-sqlite3 connection, the database
 * file, and whether the store is closed. `run` (spec `KitStoreContext`: synchronous `fn`, errors
 * as SQLITE_STYLE, BACKEND_ERROR once closed) is the one place backend errors are wrapped.
 * better-sqlite3 is synchronous: a statement (or a `db.transaction`) runs to completion before
 * any other JavaScript, so two connections of one process never interleave inside a transaction.
 */
export class StoreContext extends KitStoreContext {
  constructor(
    readonly db: Database,
    /** Absolute path of the database file. */
    readonly file: string,
  ) {
    super(SQLITE_STYLE);
  }
}

/** Pass MemoryMatrixErrors through; wrap anything else as BACKEND_ERROR naming `what` and SQLite's result code (`SQLITE_BUSY` …). */
export const wrapBackendError = (err: unknown, what: string): MemoryMatrixError => wrapBackendErrorIn(SQLITE_STYLE, err, what);

/** SQLite's extended result code of a better-sqlite3 error (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE` …), if any. */
export function sqliteCode(err: unknown): string | undefined {
  const c = (err as { code?: unknown; cause?: { code?: unknown } })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  return typeof c === 'string' && c.startsWith('SQLITE_') ? c : undefined;
}
