import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineDriver, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore } from '@memory-matrix/spec';
import { mastraCapabilities } from './capabilities';
import type { MastraVectorLike } from './collection';
import { MASTRA_SCORES } from './scores';
import { checkLineNode, lineOf, mastraOptionsSchema, lineRequire, type MastraLine, type MastraOptions } from './lines';
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

/** A LibSQLVector of either line: 0.x has no `close()` (its client is `turso`), 1.x has one. */
type LibsqlVector = MastraVectorLike & { turso: { close(): void }; close?: () => Promise<void> };

/**
 * A NEW Mastra `LibSQLVector` on `file:<root>/mastra-vector.db` (its own @libsql/client
 * connection) of `line` (lines.ts): 0.x `new LibSQLVector({ connectionUrl })`, whose `close()`
 * closes the libSQL client (0.16.4 has no close(): README finding 8); 1.x `new LibSQLVector({ url,
 * id })` and its own `close()`. Throws TARGET_UNAVAILABLE when the line cannot load here (lines.ts
 * `checkLineNode`).
 */
export function openMastraLibsql(root: string, line: MastraLine = '0'): MemoryStore {
  const where = `mastra-libsql (Mastra ${line}.x)`;
  checkLineNode(line, where);
  const { LibSQLVector } = lineRequire(line)('@mastra/libsql') as { LibSQLVector: new (config: Record<string, string>) => LibsqlVector };
  mkdirSync(root, { recursive: true });
  const url = `file:${path.join(root, DB_FILE)}`;
  const vector = line === '0' ? new LibSQLVector({ connectionUrl: url }) : new LibSQLVector({ url, id: 'memory-matrix' });
  return new MastraStore({
    adapter: MASTRA_LIBSQL,
    capabilities: MASTRA_LIBSQL_CAPABILITIES,
    vector,
    maxDim: LIBSQL_MAX_DIM,
    serverInfo: async () => {
      const v = mastraPackageVersions('@mastra/libsql', 'mastra-libsql serverInfo', line);
      return { server: `@mastra/libsql ${v['@mastra/libsql']} (LibSQLVector, embedded libSQL file)`, components: v };
    },
    close: async () => (vector.close ? vector.close() : vector.turso.close()),
  });
}

/**
 * Engine `libsql-file`: Mastra's LibSQLVector of the target's line (`adapterOptions.mastra`) on a
 * local libSQL file, in this process. `dataDir`:
 * the file lives there and is reopened by the same directory; absent: a temporary directory
 * removed at close. Every `connect()` is a new LibSQLVector (new connection) on that file.
 */
const libsqlFileEngine: EmbeddedEngine<MastraOptions> = {
  description: "Mastra's LibSQLVector (@mastra/libsql) on a local libSQL file, in this process",
  preflight: (where, options) => mastraPackageVersions('@mastra/libsql', where, lineOf(options)),
  async open({ dataDir, adapterOptions }): Promise<EmbeddedInstance> {
    const line = lineOf(adapterOptions);
    const root = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mm-mastra-libsql-'));
    return {
      versions: async () => {
        const v = mastraPackageVersions('@mastra/libsql', 'mastra-libsql versions', line);
        return { serverVersion: `@mastra/libsql ${v['@mastra/libsql']}`, components: v };
      },
      connect: async (): Promise<MemoryStore> => openMastraLibsql(root, line),
      close: async () => {
        if (dataDir === undefined) rmSync(root, { recursive: true, force: true });
      },
    };
  },
};

/**
 * The mastra-libsql driver: Mastra's `LibSQLVector` (@mastra/libsql, pinned in
 * packages/adapter-mastra/package.json with @mastra/core) on an embedded libSQL file. Offers
 * `embedded` (engine `libsql-file`). `adapterOptions.mastra`: the Mastra line, `"0"` (default) or
 * `"1"` (lines.ts; 1.x needs Node >= 22.13, so its targets name a catalog `runtime`).
 */
export const mastraLibsqlDriver = defineDriver({
  name: MASTRA_LIBSQL,
  adapterOptions: mastraOptionsSchema,
  description: "Mastra's LibSQLVector (@mastra/libsql) on an embedded libSQL file",
  capabilities: MASTRA_LIBSQL_CAPABILITIES,
  scores: MASTRA_SCORES,
  /** No index type: Mastra's query scans every row (README "Indexes"). */
  indexes: {},
  embedded: { engines: { 'libsql-file': libsqlFileEngine } },
});
