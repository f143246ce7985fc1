import type { Pool, PoolClient } from 'pg';

/**
 * The tiny query interface the adapter speaks. Both a `pg` Pool (real PostgreSQL server) and a
 * PGlite instance (PostgreSQL compiled to WASM, in process) satisfy it through the wrappers below,
 * so the adapter has exactly one code path and one set of SQL for both.
 *
 * - `query(sql, params)`: one statement, extended protocol, `$1…$n` parameters; resolves with the
 *   rows as objects keyed by column name. Rejects with the driver's error (the adapter wraps it).
 * - `transaction(fn)`: runs `fn` on ONE connection between BEGIN and COMMIT; ROLLBACK when `fn`
 *   rejects (the rejection is passed on). `SET LOCAL` inside `fn` stays inside this transaction,
 *   which is why per-query planner/index settings go there (pool connections are shared).
 * - `close()`: releases what the wrapper owns (see each wrapper); idempotent.
 */
export interface SqlClient extends SqlQueryable {
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Something that runs one parameterised statement (a client, or a client inside a transaction). */
export interface SqlQueryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row's shape depends on the statement; each caller decodes its own columns
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>;
}

/**
 * The part of a PGlite instance the adapter needs (structural, so the adapter does not depend on
 * one PGlite version: 0.2.x and 0.5.x both fit). `transaction` is PGlite's own BEGIN/COMMIT
 * wrapper, holding PGlite's exclusive lock for the whole callback.
 */
export interface PGliteLike {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  transaction<T>(fn: (tx: { query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }> }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Wrap a `pg` Pool. `transaction` checks one connection out of the pool, runs BEGIN … COMMIT on
 * it and releases it; when ROLLBACK itself fails the connection is destroyed rather than reused.
 * `close()` ends the pool when `endPoolOnClose` (default true), else leaves it to its owner.
 */
export function fromPgPool(pool: Pool, opts: { endPoolOnClose?: boolean } = {}): SqlClient {
  const endOnClose = opts.endPoolOnClose ?? true;
  let closed = false;
  // An idle pooled connection that dies (server killed or restarted) emits 'error' on the pool;
  // without a listener Node kills the process. The pool drops that connection, and the caller
  // sees the failure on its next query (connection refused / terminated), so nothing is hidden.
  pool.on('error', () => undefined);
  return {
    query: async (sql, params) => pool.query(sql, params as unknown[] | undefined),
    async transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      const client: PoolClient = await pool.connect();
      let releaseWith: Error | undefined;
      // Same for the checked-out connection between two statements: the error is kept and the
      // connection destroyed on release; the next statement on it rejects, so the caller sees it.
      const onError = (err: Error): void => {
        releaseWith = err;
      };
      client.on('error', onError);
      try {
        try {
          await client.query('BEGIN');
        } catch (err) {
          releaseWith = err as Error; // the connection could not even start a transaction
          throw err;
        }
        try {
          const out = await fn({ query: (sql, params) => client.query(sql, params as unknown[] | undefined) });
          await client.query('COMMIT');
          return out;
        } catch (err) {
          try {
            await client.query('ROLLBACK');
          } catch (rollbackErr) {
            releaseWith = rollbackErr as Error; // connection state unknown: destroy it
          }
          throw err;
        }
      } finally {
        client.off('error', onError);
        client.release(releaseWith);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (endOnClose) await pool.end();
    },
  };
}

/**
 * Wrap a PGlite instance. PGlite is ONE connection: several wrappers over the same instance are
 * several "clients" that take turns (PGlite queues queries and holds a lock during a
 * transaction). `close()` closes the PGlite instance only when `closeDbOnClose` is true
 * (default false: the embedded provider owns the instance and closes it at `stop()`).
 */
export function fromPGlite(db: PGliteLike, opts: { closeDbOnClose?: boolean } = {}): SqlClient {
  let closed = false;
  return {
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (sql, params) => tx.query(sql, params) })),
    async close() {
      if (closed) return;
      closed = true;
      if (opts.closeDbOnClose) await db.close();
    },
  };
}
