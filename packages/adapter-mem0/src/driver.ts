import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pgPoolOptions } from '@memory-matrix/adapter-pgvector';
import { defineDriver, type ConnectOptions, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore, type ServerAddress } from '@memory-matrix/spec';
import { Pool } from 'pg';
import { MEM0_CAPABILITIES, Mem0Store } from './mem0-adapter';
import { Mem0PgStore } from './pg-store';
import { MEM0_SCORES } from './scores';
import { mem0PackageVersions, PGVECTOR_PACKAGES } from './versions';

/**
 * Engine `mem0-memory`: mem0's OSS `Memory` over its embedded vector store (provider `memory`,
 * better-sqlite3), in this process. `dataDir`: the collections live there and are reopened by the
 * same directory; absent: a temporary directory removed at close. Every `connect()` is a new store
 * (new `Memory` instances per collection) on that directory.
 */
const mem0MemoryEngine: EmbeddedEngine = {
  description: "mem0ai Memory (mem0ai/oss) over its embedded 'memory' vector store (better-sqlite3), in this process",
  preflight: (where) => mem0PackageVersions(where),
  async open({ dataDir }): Promise<EmbeddedInstance> {
    const root = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mm-mem0-'));
    return {
      versions: async () => {
        const v = mem0PackageVersions('mem0 versions');
        return { serverVersion: `mem0ai ${v.mem0ai}`, components: v };
      },
      connect: async (): Promise<MemoryStore> => new Mem0Store(root),
      close: async () => {
        if (dataDir === undefined) rmSync(root, { recursive: true, force: true });
      },
    };
  },
};

/**
 * A NEW mem0 store over the pgvector server at `server.url`: each collection's `Memory` connects
 * with that URL (mem0's PGVector, `connectionString`: one pg Client per Memory); the driver's own
 * pool (`application_name` = `opts.clientName`, timeouts as adapter-pgvector `pgPoolOptions`, an
 * 'error' listener as node-postgres requires of a pool's owner) reads what mem0 has no API for.
 * mem0's own clients carry no application name (its config has none). Throws INVALID_INPUT (bad options).
 */
export async function connectMem0Pg(server: ServerAddress, opts?: ConnectOptions): Promise<MemoryStore> {
  const pool = new Pool({ connectionString: server.url, ...pgPoolOptions(opts) });
  pool.on('error', () => undefined);
  return new Mem0PgStore(server.url, pool);
}

/**
 * The mem0 driver: mem0's open-source `Memory` (mem0ai, pinned in package.json) as the memory store:
 * `add` with `infer: false` (no LLM), `search`, `getAll`, `delete`, with an embedder that hands mem0
 * the golden vectors (embedder.ts). Offers `embedded` (engine `mem0-memory`: mem0's `memory`
 * store) and `client` over the pgvector servers (mem0's `pgvector` store; pg-store.ts). The
 * capabilities are the embedded store's; the pgvector targets override `filterOperators` in the
 * catalog (MEM0_PG_CAPABILITIES). Takes no `adapterOptions`.
 */
export const mem0Driver = defineDriver({
  name: 'mem0',
  description: 'mem0 OSS Memory (mem0ai) over its embedded vector store or pgvector',
  capabilities: MEM0_CAPABILITIES,
  scores: MEM0_SCORES,
  /** No index type: mem0's embedded store scans every row. */
  indexes: {},
  embedded: { engines: { 'mem0-memory': mem0MemoryEngine } },
  client: {
    servers: ['pgvector'],
    description: "mem0ai Memory (mem0ai/oss) over its 'pgvector' vector store (node-postgres)",
    preflight: (where) => mem0PackageVersions(where, PGVECTOR_PACKAGES),
    connect: (server, opts) => connectMem0Pg(server, opts),
  },
});
