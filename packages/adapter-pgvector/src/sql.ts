import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

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
  /**
   * `COPY <table> (<columns>) FROM …  WITH (FORMAT binary)` of `payload` (a whole binary COPY
   * stream, copy-binary.ts) on this connection: pg over the protocol's COPY FROM STDIN
   * (pg-copy-streams), PGlite from its `/dev/blob` device. `table` and `columns` are quoted
   * identifiers. Rejects with the driver's error (SQLSTATE in `code`) when the server refuses a
   * row; the transaction is then in the failed state. Optional: a wrapper without it makes the
   * adapter write with INSERT.
   */
  copyIn?(table: string, columns: readonly string[], payload: Buffer): Promise<void>;
}

/**
 * The part of a PGlite instance the adapter needs (structural, so the adapter does not depend on
 * one PGlite version: 0.2.x and 0.5.x both fit). `transaction` is PGlite's own BEGIN/COMMIT
 * wrapper, holding PGlite's exclusive lock for the whole callback.
 */
export interface PGliteLike {
  query(sql: string, params?: unknown[], options?: PGliteQueryOptions): Promise<{ rows: unknown[] }>;
  transaction<T>(fn: (tx: { query(sql: string, params?: unknown[], options?: PGliteQueryOptions): Promise<{ rows: unknown[] }> }) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The query option of PGlite the adapter uses (0.2.x and 0.5.x): `blob` is what `COPY … FROM '/dev/blob'` reads. */
export interface PGliteQueryOptions {
  blob?: Blob;
}

/** `COPY <table> (<columns>) FROM <source> WITH (FORMAT binary)`; `source` is `STDIN` or a quoted file name. */
export function copyBinarySql(table: string, columns: readonly string[], source: string): string {
  return `COPY ${table} (${columns.join(', ')}) FROM ${source} WITH (FORMAT binary)`;
}

/**
 * Wrap a `pg` Pool. `transaction` checks one connection out of the pool, runs BEGIN … COMMIT on
 * it and releases it; when ROLLBACK itself fails the connection is destroyed rather than reused.
 * Its `copyIn` speaks COPY FROM STDIN (pg-copy-streams) unless `copy: false` (default true), for
 * a connection that cannot: PGlite's `node-postgres` connection class stops its engine with
 * exit(1) on a COPY FROM STDIN (seen with PGlite 0.5.14), so the tests over it turn it off.
 * `close()` ends the pool when `endPoolOnClose` (default true), else leaves it to its owner.
 */
export function fromPgPool(pool: Pool, opts: { endPoolOnClose?: boolean; copy?: boolean } = {}): SqlClient {
  const endOnClose = opts.endPoolOnClose ?? true;
  const copy = opts.copy ?? true;
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
          const query = (sql: string, params?: unknown[]) => client.query(sql, params);
          const copyIn = (table: string, columns: readonly string[], payload: Buffer) => pipeline(Readable.from([payload]), client.query(copyFrom(copyBinarySql(table, columns, 'STDIN'))));
          const out = await fn(copy ? { query, copyIn } : { query });
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
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: (sql, params) => tx.query(sql, params),
          copyIn: async (table, columns, payload) => {
            await tx.query(copyBinarySql(table, columns, `'/dev/blob'`), [], { blob: new Blob([payload]) });
          },
        }),
      ),
    async close() {
      if (closed) return;
      closed = true;
      if (opts.closeDbOnClose) await db.close();
    },
  };
}
