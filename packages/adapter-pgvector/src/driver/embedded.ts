import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError, type EmbeddedEngine, type EmbeddedFacet, type MemoryStore } from '@memory-matrix/spec';
import { createPgvectorStore } from '../pgvector-adapter';
import { fromPGlite, type PGliteLike } from '../sql';
import { servePGlite, type PGliteSocket } from './pglite-serve';
import { initdbCacheEnabled, initdbCacheFile, readInitdbCache, writeInitdbCache } from './initdb-cache';

/**
 * The in-process engines: real PostgreSQL + pgvector compiled to WASM (PGlite). Package versions
 * are pinned in packages/adapter-pgvector/package.json (the one place); the server versions they
 * must report come from the catalog's `expect` (matrix/targets.yaml).
 * - `pglite-0.2`: `pglite-pg16` (npm alias of @electric-sql/pglite 0.2.x), vector extension from
 *   `pglite-pg16/vector` → PostgreSQL 16.4 + pgvector 0.8.0 at 0.2.17.
 * - `pglite-0.5`: `@electric-sql/pglite` 0.5.x + `@electric-sql/pglite-pgvector` → PostgreSQL 18.6 +
 *   pgvector 0.8.7 at 0.5.14 / 0.0.15. It also serves the Postgres wire protocol for client drivers
 *   (`@electric-sql/pglite-socket` 0.2.17, whose peer is pglite 0.5.14; no pglite-socket release
 *   declares pglite 0.2, so client targets cannot run over `pglite-0.2`).
 */
interface EngineModules {
  /** Module exporting the `PGlite` class. */
  pglite: string;
  /** Module exporting the `vector` extension. */
  vector: string;
  /** Packages whose installed version is reported as a component and checked against package.json. */
  packages: Record<string, string>;
  /** Module exporting `PGLiteSocketServer` for this PGlite (client drivers reach the engine through it); absent = none is published for this PGlite. */
  socket?: string;
}

export const PGLITE_ENGINE_MODULES: Record<'pglite-0.2' | 'pglite-0.5', EngineModules> = {
  'pglite-0.2': { pglite: 'pglite-pg16', vector: 'pglite-pg16/vector', packages: { pglite: 'pglite-pg16' } },
  'pglite-0.5': {
    pglite: '@electric-sql/pglite',
    vector: '@electric-sql/pglite-pgvector',
    socket: '@electric-sql/pglite-socket',
    packages: { pglite: '@electric-sql/pglite', 'pglite-pgvector': '@electric-sql/pglite-pgvector' },
  },
};

/** packages/adapter-pgvector/package.json (this file is packages/adapter-pgvector/src/driver/embedded.ts). */
const PACKAGE_JSON = path.resolve(__dirname, '..', '..', 'package.json');

/**
 * Installed version of each engine package, checked against the version pinned in
 * packages/adapter-pgvector/package.json (`0.5.14` or `npm:@electric-sql/pglite@0.2.17`). Returns
 * e.g. `{ pglite: '0.2.17' }`. Throws TARGET_UNAVAILABLE when a package is missing or its
 * installed version differs from the pin (a stale install would test the wrong engine).
 */
export function enginePackageVersions(m: EngineModules, where: string): Record<string, string> {
  const pins = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  const out: Record<string, string> = {};
  for (const [component, pkg] of Object.entries(m.packages)) {
    let installed: string;
    try {
      // main resolves to <pkg>/dist/index.cjs; the package's own package.json is one level up
      // (its `exports` map does not expose ./package.json).
      const main = require.resolve(pkg);
      installed = (JSON.parse(readFileSync(path.join(path.dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
    } catch (err) {
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} is not installed (run pnpm install)`, { cause: err });
    }
    const pin = pins[pkg]?.replace(/^npm:.*@/, '');
    if (pin !== undefined && pin !== installed) {
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${installed} is installed but ${PACKAGE_JSON} pins ${pins[pkg]} (run pnpm install)`);
    }
    out[component] = installed;
  }
  return out;
}

/**
 * PGlite's CommonJS build loads Node built-ins with dynamic `import()`. Inside jest's VM sandbox
 * that throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG from a promise PGlite does not handle,
 * which kills the worker without a useful message. Detect that case up front.
 * Returns a reason, or null when PGlite can start here.
 */
export function sandboxProblem(): string | null {
  if (process.env.JEST_WORKER_ID === undefined) return null;
  const flag = '--experimental-vm-modules';
  if (process.execArgv.includes(flag) || (process.env.NODE_OPTIONS ?? '').includes(flag)) return null;
  return `PGlite cannot start inside jest without ${flag} (it loads Node built-ins with dynamic import()); run jest as \`node ${flag} node_modules/jest/bin/jest.js\``;
}

/** The static side of a PGlite class (0.2 and 0.5 alike). */
type PGliteClass = { create(opts: Record<string, unknown>): Promise<PGliteLike & { dumpDataDir(compression?: 'none'): Promise<Blob> }> };

/**
 * A fresh in-memory PGlite: from the cached initdb'd cluster of this engine and these package
 * versions when there is a verified one (initdb-cache.ts: the measurement), else a full start whose
 * fresh cluster is dumped into the cache (before CREATE EXTENSION) for the next start.
 */
async function createInMemory(PGlite: PGliteClass, vector: unknown, id: string, m: EngineModules, where: string): Promise<PGliteLike> {
  const file = initdbCacheEnabled() ? initdbCacheFile(id, enginePackageVersions(m, where)) : undefined;
  const cached = file && readInitdbCache(file);
  if (cached) return PGlite.create({ extensions: { vector }, loadDataDir: new Blob([cached]) });
  const db = await PGlite.create({ extensions: { vector } });
  if (file) writeInitdbCache(file, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
  return db;
}

/** One PGlite engine as a driver engine: a PGlite instance with the vector extension; stores take turns on its single connection. */
function pgliteEngine(id: 'pglite-0.2' | 'pglite-0.5', description: string): EmbeddedEngine {
  const m = PGLITE_ENGINE_MODULES[id];
  return {
    description,
    preflight(where) {
      const problem = sandboxProblem();
      if (problem) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${problem}`);
      return enginePackageVersions(m, where);
    },
    async open({ dataDir, where }) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- both modules are dual CJS/ESM; require keeps jest in CommonJS
      const { PGlite } = require(m.pglite) as { PGlite: PGliteClass };
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
      const { vector } = require(m.vector) as { vector: unknown };
      const db = dataDir !== undefined ? await PGlite.create({ extensions: { vector }, dataDir }) : await createInMemory(PGlite, vector, id, m, where);
      let socket: PGliteSocket | undefined;
      return {
        async versions() {
          const probe = await createPgvectorStore(fromPGlite(db)); // CREATE EXTENSION vector on first start
          try {
            const s = await probe.serverInfo();
            return { serverVersion: s.server, components: s.components };
          } finally {
            await probe.close();
          }
        },
        connect: (): Promise<MemoryStore> => createPgvectorStore(fromPGlite(db)),
        ...(m.socket ? { serve: async (where: string) => (socket = await servePGlite(m.socket!, db, where)).url } : {}),
        close: async () => {
          await socket?.stop();
          await db.close();
        },
      };
    },
  };
}

/** The pgvector driver's embedded engines (catalog `engine:`). */
export const pgliteEngines: EmbeddedFacet = {
  engines: {
    'pglite-0.2': pgliteEngine('pglite-0.2', 'PostgreSQL 16 + pgvector 0.8.0 in WASM (PGlite 0.2)'),
    'pglite-0.5': pgliteEngine('pglite-0.5', 'PostgreSQL 18 + pgvector 0.8.7 in WASM (PGlite 0.5)'),
  },
};
