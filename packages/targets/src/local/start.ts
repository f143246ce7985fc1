import { MemoryMatrixError, type LocalEndpoint, type MemoryStore, type ServerAddress } from '@memory-matrix/spec';
import { startTimeoutScale } from '../container/start';
import { checkExpected } from '../embedded/versions';
import { pollReady } from '../readiness';
import { serverAddress } from '../address';
import { driverOf } from '../registry';
import { freeLoopbackPort, spawnLocal } from './process';

/** What to start. */
export interface LocalSpec {
  /** `backend@version` (messages; the backend part names the driver). */
  target: string;
  /** The driver's local engine (catalog `engine:`). */
  engine: string;
  /** Versions the server must report (prefix on a dot boundary). */
  expect?: Record<string, string>;
  /** Start deadline, ms, before `MM_START_TIMEOUT_SCALE`; default the engine's. */
  startTimeoutMs?: number;
  /** The target's parsed `adapterOptions`. */
  adapterOptions?: unknown;
}

/** A running local server; structurally a `StartedBackend`. */
export interface StartedLocal {
  provider: 'local';
  target: string;
  /** The server's pid (the launcher process that hosts it). */
  pid: number;
  /** 127.0.0.1 and the port the server listens on. */
  connection: { host: '127.0.0.1'; port: number };
  /** Temp data dir (removed by `stop()`). */
  dataDir: string;
  info: { serverVersion: string; components: Record<string, string> };
  /** ms from spawn to ready (readiness probe answered, versions read). */
  startMs: number;
  /** A new store (new client) each call. */
  connect(): Promise<MemoryStore>;
  /** The engine's connection URL for client drivers; TARGET_UNAVAILABLE when it has none. */
  address(): Promise<ServerAddress>;
  /** Closes the stores still open, SIGTERM (SIGKILL after 5 s), removes the data dir. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Start a driver's local engine on this host (local provider): its launcher script on a free
 * loopback port with a temp data dir. Ready = the engine's probe answers (retried every 100 ms),
 * within `startTimeoutMs × MM_START_TIMEOUT_SCALE`; versions are checked against `spec.expect`.
 * The server is killed and its dir removed on stop, on exit, on SIGINT / SIGTERM, and by itself
 * when this process dies (see guard.ts and the driver's launcher).
 * Throws TARGET_UNAVAILABLE (unknown driver or engine, package missing or not the pinned
 * version, server exited, not ready in time, version mismatch — the message names the target
 * and the server's last output).
 */
export async function startLocal(spec: LocalSpec): Promise<StartedLocal> {
  const where = `${spec.target} (local ${spec.engine})`;
  const backend = spec.target.split('@')[0]!;
  const engines = driverOf(backend).local?.engines ?? {};
  const engine = engines[spec.engine];
  if (!engine) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: unknown local engine ${JSON.stringify(spec.engine)} (known: ${Object.keys(engines).join(', ') || 'none'})`);
  const launch = engine.preflight(where);
  const t0 = Date.now();
  const deadline = t0 + Math.round((spec.startTimeoutMs ?? engine.defaultStartTimeoutMs) * startTimeoutScale());
  const port = await freeLoopbackPort();
  const proc = spawnLocal(backend, launch.script, (dir) => launch.args(dir, '127.0.0.1', port, false));
  const ep: LocalEndpoint = { host: '127.0.0.1', port, containerId: `local-${proc.pid}`, where };
  let info: StartedLocal['info'];
  try {
    await pollReady((remaining) => engine.probe(ep, remaining), {
      deadline,
      everyMs: 100,
      where,
      what: 'not ready',
      stopIf: () =>
        proc.exited()
          ? new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: the server process exited during start (${proc.child.exitCode ?? proc.child.signalCode}); output: ${tail(proc.output())}`)
          : undefined,
    });
    info = await engine.versions(ep, launch);
    checkExpected(info.components, spec.expect, where);
  } catch (err) {
    await proc.stop(0);
    if (err instanceof MemoryMatrixError && err.code === 'TARGET_UNAVAILABLE') {
      if (err.message.includes('output:')) throw err;
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${err.message}; output: ${tail(proc.output())}`, { cause: err.cause });
    }
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
    info,
    startMs,
    async connect() {
      const store = await engine.connect(ep, undefined, spec.adapterOptions);
      stores.add(store);
      return store;
    },
    address: async () => serverAddress(where, backend, engine.connectionString && (() => engine.connectionString!(ep)), `local engine ${spec.engine} has no connectionString`),
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

function tail(s: string): string {
  return s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^[(#\s]+$/.test(l))
    .slice(-8)
    .join(' | ');
}
