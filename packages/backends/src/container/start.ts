import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { Pool } from 'pg';
import { MemoryMatrixError, type ConnectOptions, type MemoryStore } from '@memory-matrix/spec';
import { createPgvectorStore, fromPgPool } from '@memory-matrix/adapter-pgvector';
import { dockerBin, dockerEngine, inspectImage } from '../images/docker';
import { execStreaming } from '../images/exec';
import { registerContainer, registerRun, unregisterContainer } from './guard';
import { containerLabels } from './labels';
import { checkExpected } from '../embedded/versions';
import { pgConnectionString, readPgVersions, waitForPgQuery, type PgConnection } from './postgres';
import { Semaphore, startParallelism } from './semaphore';
import { pgPoolOptions } from '../faults/pg-connect';

/** What to start: one catalog target from a locally built image. */
export interface ContainerStartSpec {
  /** `backend@version`, e.g. `pgvector@pg17` (label and messages). */
  target: string;
  /** Local image tag, e.g. `memory-matrix/pgvector:pg17-0.8.0-2a0b49da` (see `recipeTag`). */
  image: string;
  /** Server kind; decides port, readiness and version probes. */
  kind: 'postgres';
  /** Start deadline in ms before scaling by `MM_START_TIMEOUT_SCALE`; default 60 000. */
  startTimeoutMs?: number;
  /** Run id, label `memory-matrix.run` (see `removeRunContainers`). */
  runId: string;
  /** Versions the server must report (`{ postgres: '17', pgvector: '0.8.0' }`, prefix on a dot boundary). */
  expect?: Record<string, string>;
}

/** A running container target. Structurally a `StartedBackend` (packages/backends/src/types.ts). */
export interface StartedContainer {
  provider: 'container';
  target: string;
  /** Full container id. */
  containerId: string;
  /** Mapped port on 127.0.0.1; user `postgres`, database `postgres`, no password. */
  connection: PgConnection;
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  connectionString: string;
  info: {
    /** `version()` as the server reports it, e.g. `PostgreSQL 17.12 (Debian 17.12-0+deb13u1) on …`. */
    serverVersion: string;
    /** `{ postgres: '17.12', pgvector: '0.8.0' }`. */
    components: Record<string, string>;
    /** The image reference started (tag). */
    image: string;
    /** `sha256:…` id of that image at start. */
    imageId: string;
  };
  /** Milliseconds from `docker create` to the first successful query. */
  startMs: number;
  /**
   * A new pgvector store over a new pool each call; the store's `close()` ends the pool.
   * `opts`: client name (`application_name`) and timeouts (connect, query, statement), see `pgPoolOptions`.
   */
  connect(opts?: ConnectOptions): Promise<MemoryStore>;
  /**
   * Closes the stores `connect()` opened that are still open, then stops (SIGINT: fast shutdown,
   * 10 s grace) and removes the container and its volumes. Idempotent.
   */
  stop(): Promise<void>;
}

const PG_PORT = 5432;
const DEFAULT_START_TIMEOUT_MS = 60_000;
const SHM_BYTES = 1024 ** 3;
let slots: Semaphore | undefined;

/** Runs `fn` in one of the `MM_START_PARALLEL` start slots shared by every container kind. */
export function inStartSlot<T>(fn: () => Promise<T>): Promise<T> {
  slots ??= new Semaphore(startParallelism());
  return slots.run(fn);
}

/** `MM_START_TIMEOUT_SCALE` (positive number), default 1: multiplies every start deadline. */
export function startTimeoutScale(): number {
  const s = Number(process.env.MM_START_TIMEOUT_SCALE ?? '1');
  return Number.isFinite(s) && s > 0 ? s : 1;
}

/** GenericContainer that registers its id with the exit guard the moment Docker creates it (shared by every container kind). */
export class GuardedContainer extends GenericContainer {
  createdId?: string;
  constructor(image: string, private readonly target: string) {
    super(image);
  }
  /** Publish `port` on 127.0.0.1 only (a trust-auth server must not listen on every interface). */
  loopbackPort(port: number): this {
    this.withExposedPorts(port);
    this.hostConfig.PortBindings = { ...this.hostConfig.PortBindings, [`${port}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '0' }] };
    return this;
  }
  /** `docker stop` sends SIGINT: Postgres' fast shutdown (SIGTERM would wait for clients). */
  stopWithSigint(): this {
    this.createOpts.StopSignal = 'SIGINT';
    return this;
  }
  protected override async containerCreated(containerId: string): Promise<void> {
    this.createdId = containerId;
    registerContainer(containerId, this.target);
  }
}

/** The container's last 15 log lines joined with ` | ` ('' when docker cannot say). */
export async function lastLogLines(id: string): Promise<string> {
  const r = await execStreaming(dockerBin(), ['logs', '--tail', '15', id], { timeoutMs: 10_000 }).catch(() => undefined);
  return r ? r.tail.filter((l) => l.trim()).join(' | ') : '';
}

/** `docker rm -f -v`, best effort, and forget the id in the exit guard. */
export async function forceRemove(id: string): Promise<void> {
  await execStreaming(dockerBin(), ['rm', '-f', '-v', id], { timeoutMs: 30_000 }).catch(() => undefined);
  unregisterContainer(id);
}

/**
 * Starts `spec.image` for `spec.target` with testcontainers (Ryuk off: the guard in ./guard.ts
 * removes containers on exit, crash, SIGINT and SIGTERM), at most `MM_START_PARALLEL` (default 2)
 * starts at a time. Ready = log line `ready to accept connections` AND a successful `SELECT 1`
 * through the mapped port on 127.0.0.1, both within `startTimeoutMs × MM_START_TIMEOUT_SCALE`.
 * Records image id and server versions; checks `spec.expect` when given.
 *
 * Throws `TARGET_UNAVAILABLE` (no engine, image missing locally, start or readiness failed —
 * the message names target, image and the container's last log lines; a failed container is
 * removed), or `TARGET_UNAVAILABLE` for a version that differs from `spec.expect`.
 */
export async function startContainer(spec: ContainerStartSpec): Promise<StartedContainer> {
  if (spec.kind !== 'postgres') throw new MemoryMatrixError('INVALID_INPUT', `${spec.target}: unknown container kind ${String(spec.kind)}`);
  const where = `${spec.target} (container ${spec.image})`;
  // No registry here, so Ryuk cannot be pulled; an explicit setting by the user wins.
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  try {
    await dockerEngine();
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${(err as Error).message}`, { cause: err });
  }
  const image = await inspectImage(spec.image);
  if (!image) {
    throw new MemoryMatrixError(
      'TARGET_UNAVAILABLE',
      `${where}: image not found locally (no registry here); build it from the target's offline recipe (buildImage / \`memory-matrix images build ${spec.target}\`)`,
    );
  }
  registerRun(spec.runId);
  slots ??= new Semaphore(startParallelism());
  return slots.run(() => startNow(spec, where, image.id));
}

async function startNow(spec: ContainerStartSpec, where: string, imageId: string): Promise<StartedContainer> {
  const t0 = Date.now();
  const timeoutMs = Math.round((spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) * startTimeoutScale());
  const deadline = t0 + timeoutMs;
  const gc = new GuardedContainer(spec.image, spec.target)
    .loopbackPort(PG_PORT)
    .stopWithSigint()
    // Docker's default /dev/shm is 64 MiB; Postgres' dynamic shared memory lives there, and
    // pgvector's parallel HNSW build sizes it from maintenance_work_mem (64 MB by default), which
    // fails with "could not resize shared memory segment" (pgvector/pgvector#453, README "Docker").
    // tmpfs only uses what is written, so a 1 GiB cap costs nothing up front.
    .withSharedMemorySize(SHM_BYTES)
    .withLabels(containerLabels(spec.runId, spec.target))
    .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/))
    .withStartupTimeout(timeoutMs);
  let started: StartedTestContainer;
  try {
    started = await gc.start();
  } catch (err) {
    const logs = gc.createdId ? await lastLogLines(gc.createdId) : '';
    if (gc.createdId) await forceRemove(gc.createdId);
    throw new MemoryMatrixError(
      'TARGET_UNAVAILABLE',
      `${where}: start failed within ${timeoutMs} ms: ${(err as Error).message}${logs ? `; container log: ${logs}` : ''}`,
      { cause: err },
    );
  }
  const id = started.getId();
  // Never trust getHost(): it may name a remote daemon or a gateway. We reach the mapped port on loopback only.
  const connection: PgConnection = { host: '127.0.0.1', port: started.getMappedPort(PG_PORT), user: 'postgres', database: 'postgres' };
  let versions;
  try {
    await waitForPgQuery(connection, deadline, where);
    versions = await readPgVersions(connection, where);
    checkExpected(versions.components, spec.expect, where); // same rule as the embedded provider
  } catch (err) {
    return failStart(id, err);
  }
  const startMs = Date.now() - t0;
  let stopping: Promise<void> | undefined;
  const stores = new Set<MemoryStore>();
  return {
    provider: 'container',
    target: spec.target,
    containerId: id,
    connection,
    connectionString: pgConnectionString(connection),
    info: { serverVersion: versions.server, components: versions.components, image: spec.image, imageId },
    startMs,
    async connect(opts?: ConnectOptions) {
      const pool = new Pool({ ...connection, max: 4, ...pgPoolOptions(opts) });
      // An idle pooled client whose server went away (container stopped) emits 'error' on the
      // pool; unhandled, that would crash the process. Queries in flight still reject.
      pool.on('error', () => undefined);
      let store: MemoryStore;
      try {
        store = await createPgvectorStore(fromPgPool(pool));
      } catch (err) {
        await pool.end().catch(() => undefined);
        throw err;
      }
      stores.add(store);
      return store;
    },
    stop() {
      stopping ??= stopStarted(started, id, stores, where);
      return stopping;
    },
  };
}

/**
 * A container start failed after `docker create`: remove it and throw TARGET_UNAVAILABLE with the
 * container's last log lines (or the original MemoryMatrixError when there are none). Shared by
 * every container kind.
 */
export async function failStart(id: string, err: unknown): Promise<never> {
  const logs = await lastLogLines(id);
  await forceRemove(id);
  if (err instanceof MemoryMatrixError && !logs) throw err;
  throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${(err as Error).message}${logs ? `; container log: ${logs}` : ''}`, { cause: err });
}

/**
 * Stop a started container of any kind: close the stores `connect()` opened (close() is
 * idempotent), stop and remove it with its anonymous volumes (10 s grace), force-remove it when
 * that fails; an error other than "already gone" is BACKEND_ERROR naming `where`.
 */
export async function stopStarted(started: { stop(o: { remove: boolean; removeVolumes: boolean; timeout: number }): Promise<unknown> }, id: string, stores: Set<{ close(): Promise<void> }>, where: string): Promise<void> {
  await Promise.allSettled([...stores].map((s) => s.close()));
  stores.clear();
  try {
    await started.stop({ remove: true, removeVolumes: true, timeout: 10_000 });
  } catch (err) {
    await forceRemove(id); // stop failed (e.g. already gone): make sure nothing stays
    if (!/no such container|404/i.test(String((err as Error).message))) {
      throw new MemoryMatrixError('BACKEND_ERROR', `${where}: stopping container ${id.slice(0, 12)} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  unregisterContainer(id);
}
