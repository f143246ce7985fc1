import { fromPGlite, type PGliteLike, type SqlClient, type SqlQueryable } from '../../src';

/**
 * The two PGlite engines the adapter is tested on (real PostgreSQL + pgvector in WASM):
 * - `pglite-0.2`: PGlite 0.2.17 (npm alias `pglite-pg16`) → PostgreSQL 16.4 + pgvector 0.8.0
 * - `pglite-0.5`: PGlite 0.5.14 + @electric-sql/pglite-pgvector 0.0.15 → PostgreSQL 18.6 + pgvector 0.8.7
 * The embedded provider in packages/targets is the runner's way in; the adapter's own tests
 * open PGlite directly because backends depends on this package (no cycle).
 */
export const ENGINES = ['pglite-0.2', 'pglite-0.5'] as const;
export type Engine = (typeof ENGINES)[number];

export async function openEngine(engine: Engine): Promise<PGliteLike> {
  /* eslint-disable @typescript-eslint/no-require-imports -- the engine is chosen at run time; both PGlite builds load as CommonJS */
  const [pglite, vec] = engine === 'pglite-0.2' ? [require('pglite-pg16'), require('pglite-pg16/vector')] : [require('@electric-sql/pglite'), require('@electric-sql/pglite-pgvector')];
  return (await pglite.PGlite.create({ extensions: { vector: vec.vector } })) as PGliteLike;
}

/**
 * A SqlClient that counts round trips: every `query` and `copyIn` (inside or outside a
 * transaction) is one, and a transaction adds two more (its BEGIN and COMMIT, which PGlite sends
 * itself). `beforeCopy`, when set, runs on the transaction just before each `copyIn` (tests use it
 * to write a row the COPY then collides with).
 */
export function counting(inner: SqlClient): SqlClient & { trips: number; statements: string[]; beforeCopy?: (tx: SqlQueryable) => Promise<void> } {
  const c = {
    trips: 0,
    statements: [] as string[],
    beforeCopy: undefined as undefined | ((tx: SqlQueryable) => Promise<void>),
    note(sql: string) {
      c.trips++;
      c.statements.push(sql.trim().split('\n')[0]!.slice(0, 60));
    },
    query(sql: string, params?: unknown[]) {
      c.note(sql);
      return inner.query(sql, params);
    },
    transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      c.note('BEGIN');
      return inner
        .transaction((tx) =>
          fn({
            query: (sql, params) => {
              c.note(sql);
              return tx.query(sql, params);
            },
            ...(tx.copyIn
              ? {
                  copyIn: async (table: string, columns: readonly string[], payload: Buffer) => {
                    await c.beforeCopy?.(tx);
                    c.note(`COPY ${table}`);
                    return tx.copyIn!(table, columns, payload);
                  },
                }
              : {}),
          }),
        )
        .finally(() => c.note('COMMIT/ROLLBACK'));
    },
    close: () => inner.close(),
  };
  return c;
}

/** A new adapter-level client over the same PGlite instance (the store does not close the db). */
export function client(db: PGliteLike): SqlClient {
  return fromPGlite(db);
}
