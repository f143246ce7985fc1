import { MemoryMatrixError, isMemoryMatrixError } from '@memory-matrix/spec';
import type { SqlClient } from './sql';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'pgvector';

/**
 * State shared by a store and its collections: the SQL client, whether the store is closed, and
 * what the server's pgvector supports. `run` is the one place backend errors are wrapped.
 */
export class StoreContext {
  closed = false;
  constructor(
    readonly client: SqlClient,
    readonly prefix: string,
    /** pgvector ≥ 0.8.0: `hnsw.iterative_scan` / `ivfflat.iterative_scan` exist. */
    readonly iterativeScan: boolean,
  ) {}

  /**
   * Run `fn` and wrap anything it throws that is not already a MemoryMatrixError as
   * BACKEND_ERROR: `pgvector: <what> on table <table> failed: <message> (SQLSTATE xxxxx)`, with
   * the driver's error as `cause`. Throws BACKEND_ERROR at once when the store is closed.
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

/** Pass MemoryMatrixErrors through; wrap anything else as BACKEND_ERROR naming `what`. */
export function wrapBackendError(err: unknown, what: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const e = err as { message?: unknown; code?: unknown; detail?: unknown };
  const state = typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? ` (SQLSTATE ${e.code})` : '';
  const detail = typeof e?.detail === 'string' ? ` — ${e.detail}` : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${what} failed: ${message}${state}${detail}`, { cause: err });
}

/** The SQLSTATE of a driver error, if any (pg and PGlite both put it in `code`). */
export function sqlState(err: unknown): string | undefined {
  const c = (err as { code?: unknown })?.code;
  return typeof c === 'string' ? c : undefined;
}
