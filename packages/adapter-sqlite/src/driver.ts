import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineDriver, MemoryMatrixError, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore, type ScoreConversion } from '@memory-matrix/spec';
import { sqliteEmbeddedEngine } from './engine';
import { sqliteVecToCanonical } from './scores';
import { createSqliteStore, SQLITE_CAPABILITIES, type SqliteStore } from './sqlite-adapter';

/** vec0 distance → canonical score (scores.ts has the derivation from sqlite-vec.c). */
export const SQLITE_SCORES: ScoreConversion = {
  formula:
    'sqlite-vec vec0 distance_metric=cosine d = 1 − cos → 1 − d; distance_metric=L2 d = Euclidean distance → −d; no inner product (sqlite-vec 0.1.9 sqlite-vec.c, distance_cosine_float / distance_l2_sqr_float)',
  toCanonical: sqliteVecToCanonical,
};

/** packages/adapter-sqlite/package.json (this file is packages/adapter-sqlite/src/driver.ts). */
const PACKAGE_JSON = path.resolve(__dirname, '..', 'package.json');

/** The engine's npm packages, by the component name their installed version is reported as. */
const ENGINE_PACKAGES: Record<string, string> = { 'better-sqlite3': 'better-sqlite3', 'sqlite-vec-npm': 'sqlite-vec' };

/**
 * The installed version of npm package `pkg`: the nearest package.json named `pkg` above the
 * file `require.resolve(pkg)` finds (sqlite-vec's `exports` map does not expose ./package.json).
 * Throws TARGET_UNAVAILABLE naming `where` when the package is not installed.
 */
function installedVersion(pkg: string, where: string): string {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(pkg));
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} is not installed (run pnpm install)`, { cause: err });
  }
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (json.name === pkg && typeof json.version === 'string') return json.version;
    } catch {
      // no package.json in this directory (ENOENT): look one level up
    }
    const up = path.dirname(dir);
    if (up === dir) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} resolves to ${require.resolve(pkg)} but no package.json names it`);
    dir = up;
  }
}

/**
 * Installed version of better-sqlite3 (it bundles the SQLite library, hence `sqlite_version()`)
 * and sqlite-vec, checked against the exact versions pinned in packages/adapter-sqlite/package.json.
 * Returns `{ 'better-sqlite3': '12.11.1', 'sqlite-vec-npm': '0.1.9' }`. Throws TARGET_UNAVAILABLE
 * naming `where` when a package is missing or its installed version differs from the pin (a stale
 * install would test another SQLite).
 */
export function sqlitePackageVersions(where: string): Record<string, string> {
  const pins = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  const out: Record<string, string> = {};
  for (const [component, pkg] of Object.entries(ENGINE_PACKAGES)) {
    const installed = installedVersion(pkg, where);
    if (pins[pkg] !== installed) {
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${installed} is installed but ${PACKAGE_JSON} pins ${pins[pkg] ?? 'nothing'} (run pnpm install)`);
    }
    out[component] = installed;
  }
  return out;
}

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
 */
const sqliteVecEngine: EmbeddedEngine = {
  description: 'SQLite (bundled by better-sqlite3) + sqlite-vec 0.1 vec0, in this process',
  preflight: sqlitePackageVersions,
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
  embedded: { engines: { 'sqlite-vec-0.1': sqliteVecEngine } },
});
