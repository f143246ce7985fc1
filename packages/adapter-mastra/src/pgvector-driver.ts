import { pgPoolOptions, PGVECTOR_MAX_DIM } from '@memory-matrix/adapter-pgvector';
import { defineDriver, type ConnectOptions, type MemoryStore, type ServerAddress } from '@memory-matrix/spec';
import type { Pool } from 'pg';
import { mastraCapabilities } from './capabilities';
import type { MastraVectorLike } from './collection';
import { viaMastra } from './errors';
import { MASTRA_SCORES } from './scores';
import { checkLineNode, lineOf, mastraOptionsSchema, lineRequire, type MastraLine } from './lines';
import { MastraStore } from './store';
import { mastraPackageVersions } from './versions';

/** The driver's name and its targets' backend. */
export const MASTRA_PGVECTOR = 'mastra-pgvector';

/** What Mastra's PgVector can do (pgvector's column limit). */
export const MASTRA_PGVECTOR_CAPABILITIES = mastraCapabilities(PGVECTOR_MAX_DIM);

/**
 * A NEW Mastra `PgVector({ connectionString: server.url, pgPoolOptions })` of `line` (lines.ts;
 * 1.x also takes an `id`; TARGET_UNAVAILABLE when the line cannot load here) on the server: its own
 * node-postgres pool (Mastra's default max 20 connections), `application_name` = `opts.clientName`
 * and `opts.timeouts` as the pgvector adapter maps them (adapter-pgvector `pgPoolOptions`). Mastra
 * puts no 'error' listener on its pool, so an idle connection the server ends (C15 kill, C23
 * drop) crashes the process that owns it (node-postgres re-emits it on the pool), and so does one
 * that ends a client Mastra holds checked out; the driver adds the listeners a pool's owner must
 * add (pool and each client), and Mastra's query rejects instead (README findings 3 and 5). Throws INVALID_INPUT (bad options).
 */
export async function connectMastraPgvector(server: ServerAddress, opts?: ConnectOptions, line: MastraLine = '0'): Promise<MemoryStore> {
  checkLineNode(line, `mastra-pgvector (Mastra ${line}.x)`);
  const { PgVector } = lineRequire(line)('@mastra/pg') as { PgVector: new (config: Record<string, unknown>) => MastraVectorLike & { pool: Pool; disconnect(): Promise<void> } };
  const vector = new PgVector({ connectionString: server.url, pgPoolOptions: pgPoolOptions(opts), ...(line === '0' ? {} : { id: 'memory-matrix' }) });
  vector.pool.on('error', () => undefined);
  // Mastra checks clients out (query, upsert: BEGIN … COMMIT) with no listener either: a server that ends the
  // session mid-transaction would crash the process; with one, Mastra's pending query rejects (README finding 5).
  vector.pool.on('connect', (client) => client.on('error', () => undefined));
  return new MastraStore({
    adapter: MASTRA_PGVECTOR,
    capabilities: MASTRA_PGVECTOR_CAPABILITIES,
    vector,
    maxDim: PGVECTOR_MAX_DIM,
    serverInfo: async () => {
      const { rows } = await viaMastra('serverInfo', () =>
        vector.pool.query(`SELECT version() AS server, current_setting('server_version') AS pg, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS ext`),
      );
      const r = rows[0];
      return { server: r.server, components: { postgres: String(r.pg).split(' ')[0]!, ...(r.ext ? { pgvector: r.ext } : {}) } };
    },
    close: () => vector.disconnect(),
  });
}

/**
 * The mastra-pgvector driver: Mastra's `PgVector` (@mastra/pg, pinned in package.json with
 * @mastra/core) as the memory store, over the pgvector servers the catalog runs (`client` facet:
 * its targets name a `pgvector@…` server target). Every read and write goes through Mastra's
 * vector API (collection.ts). `adapterOptions.mastra`: the Mastra line, `"0"` (default) or `"1"`
 * (lines.ts; 1.x needs Node >= 22.13, so its targets name a catalog `runtime`).
 */
export const mastraPgvectorDriver = defineDriver({
  name: MASTRA_PGVECTOR,
  adapterOptions: mastraOptionsSchema,
  description: "Mastra's PgVector (@mastra/pg) over PostgreSQL + pgvector",
  capabilities: MASTRA_PGVECTOR_CAPABILITIES,
  scores: MASTRA_SCORES,
  /** No index type: the driver creates Mastra indexes flat (README "Indexes"). */
  indexes: {},
  client: {
    servers: ['pgvector'],
    description: "Mastra's PgVector over node-postgres",
    preflight: (where, options) => mastraPackageVersions('@mastra/pg', where, lineOf(options)),
    connect: (server, opts, options) => connectMastraPgvector(server, opts, lineOf(options)),
  },
});
