import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineDriver, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore } from '@memory-matrix/spec';
import { mastraCapabilities } from './capabilities';
import type { MastraVectorLike } from './collection';
import { MASTRA_SCORES } from './scores';
import { MastraStore } from './store';
import { mastraPackageVersions } from './versions';

/** The driver's name and its targets' backend. */
export const MASTRA_LIBSQL = 'mastra-libsql';

/** libSQL's largest F32_BLOB dimension (libSQL vector.h `MAX_VECTOR_SZ` 65536). */
export const LIBSQL_MAX_DIM = 65536;

/** What Mastra's LibSQLVector can do. */
export const MASTRA_LIBSQL_CAPABILITIES = mastraCapabilities(LIBSQL_MAX_DIM);

/** The database file of a store root. */
export const DB_FILE = 'mastra-vector.db';

/**
 * A NEW Mastra `LibSQLVector({ connectionUrl: 'file:<root>/mastra-vector.db' })` (its own
 * @libsql/client connection) as a memory store. `close()` closes that client.
 */
export function openMastraLibsql(root: string): MemoryStore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { LibSQLVector } = require('@mastra/libsql') as { LibSQLVector: new (config: { connectionUrl: string }) => MastraVectorLike & { turso: { close(): void } } };
  mkdirSync(root, { recursive: true });
  const vector = new LibSQLVector({ connectionUrl: `file:${path.join(root, DB_FILE)}` });
  return new MastraStore({
    adapter: MASTRA_LIBSQL,
    capabilities: MASTRA_LIBSQL_CAPABILITIES,
    vector,
    maxDim: LIBSQL_MAX_DIM,
    serverInfo: async () => {
      const v = mastraPackageVersions('@mastra/libsql', 'mastra-libsql serverInfo');
      return { server: `@mastra/libsql ${v['@mastra/libsql']} (LibSQLVector, embedded libSQL file)`, components: v };
    },
    close: async () => vector.turso.close(),
  });
}

/**
 * Engine `libsql-file`: Mastra's LibSQLVector on a local libSQL file, in this process. `dataDir`:
 * the file lives there and is reopened by the same directory; absent: a temporary directory
 * removed at close. Every `connect()` is a new LibSQLVector (new connection) on that file.
 */
const libsqlFileEngine: EmbeddedEngine = {
  description: "Mastra's LibSQLVector (@mastra/libsql) on a local libSQL file, in this process",
  preflight: (where) => mastraPackageVersions('@mastra/libsql', where),
  async open({ dataDir }): Promise<EmbeddedInstance> {
    const root = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mm-mastra-libsql-'));
    return {
      versions: async () => {
        const v = mastraPackageVersions('@mastra/libsql', 'mastra-libsql versions');
        return { serverVersion: `@mastra/libsql ${v['@mastra/libsql']}`, components: v };
      },
      connect: async (): Promise<MemoryStore> => openMastraLibsql(root),
      close: async () => {
        if (dataDir === undefined) rmSync(root, { recursive: true, force: true });
      },
    };
  },
};

/**
 * The mastra-libsql driver: Mastra's `LibSQLVector` (@mastra/libsql, pinned in
 * packages/adapter-mastra/package.json with @mastra/core) on an embedded libSQL file. Offers
 * `embedded` (engine `libsql-file`). Takes no `adapterOptions`.
 */
export const mastraLibsqlDriver = defineDriver({
  name: MASTRA_LIBSQL,
  description: "Mastra's LibSQLVector (@mastra/libsql) on an embedded libSQL file",
  capabilities: MASTRA_LIBSQL_CAPABILITIES,
  scores: MASTRA_SCORES,
  /** No index type: Mastra's query scans every row (README "Indexes"). */
  indexes: {},
  embedded: { engines: { 'libsql-file': libsqlFileEngine } },
});
