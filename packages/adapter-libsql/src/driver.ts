import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineDriver, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore, type ScoreConversion } from '@memory-matrix/spec';
import { createLibsqlStore, LIBSQL_CAPABILITIES, type LibsqlStore } from './libsql-adapter';
import { diskannIndexSchema } from './schema';
import { libsqlToCanonical } from './scores';
import { libsqlPackageVersions } from './versions';

/** libSQL vector distance → canonical score (scores.ts has the source). */
export const LIBSQL_SCORES: ScoreConversion = {
  formula:
    'libSQL vector_distance_cos d = 1 − cos → 1 − d; vector_distance_l2 d = Euclidean distance → −d; no inner product (tursodatabase/libsql libsql-sqlite3/src/vectorfloat32.c; docs.turso.tech AI & Embeddings)',
  toCanonical: libsqlToCanonical,
};

/** `sqlite_version()` and the libsql package version as one store reports them, the store then closed. */
async function reportedVersions(store: LibsqlStore): Promise<{ serverVersion: string; components: Record<string, string> }> {
  try {
    const s = await store.serverInfo();
    return { serverVersion: s.server, components: s.components };
  } finally {
    await store.close();
  }
}

/**
 * Engine `libsql-0.5`: the `libsql` npm package (its prebuilt native library, libSQL's SQLite fork
 * with vector search compiled in) in this process, on one database file `memory.db` — in a temp
 * dir removed at close, or in `dataDir` (created; kept and reopened by the same directory).
 * Every `connect()` is a new connection on that file.
 */
const libsqlEngine: EmbeddedEngine = {
  description: 'libSQL (the libsql npm package, native prebuilt) with F32_BLOB + DiskANN vector search, in this process',
  preflight: libsqlPackageVersions,
  async open({ dataDir }): Promise<EmbeddedInstance> {
    const owned = dataDir === undefined ? mkdtempSync(path.join(tmpdir(), 'mm-libsql-')) : undefined;
    const dir = dataDir ?? owned!;
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'memory.db');
    return {
      versions: async () => reportedVersions(await createLibsqlStore({ file })),
      connect: (): Promise<MemoryStore> => createLibsqlStore({ file }),
      // every store was closed by the provider
      close: async () => {
        if (owned) rmSync(owned, { recursive: true, force: true });
      },
    };
  },
};

/**
 * The libsql driver: agent memory in one local libSQL file, vectors in `F32_BLOB` columns, exact
 * recall by `vector_distance_cos` / `vector_distance_l2`, ANN by `vector_top_k` over a DiskANN
 * index (`index: { type: diskann, … }`). Offers `embedded` (engine `libsql-0.5`) only. Takes no
 * `adapterOptions`.
 */
export const libsqlDriver = defineDriver({
  name: 'libsql',
  description: 'libSQL native vector search (libsql npm, in process)',
  capabilities: LIBSQL_CAPABILITIES,
  scores: LIBSQL_SCORES,
  indexes: { diskann: diskannIndexSchema },
  embedded: { engines: { 'libsql-0.5': libsqlEngine } },
});
