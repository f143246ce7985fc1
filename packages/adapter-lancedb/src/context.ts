import type { Connection } from '@lancedb/lancedb';
import { KitStoreContext, wrapBackendErrorIn, type ContextStyle, type MemoryMatrixError } from '@memory-matrix/spec';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'lancedb';

/** LanceDB's wording of backend errors: `lancedb: <what> on table <table> failed: <message>` (spec kit/context.ts). */
export const LANCEDB_STYLE: ContextStyle = { adapter: ADAPTER, noun: 'table' };

/**
 * State shared by a store and its collections: the LanceDB connection (one `lancedb.connect` of
 * the dataset directory), the directory, and whether the store is closed. `run` (spec
 * `KitStoreContext`: LanceDB's error as `cause`, BACKEND_ERROR at once when the store is closed)
 * is the one place LanceDB's errors are wrapped.
 */
export class StoreContext extends KitStoreContext {
  constructor(
    readonly db: Connection,
    /** Absolute path of the database directory (one Lance dataset per table below it). */
    readonly dir: string,
  ) {
    super(LANCEDB_STYLE);
  }
}

/** Pass MemoryMatrixErrors through; wrap anything else as BACKEND_ERROR naming `what`, with LanceDB's message. */
export const wrapBackendError = (err: unknown, what: string): MemoryMatrixError => wrapBackendErrorIn(LANCEDB_STYLE, err, what);
