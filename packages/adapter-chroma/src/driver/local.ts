import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError, type LocalFacet } from '@memory-matrix/spec';
import { awaitChromaWrite, chromaApiVersion, connectChroma, dropChromaClient, probeChroma } from './connect';

/** Native Chroma engines: engine id → npm package pinned in packages/adapter-chroma/package.json. */
export const LOCAL_CHROMA_ENGINES = {
  /** Chroma server 1.0.0 in `chromadb-js-bindings-linux-x64-gnu@1.0.1` (glibc ≥ 2.34; newer bindings need 2.39). */
  'chroma-bindings-1.0': 'chromadb-js-bindings-linux-x64-gnu',
} as const;

const PACKAGE_JSON = path.resolve(__dirname, '..', '..', 'package.json');
const LAUNCHER = path.join(__dirname, 'chroma-launcher.js');

/** Module path and installed version of the engine's package; TARGET_UNAVAILABLE when it is missing or not the pinned version. */
export function chromaBindings(pkg: string, where: string): { module: string; version: string } {
  const json = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { dependencies?: Record<string, string> };
  const pinned = json.dependencies?.[pkg];
  let module: string;
  let version: string;
  try {
    module = require.resolve(pkg);
    version = (JSON.parse(readFileSync(path.join(path.dirname(module), 'package.json'), 'utf8')) as { version: string }).version;
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} is not installed (run pnpm install; it ships Chroma's server for linux-x64 glibc)`, { cause: err });
  }
  if (pinned !== version) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${version} is installed, packages/adapter-chroma/package.json pins ${pinned}`);
  return { module, version };
}

/**
 * The Chroma release of the bindings, from their CLI (`chroma --version` → `chroma 1.0.0`): the
 * server's /api/v2/version only names the HTTP API (1.0.0 on both 1.0 and 1.4). TARGET_UNAVAILABLE
 * when the CLI does not answer.
 */
export function chromaCliVersion(module: string, where: string): string {
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(module)}).cli(['chroma', '--version'])`], { encoding: 'utf8', timeout: 30_000 });
  const m = /chroma (\d+\.\d+\.\d+\S*)/.exec(r.stdout ?? '');
  if (!m) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: \`chroma --version\` of ${module} gave no version (exit ${r.status ?? r.signal}): ${(r.stdout + r.stderr).trim().slice(-300)}`);
  return m[1]!;
}

/**
 * The Chroma driver's local engines: Chroma's server from its npm bindings, run by
 * chroma-launcher.js (`chroma run` in a worker thread; it ends itself, removing its data dir
 * unless told `keep`, when its parent dies). Preflight: the bindings are installed as pinned, and
 * their CLI names the release. Ready: `probeChroma`. Faults (the older side of C16): shutdown is
 * SIGTERM — Chroma 1.0.0 has no clean shutdown to ask for: measured here, SIGINT is caught and the
 * server keeps answering; SIGTERM ends it at once (the launcher SIGKILLs itself, as a worker in
 * native code cannot be joined). Connections are cut and writes watched at the client's end.
 */
export const chromaLocal: LocalFacet = {
  engines: {
    'chroma-bindings-1.0': {
      description: 'Chroma 1.0.0 server from chromadb-js-bindings 1.0.1 (linux-x64 glibc)',
      defaultStartTimeoutMs: 30_000,
      preflight(where) {
        const b = chromaBindings(LOCAL_CHROMA_ENGINES['chroma-bindings-1.0'], where);
        const release = chromaCliVersion(b.module, where);
        return {
          script: LAUNCHER,
          args: (dataDir, host, port, keep) => [b.module, dataDir, host, String(port), ...(keep ? ['keep'] : [])],
          facts: { chroma: release, bindings: b.version },
        };
      },
      probe: probeChroma,
      async versions(ep, launch) {
        const api = await chromaApiVersion(ep);
        const { chroma, bindings } = launch.facts;
        return { serverVersion: `Chroma ${chroma} (API ${api}, chromadb-js-bindings ${bindings}, native)`, components: { chroma: chroma!, chromaApi: api, bindings: bindings! } };
      },
      connect: (ep, opts) => connectChroma(ep, opts),
      /** For client drivers: the local server's HTTP root on its loopback port. */
      connectionString: (ep) => `http://${ep.host}:${ep.port}`,
      faults: {
        shutdownSignal: 'SIGTERM',
        effective: (dataDir, launch) => ({ persist_path: dataDir, engine: `chromadb-js-bindings ${launch.facts.bindings}` }),
        dropConnections: async (ep, clientName) => dropChromaClient(ep, clientName),
        awaitWriteInFlight: awaitChromaWrite,
      },
    },
  },
};
