import { KitStoreContext, SQLITE_LIKE } from '@memory-matrix/spec';
import type Database from 'libsql';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'libsql';

/** One `libsql` (better-sqlite3-compatible, synchronous) connection. */
export type LibsqlDb = InstanceType<typeof Database>;

/**
 * Shared by a store and its collections: the one connection, its database file and whether the
 * store is closed. `run` (spec `KitStoreContext`) is the one place backend errors are wrapped:
 * `libsql: <what> on table <table> failed: <message> (SQLITE_xxx)`, the driver's error as `cause`;
 * BACKEND_ERROR at once when the store is closed.
 */
export class LibsqlContext extends KitStoreContext {
  constructor(
    readonly db: LibsqlDb,
    /** Absolute path of the database file. */
    readonly file: string,
  ) {
    super({ ...SQLITE_LIKE, adapter: ADAPTER });
  }
}
