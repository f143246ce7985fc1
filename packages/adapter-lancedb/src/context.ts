import type { Connection } from '@lancedb/lancedb';
import { MemoryMatrixError, isMemoryMatrixError } from '@memory-matrix/spec';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'lancedb';

/**
 * State shared by a store and its collections: the LanceDB connection (one `lancedb.connect` of
 * the dataset directory), the directory, and whether the store is closed. `run` is the one place
 * LanceDB's errors are wrapped.
 */
export class StoreContext {
  closed = false;
  constructor(
    readonly db: Connection,
    /** Absolute path of the database directory (one Lance dataset per table below it). */
    readonly dir: string,
  ) {}

  /**
   * Await `fn` and wrap anything it throws that is not already a MemoryMatrixError as
   * BACKEND_ERROR: `lancedb: <what> on table <table> failed: <message>`, LanceDB's error as
   * `cause`. Rejects with BACKEND_ERROR at once when the store is closed.
   */
  async run<T>(what: string, table: string | undefined, fn: () => Promise<T>): Promise<T> {
    const where = table ? ` on table ${table}` : '';
    if (this.closed) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${what}${where}: the store is closed`);
    try {
      return await fn();
    } catch (err) {
      throw wrapBackendError(err, `${what}${where}`);
    }
  }
}

/** Pass MemoryMatrixErrors through; wrap anything else as BACKEND_ERROR naming `what`, with LanceDB's message. */
export function wrapBackendError(err: unknown, what: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const message = typeof (err as { message?: unknown })?.message === 'string' ? (err as Error).message : String(err);
  return new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${what} failed: ${message}`, { cause: err });
}
