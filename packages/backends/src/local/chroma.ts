import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError, type MemoryStore } from '@memory-matrix/spec';
import { createChromaStore } from '@memory-matrix/adapter-chroma';
import { startTimeoutScale } from '../container/start';
import { checkExpected } from '../embedded/versions';
import { freeLoopbackPort, spawnLocal, waitUntilReady } from './process';

/** Native Chroma engines the local provider can start: engine id → npm package pinned in packages/backends/package.json. */
export const LOCAL_CHROMA_ENGINES = {
  /** Chroma server 1.0.0 in `chromadb-js-bindings-linux-x64-gnu@1.0.1` (glibc ≥ 2.34; newer bindings need 2.39). */
  'chroma-bindings-1.0': 'chromadb-js-bindings-linux-x64-gnu',
} as const;
export type LocalChromaEngine = keyof typeof LOCAL_CHROMA_ENGINES;

/** What to start. */
export interface LocalChromaSpec {
  /** `backend@version`, e.g. `chroma@1.0` (messages). */
  target: string;
  engine: LocalChromaEngine;
  /** Versions the server must report, e.g. `{ chroma: '1.0.0' }` (prefix on a dot boundary). */
  expect?: Record<string, string>;
  /** Start deadline, ms, before `MM_START_TIMEOUT_SCALE`; default 30 000. */
  startTimeoutMs?: number;
}

/** A running local Chroma server; structurally a `StartedBackend`. */
export interface StartedLocalChroma {
  provider: 'local';
  target: string;
  /** The server's pid (the launcher process that hosts it). */
  pid: number;
  /** 127.0.0.1 and the port the server listens on. */
  connection: { host: '127.0.0.1'; port: number };
  /** Temp data dir (removed by `stop()`). */
  dataDir: string;
  info: { serverVersion: string; components: Record<string, string> };
  /** ms from spawn to ready (heartbeat, max batch and version answered). */
  startMs: number;
  /** A new Chroma store (new client) each call. */
  connect(): Promise<MemoryStore>;
  /** Closes the stores still open, SIGTERM (SIGKILL after 5 s), removes the data dir. Idempotent. */
  stop(): Promise<void>;
}

const BACKENDS_PACKAGE_JSON = path.resolve(__dirname, '..', '..', 'package.json');
const LAUNCHER = path.join(__dirname, 'chroma-launcher.js');

/** Module path and installed version of the engine's package; TARGET_UNAVAILABLE when it is missing or not the pinned version. */
export function chromaBindings(engine: LocalChromaEngine, where: string): { module: string; version: string } {
  const pkg = LOCAL_CHROMA_ENGINES[engine];
  if (!pkg) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: unknown local engine ${JSON.stringify(engine)} (known: ${Object.keys(LOCAL_CHROMA_ENGINES).join(', ')})`);
  const pinned = (JSON.parse(readFileSync(BACKENDS_PACKAGE_JSON, 'utf8')) as { dependencies: Record<string, string> }).dependencies[pkg];
  let module: string;
  let version: string;
  try {
    module = require.resolve(pkg);
    version = (JSON.parse(readFileSync(path.join(path.dirname(module), 'package.json'), 'utf8')) as { version: string }).version;
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} is not installed (run pnpm install; it ships Chroma's server for linux-x64 glibc)`, { cause: err });
  }
  if (pinned !== version) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${version} is installed, packages/backends/package.json pins ${pinned}`);
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
 * Start Chroma's server natively on this host (local provider): the pinned bindings' `chroma run`
 * (chroma-launcher.js) on a free loopback port with a temp data dir. The release comes from the
 * bindings' CLI (`chroma --version`). Ready = `/api/v2/heartbeat`
 * answers AND a real client call succeeds (chromadb client: heartbeat, max batch size, version),
 * within `startTimeoutMs × MM_START_TIMEOUT_SCALE`. Versions are checked against `spec.expect`.
 * The server is killed and its dir removed on stop, on exit, on SIGINT / SIGTERM, and by itself
 * when this process dies (see guard.ts, chroma-launcher.js).
 * Throws TARGET_UNAVAILABLE (package missing or not the pinned version, server exited, not ready
 * in time, version mismatch — the message names the target and the server's last output).
 */
export async function startLocalChroma(spec: LocalChromaSpec): Promise<StartedLocalChroma> {
  const where = `${spec.target} (local ${spec.engine})`;
  const bindings = chromaBindings(spec.engine, where);
  const release = chromaCliVersion(bindings.module, where);
  const t0 = Date.now();
  const deadline = t0 + Math.round((spec.startTimeoutMs ?? 30_000) * startTimeoutScale());
  const port = await freeLoopbackPort();
  const proc = spawnLocal('chroma', LAUNCHER, (dir) => [bindings.module, dir, '127.0.0.1', String(port)]);
  let api: string;
  try {
    await waitUntilReady(proc, deadline, where, async () => (await fetch(`http://127.0.0.1:${port}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1_000) })).ok);
    const probe = await createChromaStore({ host: '127.0.0.1', port });
    api = (await probe.serverInfo()).components.chromaApi!;
    await probe.close();
    checkExpected({ chroma: release, chromaApi: api, bindings: bindings.version }, spec.expect, where);
  } catch (err) {
    await proc.stop(0);
    if (err instanceof MemoryMatrixError && err.code === 'TARGET_UNAVAILABLE') throw err;
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${(err as Error).message}; output: ${proc.output().slice(-500)}`, { cause: err });
  }
  const startMs = Date.now() - t0;
  const stores = new Set<MemoryStore>();
  let stopping: Promise<void> | undefined;
  return {
    provider: 'local',
    target: spec.target,
    pid: proc.pid,
    connection: { host: '127.0.0.1', port },
    dataDir: proc.dataDir,
    info: { serverVersion: `Chroma ${release} (API ${api}, chromadb-js-bindings ${bindings.version}, native)`, components: { chroma: release, chromaApi: api, bindings: bindings.version } },
    startMs,
    async connect() {
      const store = await createChromaStore({ host: '127.0.0.1', port });
      stores.add(store);
      return store;
    },
    stop() {
      stopping ??= (async () => {
        await Promise.allSettled([...stores].map((s) => s.close()));
        stores.clear();
        await proc.stop();
      })();
      return stopping;
    },
  };
}
