import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { MemoryMatrixError, hostCalibration, type ConnectOptions, type ContainerEndpoint, type ContainerKind, type MemoryStore, type ServerAddress } from '@memory-matrix/spec';
import { serverAddress } from '../address';
import { dockerBin, dockerEngine, inspectImage } from '../images/docker';
import { execStreaming } from '../images/exec';
import { pollReady } from '../readiness';
import { findContainerKind } from '../registry';
import { checkExpected } from '../embedded/versions';
import { containerEndpoint } from './endpoint';
import { registerContainer, registerRun, unregisterContainer } from './guard';
import { containerLabels } from './labels';
import { Semaphore, startParallelism } from './semaphore';
import { endCpuSegment } from './cpu';

/** What to start: one catalog target from a local image, of a registered container kind. */
export interface ContainerStartSpec {
  /** `backend@version` (label and messages). */
  target: string;
  /** Local image tag (see `recipeTag`) or a registry reference present locally. */
  image: string;
  /** Container kind (catalog `start.kind`), a kind a registered driver offers; decides port, readiness, versions, connect. */
  kind: string;
  /** Start deadline in ms before scaling by `MM_START_TIMEOUT_SCALE`; default the kind's `defaultStartTimeoutMs`. */
  startTimeoutMs?: number;
  /** Run id, label `memory-matrix.run` (see `removeRunContainers`). */
  runId: string;
  /** Versions the server must report (prefix on a dot boundary). */
  expect?: Record<string, string>;
  /** The target's parsed `adapterOptions`, handed to the kind's `connect`. */
  adapterOptions?: unknown;
}

/** A running container target. Structurally a `StartedBackend` (types.ts). */
export interface StartedContainer {
  provider: 'container';
  target: string;
  /** Full container id. */
  containerId: string;
  /** The mapped port on 127.0.0.1 (the only address the provider talks to). */
  connection: { host: '127.0.0.1'; port: number };
  /** The kind's connection URL (e.g. `postgres://postgres@127.0.0.1:<port>/postgres`), when it has one. */
  connectionString?: string;
  info: {
    /** The server's own version string. */
    serverVersion: string;
    /** Component versions, checked against `expect`. */
    components: Record<string, string>;
    /** The image reference started (tag). */
    image: string;
    /** `sha256:…` id of that image at start. */
    imageId: string;
  };
  /** Milliseconds from `docker create` to the first successful probe and versions read. */
  startMs: number;
  /** A new adapter store on a new client each call (the kind's `connect`; `opts`: client name and timeouts). */
  connect(opts?: ConnectOptions): Promise<MemoryStore>;
  /** The kind's connection URL for client drivers; TARGET_UNAVAILABLE when the kind has none. */
  address(): Promise<ServerAddress>;
  /**
   * Closes the stores `connect()` opened that are still open, then stops (the kind's stop signal,
   * 10 s grace) and removes the container and its volumes. Idempotent.
   */
  stop(): Promise<void>;
}

let slots: Semaphore | undefined;

/** Runs `fn` in one of the `MM_START_PARALLEL` start slots shared by every container start (ordinary and fault instances). */
export function inStartSlot<T>(fn: () => Promise<T>): Promise<T> {
  slots ??= new Semaphore(startParallelism());
  return slots.run(fn);
}

/**
 * `MM_START_TIMEOUT_SCALE` alone (positive number, default 1), for a limit the caller multiplies
 * by the host factor itself (a cell's setup limit). Throws USAGE naming the variable for any other
 * value (it was ignored: a typo went unnoticed).
 */
export function startTimeoutEnvScale(): number {
  const v = process.env.MM_START_TIMEOUT_SCALE;
  if (v === undefined || v === '') return 1;
  const s = Number(v);
  if (!Number.isFinite(s) || s <= 0) throw new MemoryMatrixError('USAGE', `MM_START_TIMEOUT_SCALE "${v}": expected a positive number (multiplies every start deadline), e.g. MM_START_TIMEOUT_SCALE=2`);
  return s;
}

/**
 * What every start deadline (container, fault instance, local process, embedded engine) is
 * multiplied by: `MM_START_TIMEOUT_SCALE` (startTimeoutEnvScale) × the host factor (spec host.ts
 * `hostCalibration`: ≥ 1, capped at MAX_HOST_FACTOR), so a server that starts slowly because the
 * host is busy is not reported as one that will not start (on a 2-core host at load average ≈ 40
 * a fault instance of pgvector@pg18 took over 60 s to answer its first query). Throws USAGE as
 * startTimeoutEnvScale.
 */
export function startTimeoutScale(): number {
  return startTimeoutEnvScale() * hostCalibration().factor;
}

/** GenericContainer that registers its id with the exit guard the moment Docker creates it. */
export class GuardedContainer extends GenericContainer {
  createdId?: string;
  constructor(
    image: string,
    private readonly target: string,
  ) {
    super(image);
  }
  /** Publish `port` on 127.0.0.1 only (a trust-auth server must not listen on every interface). */
  loopbackPort(port: number): this {
    this.withExposedPorts(port);
    this.hostConfig.PortBindings = { ...this.hostConfig.PortBindings, [`${port}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '0' }] };
    return this;
  }
  /** The signal `docker stop` sends (the kind's clean shutdown). */
  stopSignal(signal: string): this {
    this.createOpts.StopSignal = signal;
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
 * A container kind's readiness after its log line: the kind's `probe` retried by `pollReady`
 * until `deadline`. Shared by ordinary starts and fault instances (one probe per kind).
 */
export async function waitForKind(kind: ContainerKind<unknown>, ep: ContainerEndpoint, deadline: number): Promise<void> {
  await pollReady((remaining) => kind.probe(ep, remaining), { deadline, where: ep.where, what: `no successful ${kind.kind} probe on ${ep.host}:${ep.port}` });
}

/** Docker answers and `image` is present locally; registers the run with the exit guard. Returns the image id. TARGET_UNAVAILABLE otherwise. */
export async function preflightImage(target: string, image: string, runId: string, where: string): Promise<string> {
  // No registry here, so Ryuk cannot be pulled; an explicit setting by the user wins.
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  try {
    await dockerEngine();
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${(err as Error).message}`, { cause: err });
  }
  const found = await inspectImage(image);
  if (!found) {
    throw new MemoryMatrixError(
      'TARGET_UNAVAILABLE',
      `${where}: image not found locally (no registry here); build it from the target's offline recipe (buildImage / \`memory-matrix images build -t ${target}\`)`,
    );
  }
  registerRun(runId);
  return found.id;
}

/**
 * Starts `spec.image` for `spec.target` as a container of kind `spec.kind` (any kind a registered
 * driver offers) with testcontainers (Ryuk off: the guard in ./guard.ts removes containers on
 * exit, crash, SIGINT and SIGTERM), labelled `memory-matrix.{run,target,pid,owner}`, the kind's
 * port published on 127.0.0.1 only, at most `MM_START_PARALLEL` (default 2) starts at a time.
 * Ready = the kind's log line AND its probe through the mapped port (retried), both within
 * `startTimeoutMs × MM_START_TIMEOUT_SCALE`. Records image id and the versions the kind reads;
 * checks `spec.expect` when given.
 *
 * Throws `TARGET_UNAVAILABLE` (unknown kind, no engine, image missing locally, start or
 * readiness failed — the message names target, image and the container's last log lines; a
 * failed container is removed), or `TARGET_UNAVAILABLE` for a version that differs from `spec.expect`.
 */
export async function startContainer(spec: ContainerStartSpec): Promise<StartedContainer> {
  const where = `${spec.target} (container ${spec.image})`;
  const found = findContainerKind(spec.kind);
  if (!found) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${spec.target}: no registered driver offers container kind ${JSON.stringify(spec.kind)}`);
  const imageId = await preflightImage(spec.target, spec.image, spec.runId, where);
  return inStartSlot(() => startNow(found.kind, found.driver.name, spec, where, imageId));
}

async function startNow(kind: ContainerKind<unknown>, backend: string, spec: ContainerStartSpec, where: string, imageId: string): Promise<StartedContainer> {
  const t0 = Date.now();
  const timeoutMs = Math.round((spec.startTimeoutMs ?? kind.defaultStartTimeoutMs) * startTimeoutScale());
  const gc = new GuardedContainer(spec.image, spec.target)
    .loopbackPort(kind.port)
    .withLabels(containerLabels(spec.runId, spec.target))
    .withWaitStrategy(Wait.forLogMessage(kind.readyLog))
    .withStartupTimeout(timeoutMs);
  if (kind.stopSignal) gc.stopSignal(kind.stopSignal);
  if (kind.shmBytes) gc.withSharedMemorySize(kind.shmBytes);
  let started: StartedTestContainer;
  try {
    started = await gc.start();
  } catch (err) {
    const logs = gc.createdId ? await lastLogLines(gc.createdId) : '';
    if (gc.createdId) await forceRemove(gc.createdId);
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: start failed within ${timeoutMs} ms: ${(err as Error).message}${logs ? `; container log: ${logs}` : ''}`, { cause: err });
  }
  const id = started.getId();
  // Never trust getHost(): it may name a remote daemon or a gateway. We reach the mapped port on loopback only.
  const ep = containerEndpoint(id, started.getMappedPort(kind.port), where);
  let versions;
  try {
    await waitForKind(kind, ep, t0 + timeoutMs);
    versions = await kind.versions(ep);
    checkExpected(versions.components, spec.expect, where); // same rule as every provider
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
    connection: { host: '127.0.0.1', port: ep.port },
    ...(kind.connectionString ? { connectionString: kind.connectionString(ep) } : {}),
    info: { serverVersion: versions.serverVersion, components: versions.components, image: spec.image, imageId },
    startMs,
    async connect(opts?: ConnectOptions) {
      const store = await kind.connect(ep, opts, spec.adapterOptions);
      stores.add(store);
      return store;
    },
    address: async () => serverAddress(where, backend, kind.connectionString && (() => kind.connectionString!(ep)), `container kind ${kind.kind} has no connectionString`),
    stop() {
      stopping ??= stopStarted(started, id, stores, where);
      return stopping;
    },
  };
}

/**
 * A container start failed after `docker create`: remove it and throw TARGET_UNAVAILABLE with the
 * container's last log lines (or the original MemoryMatrixError when there are none).
 */
export async function failStart(id: string, err: unknown): Promise<never> {
  const logs = await lastLogLines(id);
  await forceRemove(id);
  if (err instanceof MemoryMatrixError && !logs) throw err;
  throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${(err as Error).message}${logs ? `; container log: ${logs}` : ''}`, { cause: err });
}

/**
 * Stop a started container: close the stores `connect()` opened (close() is idempotent), stop
 * and remove it with its anonymous volumes (10 s grace), force-remove it when that fails; an
 * error other than "already gone" is BACKEND_ERROR naming `where`.
 */
export async function stopStarted(
  started: { stop(o: { remove: boolean; removeVolumes: boolean; timeout: number }): Promise<unknown> },
  id: string,
  stores: Set<{ close(): Promise<void> }>,
  where: string,
): Promise<void> {
  await Promise.allSettled([...stores].map((s) => s.close()));
  stores.clear();
  await endCpuSegment(id); // the run's CPU figure (cpu.ts)
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
