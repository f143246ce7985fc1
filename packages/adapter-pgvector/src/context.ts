import { errorText, KitStoreContext, wrapBackendErrorIn, type ContextStyle, type MemoryMatrixError } from '@memory-matrix/spec';
import type { SqlClient } from './sql';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'pgvector';

/** pgvector's wording of backend errors: `pgvector: <what> on table <table> failed: <message> (SQLSTATE xxxxx) — <detail>` (spec kit/context.ts). */
export const PGVECTOR_STYLE: ContextStyle = {
  adapter: ADAPTER,
  noun: 'table',
  describe: (err) => {
    const e = err as { code?: unknown; detail?: unknown } | null | undefined;
    const state = typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? ` (SQLSTATE ${e.code})` : '';
    return `${errorText(err)}${state}${typeof e?.detail === 'string' ? ` — ${e.detail}` : ''}`;
  },
};

/**
 * State shared by a store and its collections: the SQL client, whether the store is closed, and
 * what the server's pgvector supports. `run` (spec `KitStoreContext`, PGVECTOR_STYLE, the driver's
 * error as `cause`, BACKEND_ERROR at once when the store is closed) is the one place backend
 * errors are wrapped.
 */
export class StoreContext extends KitStoreContext {
  constructor(
    readonly client: SqlClient,
    readonly prefix: string,
    /** pgvector ≥ 0.8.0: `hnsw.iterative_scan` / `ivfflat.iterative_scan` exist. */
    readonly iterativeScan: boolean,
  ) {
    super(PGVECTOR_STYLE);
  }
}

/** Pass MemoryMatrixErrors through; wrap anything else as BACKEND_ERROR naming `what`. */
export const wrapBackendError = (err: unknown, what: string): MemoryMatrixError => wrapBackendErrorIn(PGVECTOR_STYLE, err, what);

/** The SQLSTATE of a driver error, if any (pg and PGlite both put it in `code`). */
export function sqlState(err: unknown): string | undefined {
  const c = (err as { code?: unknown })?.code;
  return typeof c === 'string' ? c : undefined;
}
