import { Wait, type StartedTestContainer } from 'testcontainers';
import { MemoryMatrixError, type MemoryStore } from '@memory-matrix/spec';
import { connectRedisStore, pingRedis, type Quantization, type RedisStore } from '@memory-matrix/adapter-redis';
import { dockerEngine, inspectImage } from '../images/docker';
import { checkExpected } from '../embedded/versions';
import { registerRun } from './guard';
import { containerLabels } from './labels';
import { failStart, forceRemove, GuardedContainer, inStartSlot, lastLogLines, startTimeoutScale, stopStarted } from './start';

/** What to start: one `redis` container target from a local image. */
export interface RedisContainerSpec {
  /** `backend@version`, e.g. `redis@8.0` (label and messages). */
  target: string;
  /** Local image tag, e.g. `memory-matrix/redis:8.0-f3acd22c`. */
  image: string;
  /** Run id, label `memory-matrix.run`. */
  runId: string;
  /** Versions the server must report, e.g. `{ redis: '8.0', vectorset: '1' }` (prefix on a dot boundary). */
  expect?: Record<string, string>;
  /** Start deadline in ms before `MM_START_TIMEOUT_SCALE`; default 30 000. */
  startTimeoutMs?: number;
  /** The catalog's `adapterOptions`: `quantization: q8 | noquant` (default q8). */
  adapterOptions?: Record<string, unknown>;
}

/** A running Redis container target; structurally a `StartedBackend`. */
export interface StartedRedisContainer {
  provider: 'container';
  target: string;
  containerId: string;
  /** The mapped port on 127.0.0.1 (the only address this provider talks to). */
  connection: { host: '127.0.0.1'; port: number };
  info: { serverVersion: string; components: Record<string, string>; image: string; imageId: string };
  /** ms from `docker create` to the first PING answered and versions read. */
  startMs: number;
  /** A new redis store over a new ioredis client each call (quantization from `adapterOptions`). */
  connect(): Promise<MemoryStore>;
  /** Closes the stores still open, stops and removes the container (and volumes). Idempotent. */
  stop(): Promise<void>;
}

const REDIS_PORT = 6379;
const DEFAULT_START_TIMEOUT_MS = 30_000;

/** `adapterOptions` of a redis target → store options; TARGET_UNAVAILABLE naming the target for anything unknown. */
export function redisAdapterOptions(target: string, o: Record<string, unknown> = {}): { quantization: Quantization } {
  const unknown = Object.keys(o).filter((k) => k !== 'quantization');
  if (unknown.length) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target}: unknown adapterOptions ${unknown.join(', ')} (known: quantization)`);
  const q = o.quantization ?? 'q8';
  if (q !== 'q8' && q !== 'noquant') throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target}: adapterOptions.quantization must be q8 or noquant, got ${JSON.stringify(q)}`);
  return { quantization: q };
}

/**
 * PING through the mapped port until it answers PONG or `deadline` (epoch ms) passes, every
 * 200 ms. Retried because the log line is not proof a client gets through: Docker's port proxy
 * accepts and resets connections while the container's network is still being wired.
 * Throws TARGET_UNAVAILABLE naming `where` with the last error as `cause`.
 */
export async function waitForPing(port: number, deadline: number, where: string): Promise<number> {
  let attempts = 0;
  let last: unknown;
  while (Date.now() < deadline) {
    attempts++;
    try {
      if ((await pingRedis('127.0.0.1', port, Math.max(200, Math.min(2_000, deadline - Date.now())))) === 'PONG') return attempts;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: no PONG from 127.0.0.1:${port} before the start deadline (${attempts} attempts): ${(last as Error)?.message ?? 'no reply'}`, { cause: last });
}

/**
 * Starts a Redis container target (container kind `redis`) the way the postgres kind does:
 * testcontainers with Ryuk off and the exit guard, labels `memory-matrix.{run,target,pid}`, port
 * 6379 published on 127.0.0.1 only, at most `MM_START_PARALLEL` starts at once. Ready = the log
 * line `Ready to accept connections` AND a real PING through the mapped port, both before
 * `startTimeoutMs × MM_START_TIMEOUT_SCALE`. Then INFO server / MODULE LIST give the versions,
 * checked against `spec.expect`. Throws TARGET_UNAVAILABLE (no engine, image missing, start,
 * readiness or version failure — the message names target, image and the last log lines; a
 * failed container is removed).
 */
export async function startRedisContainer(spec: RedisContainerSpec): Promise<StartedRedisContainer> {
  const where = `${spec.target} (container ${spec.image})`;
  const storeOptions = redisAdapterOptions(spec.target, spec.adapterOptions);
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  try {
    await dockerEngine();
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${(err as Error).message}`, { cause: err });
  }
  const image = await inspectImage(spec.image);
  if (!image) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: image not found locally (no registry here); build it from the target's offline recipe (\`memory-matrix images build ${spec.target}\`)`);
  }
  registerRun(spec.runId);
  return inStartSlot(() => startNow(spec, where, image.id, storeOptions));
}

async function startNow(spec: RedisContainerSpec, where: string, imageId: string, storeOptions: { quantization: Quantization }): Promise<StartedRedisContainer> {
  const t0 = Date.now();
  const timeoutMs = Math.round((spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) * startTimeoutScale());
  const gc = new GuardedContainer(spec.image, spec.target)
    .loopbackPort(REDIS_PORT)
    .withLabels(containerLabels(spec.runId, spec.target))
    .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
    .withStartupTimeout(timeoutMs);
  let started: StartedTestContainer;
  try {
    started = await gc.start();
  } catch (err) {
    const logs = gc.createdId ? await lastLogLines(gc.createdId) : '';
    if (gc.createdId) await forceRemove(gc.createdId);
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: start failed within ${timeoutMs} ms: ${(err as Error).message}${logs ? `; container log: ${logs}` : ''}`, { cause: err });
  }
  const id = started.getId();
  // Never trust getHost(): we reach the mapped port on loopback only.
  const port = started.getMappedPort(REDIS_PORT);
  const open = (): Promise<RedisStore> => connectRedisStore({ host: '127.0.0.1', port, ...storeOptions });
  let info: StartedRedisContainer['info'];
  try {
    await waitForPing(port, t0 + timeoutMs, where);
    const probe = await open();
    try {
      const s = await probe.serverInfo();
      info = { serverVersion: s.server, components: s.components, image: spec.image, imageId };
    } finally {
      await probe.close();
    }
    checkExpected(info.components, spec.expect, where);
  } catch (err) {
    return failStart(id, err);
  }
  const startMs = Date.now() - t0;
  const stores = new Set<MemoryStore>();
  let stopping: Promise<void> | undefined;
  return {
    provider: 'container',
    target: spec.target,
    containerId: id,
    connection: { host: '127.0.0.1', port },
    info,
    startMs,
    async connect() {
      const store = await open();
      stores.add(store);
      return store;
    },
    stop() {
      stopping ??= stopStarted(started, id, stores, where);
      return stopping;
    },
  };
}
