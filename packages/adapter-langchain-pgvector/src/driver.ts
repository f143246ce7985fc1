import { pgPoolOptions } from '@memory-matrix/adapter-pgvector';
import { defineDriver, HNSW_ONLY_INDEXES, type ConnectOptions, type MemoryStore, type ServerAddress } from '@memory-matrix/spec';
import { Pool } from 'pg';
import { LANGCHAIN_PGVECTOR_CAPABILITIES, LangchainPgvectorStore } from './langchain-pgvector-adapter';
import { LANGCHAIN_PGVECTOR_SCORES } from './scores';
import { clientPackageVersions } from './versions';

/**
 * A NEW LangChain.js PGVectorStore client on the server at `server.url`: one node-postgres Pool
 * (`application_name` = `opts.clientName`, so the fault checks drop its sessions; `opts.timeouts`
 * as the pgvector adapter maps them: adapter-pgvector `pgPoolOptions`) shared by the store's
 * PGVectorStore instances. The pool gets an 'error' listener, as node-postgres requires of a pool's
 * owner: an idle connection the server ends (C15 kill, C23 drop) would otherwise crash the process;
 * the next query on the pool rejects instead. Throws INVALID_INPUT (bad options).
 */
export async function connectLangchainPgvector(server: ServerAddress, opts?: ConnectOptions): Promise<MemoryStore> {
  const pool = new Pool({ connectionString: server.url, ...pgPoolOptions(opts) });
  pool.on('error', () => undefined);
  return new LangchainPgvectorStore(pool);
}

/**
 * The langchain-pgvector driver: LangChain.js's `PGVectorStore` (@langchain/community, pinned in
 * package.json) as the memory store, over the pgvector servers the catalog runs (`client` facet:
 * its targets name a `pgvector@…` server target). Recall, writes, deletes, the metric and the
 * index go through the client; reads it has no API for go to its table through the same pool
 * (collection.ts). Takes no `adapterOptions`.
 */
export const langchainPgvectorDriver = defineDriver({
  name: 'langchain-pgvector',
  description: 'LangChain.js PGVectorStore (@langchain/community) over PostgreSQL + pgvector',
  capabilities: LANGCHAIN_PGVECTOR_CAPABILITIES,
  scores: LANGCHAIN_PGVECTOR_SCORES,
  /** Index types: HNSW only, PGVectorStore.createHnswIndex (m, efConstruction, efSearch; spec hnswIndexSchema). */
  indexes: HNSW_ONLY_INDEXES,
  client: {
    servers: ['pgvector'],
    description: 'LangChain.js PGVectorStore over node-postgres',
    preflight: clientPackageVersions,
    connect: (server, opts) => connectLangchainPgvector(server, opts),
  },
});
