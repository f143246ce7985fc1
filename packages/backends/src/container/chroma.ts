import { Wait, type StartedTestContainer } from 'testcontainers';
import { MemoryMatrixError, type MemoryStore } from '@memory-matrix/spec';
import { createChromaStore } from '@memory-matrix/adapter-chroma';
import { dockerEngine, inspectImage } from '../images/docker';
import { checkExpected } from '../embedded/versions';
import { registerRun } from './guard';
import { containerLabels } from './labels';
import { failStart, forceRemove, GuardedContainer, inStartSlot, lastLogLines, startTimeoutScale, stopStarted } from './start';

/** What to start: one `chroma` container target from a local image. */
export interface ChromaContainerSpec {
  /** `backend@version`, e.g. `chroma@1.3` (label and messages). */
  target: string;
  /** Local image tag, e.g. `memory-matrix/chroma:1.3-15cafe29`, or `chromadb/chroma:<ver>`. */
  image: string;
  /** Run id, label `memory-matrix.run`. */
  runId: string;
  /** Versions the server must report, e.g. `{ chroma: '1.3' }` (prefix on a dot boundary). */
  expect?: Record<string, string>;
  /** Start deadline in ms before `MM_START_TIMEOUT_SCALE`; default 60 000. */
  startTimeoutMs?: number;
}

/** A running Chroma container target; structurally a `StartedBackend`. */
export interface StartedChromaContainer {
  provider: 'container';
  target: string;
  containerId: string;
  /** The mapped port on 127.0.0.1 (the only address this provider talks to). */
  connection: { host: '127.0.0.1'; port: number };
  info: { serverVersion: string; components: Record<string, string>; image: string; imageId: string };
  /** ms from `docker create` to the log line, a heartbeat and a real client call. */
  startMs: number;
  /** A new Chroma store (new chromadb client) each call. */
  connect(): Promise<MemoryStore>;
  /** Closes the stores still open, stops (SIGINT, 10 s grace) and removes the container and its volumes. Idempotent. */
  stop(): Promise<void>;
}

/** Port Chroma listens on inside the image (offline recipe and the official image). */
export const CHROMA_PORT = 8000;
const DEFAULT_START_TIMEOUT_MS = 60_000;
/** The chromadb npm CLI inside the offline image (matrix/targets.yaml recipe). */
const OFFLINE_CLI = '/opt/chroma/node_modules/chromadb/dist/cli.mjs';

/**
 * Starts a Chroma container target (container kind `chroma`) the way the postgres and redis kinds
 * do: testcontainers with Ryuk off and the exit guard, labels `memory-matrix.{run,target,pid}`,
 * port 8000 published on 127.0.0.1 only, at most `MM_START_PARALLEL` starts at once. Ready = the
 * server's log line (`Listening on` / `listening on address`) AND `/api/v2/heartbeat` answering through the mapped port AND a
 * real client call (chromadb: heartbeat, max batch size, version), all before
 * `startTimeoutMs × MM_START_TIMEOUT_SCALE`; the release (`chroma --version` in the container)
 * and the API version are checked against `spec.expect`.
 * Throws TARGET_UNAVAILABLE (no engine, image missing, start, readiness or version failure — the
 * message names target, image and the container's last log lines; a failed container is removed).
 */
export async function startChromaContainer(spec: ChromaContainerSpec): Promise<StartedChromaContainer> {
  const where = `${spec.target} (container ${spec.image})`;
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  try {
    await dockerEngine();
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${(err as Error).message}`, { cause: err });
  }
  const image = await inspectImage(spec.image);
  if (!image) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: image not found locally (no registry here); build it from the target's offline recipe (\`memory-matrix images build -t ${spec.target}\`)`);
  }
  registerRun(spec.runId);
  return inStartSlot(() => startNow(spec, where, image.id));
}

/** GET /api/v2/heartbeat through the mapped port until it answers 200 or `deadline` passes (Docker's proxy may accept and reset while the network is wired). */
async function waitForHeartbeat(port: number, deadline: number, where: string): Promise<void> {
  let last: unknown;
  let attempts = 0;
  while (Date.now() < deadline) {
    attempts++;
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/v2/heartbeat`, { signal: AbortSignal.timeout(2_000) });
      if (r.ok) return;
      last = new Error(`HTTP ${r.status}`);
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: no heartbeat from 127.0.0.1:${port} before the start deadline (${attempts} attempts): ${(last as Error)?.message ?? 'no reply'}`, { cause: last });
}

/**
 * The Chroma release inside the container, from its CLI: `chroma --version` (the official image)
 * or the chromadb npm CLI of the offline image. The server's /api/v2/version only names the HTTP
 * API (1.0.0 on both 1.0 and 1.4). TARGET_UNAVAILABLE when neither answers with a version.
 */
async function cliVersion(c: StartedTestContainer, where: string): Promise<string> {
  const r = await c.exec(['sh', '-c', `if command -v chroma >/dev/null 2>&1; then exec chroma --version; else exec node ${OFFLINE_CLI} --version; fi`]);
  const m = /chroma (\d+\.\d+\.\d+\S*)/.exec(r.output);
  if (!m) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: \`chroma --version\` in the container gave no version (exit ${r.exitCode}): ${r.output.trim().slice(-300)}`);
  return m[1]!;
}

async function startNow(spec: ChromaContainerSpec, where: string, imageId: string): Promise<StartedChromaContainer> {
  const t0 = Date.now();
  const timeoutMs = Math.round((spec.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) * startTimeoutScale());
  const gc = new GuardedContainer(spec.image, spec.target)
    .loopbackPort(CHROMA_PORT)
    // docker stop sends SIGINT: Chroma 1.4.4 exits on it in < 3 s, but on SIGTERM it logs
    // "Received SIGTERM, shutting down service" and hangs until docker's SIGKILL (measured).
    .stopWithSigint()
    .withLabels(containerLabels(spec.runId, spec.target))
    .withWaitStrategy(Wait.forLogMessage(/[Ll]istening on/)) // 1.0: `Listening on …`; 1.4: `Frontend server listening on address`
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
  const port = started.getMappedPort(CHROMA_PORT);
  let info: StartedChromaContainer['info'];
  try {
    await waitForHeartbeat(port, t0 + timeoutMs, where);
    const probe = await createChromaStore({ host: '127.0.0.1', port });
    const api = (await probe.serverInfo()).components.chromaApi!;
    await probe.close();
    const release = await cliVersion(started, where);
    info = { serverVersion: `Chroma ${release} (API ${api})`, components: { chroma: release, chromaApi: api }, image: spec.image, imageId };
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
      const store = await createChromaStore({ host: '127.0.0.1', port });
      stores.add(store);
      return store;
    },
    stop() {
      stopping ??= stopStarted(started, id, stores, where);
      return stopping;
    },
  };
}
