import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defineDriver, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore, type ScoreConversion } from '@memory-matrix/spec';
import { sqlitePackageVersions } from './driver-versions';
import { sqliteEmbeddedEngine } from './engine';
import { sqliteProcessEngine } from './process/engine';
import { sqliteVecToCanonical } from './scores';
import { createSqliteStore, SQLITE_CAPABILITIES, type SqliteStore } from './sqlite-adapter';

/** vec0 distance → canonical score (scores.ts has the derivation from sqlite-vec.c). */
export const SQLITE_SCORES: ScoreConversion = {
  formula:
    'sqlite-vec vec0 distance_metric=cosine d = 1 − cos → 1 − d; distance_metric=L2 d = Euclidean distance → −d; no inner product (sqlite-vec 0.1.9 sqlite-vec.c, distance_cosine_float / distance_l2_sqr_float)',
  toCanonical: sqliteVecToCanonical,
};

/** `sqlite_version()` and `vec_version()` as one store reports them (`serverInfo`), the store then closed. */
async function reportedVersions(store: SqliteStore): Promise<{ serverVersion: string; components: Record<string, string> }> {
  try {
    const s = await store.serverInfo();
    return { serverVersion: `${s.server} + sqlite-vec ${s.components['sqlite-vec']}`, components: s.components };
  } finally {
    await store.close();
  }
}

/**
 * Engine `sqlite-vec-0.1`: better-sqlite3 (its bundled SQLite) + sqlite-vec 0.1.x `vec0`, in this
 * process, on one database file (WAL, synchronous NORMAL: the adapter's defaults).
 * - no `dataDir`: `sqliteEmbeddedEngine()` (a temp dir, removed at close);
 * - `dataDir`: the file `<dataDir>/memory.db` (the directory is created), kept at close and
 *   reopened by the same directory.
 * Every `connect()` is a new connection on that file.
 * `faultProcess`: the same store in a process of its own that owns the file (process/engine.ts),
 * which the fault checks kill with SIGKILL and restart (catalog `durability:` of an embedded target).
 */
const sqliteVecEngine: EmbeddedEngine = {
  description: 'SQLite (bundled by better-sqlite3) + sqlite-vec 0.1 vec0, in this process',
  preflight: sqlitePackageVersions,
  faultProcess: sqliteProcessEngine,
  async open({ dataDir }): Promise<EmbeddedInstance> {
    if (dataDir === undefined) {
      const engine = await sqliteEmbeddedEngine();
      return {
        versions: async () => reportedVersions(await engine.connect()),
        connect: (): Promise<MemoryStore> => engine.connect(),
        close: () => engine.stop(),
      };
    }
    mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'memory.db');
    return {
      versions: async () => reportedVersions(await createSqliteStore({ file })),
      connect: (): Promise<MemoryStore> => createSqliteStore({ file }),
      // every store was closed by the provider; the file stays for the next open of dataDir
      close: async () => undefined,
    };
  },
};

/**
 * The sqlite driver: agent memory in one local SQLite file (better-sqlite3 + sqlite-vec `vec0`,
 * chat history and snapshots beside it). Offers `embedded` (engine `sqlite-vec-0.1`) only: SQLite
 * is a library, there is no server to start. Takes no `adapterOptions`.
 */
export const sqliteDriver = defineDriver({
  name: 'sqlite',
  description: 'SQLite + sqlite-vec (better-sqlite3, in process)',
  capabilities: SQLITE_CAPABILITIES,
  scores: SQLITE_SCORES,
  /** No ANN index: vec0's KNN is an exhaustive scan, so `none` is the only index type. */
  indexes: {},
  embedded: { engines: { 'sqlite-vec-0.1': sqliteVecEngine } },
});
