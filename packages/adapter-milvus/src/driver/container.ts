import { MemoryMatrixError, scaledLimitMs, type ContainerEndpoint, type ContainerKind } from '@memory-matrix/spec';
import { createMilvusStore } from '../milvus-adapter';
import { containerCrashProbe, crashReportOf } from './crash';

/** gRPC port of Milvus inside the image (offline recipe and the official standalone image). */
export const MILVUS_PORT = 19530;
/** Where the offline image keeps its database (`kylin-ai-vector-engine /data/milvus.db …`, matrix/targets.yaml). */
const MILVUS_DATA_DIR = '/data';

/**
 * Versions of the server in the container: Milvus's GetVersion when it names one (the official
 * image), else the Debian package of the offline image (`dpkg-query kylin-ai-vector-engine`;
 * kylin-ai-vector-engine answers GetVersion with `{}`). Components: `milvus` or
 * `kylinVectorEngine` (upstream version without the Debian revision, e.g. `1.2.0.1`).
 * TARGET_UNAVAILABLE when neither says.
 */
async function milvusVersions(ep: ContainerEndpoint): Promise<{ serverVersion: string; components: Record<string, string> }> {
  const store = await createMilvusStore({ port: ep.port, timeoutMs: scaledLimitMs(15_000) }); // × the host factor (spec host.ts)
  let info;
  try {
    info = await store.serverInfo();
  } finally {
    await store.close();
  }
  if (info.components.milvus) return { serverVersion: info.server, components: info.components };
  const r = await ep.exec(['dpkg-query', '-W', '-f', '${Version}', 'kylin-ai-vector-engine'], { timeoutMs: 30_000 });
  const full = r.stdout.toString('utf8').trim();
  if (r.code !== 0 || !full)
    throw new MemoryMatrixError(
      'TARGET_UNAVAILABLE',
      `${ep.where}: the server reports no version (GetVersion is empty) and dpkg-query kylin-ai-vector-engine gave none (exit ${r.code}): ${r.stderr.trim()}`,
    );
  const upstream = full.replace(/-[^-]*$/, '');
  return { serverVersion: `kylin-ai-vector-engine ${full} (Debian; a fork of Milvus Lite; GetVersion reports no version)`, components: { kylinVectorEngine: upstream } };
}

/**
 * The `milvus` container kind: a server speaking Milvus's gRPC API on 19530.
 * - Ready: the offline image's start script prints `memory-matrix: starting kylin-ai-vector-engine`
 *   (the server itself logs nothing at level ERROR), the official image logs `Proxy successfully
 *   started`; then `probe` (a real describeCollection through the client).
 * - Stop: SIGTERM (tini forwards it; the database survives SIGTERM and a restart, measured).
 * - connect: a store whose failed calls ask Docker whether the container is gone
 *   (driver/crash.ts): a crash is reported as `TARGET_CRASHED` with the server's last log lines,
 *   and every later call on any store of that server fails at once with the same report.
 *   `timeouts.queryMs` is the per-request deadline (default 60 s), `connectMs` not separate.
 * - No fault controls: the lite engine has no durability setting to choose (C15/C23 skip).
 */
export const milvusContainerKind: ContainerKind = {
  kind: 'milvus',
  port: MILVUS_PORT,
  dataDir: MILVUS_DATA_DIR,
  readyLog: /memory-matrix: starting kylin-ai-vector-engine|Proxy successfully started/,
  stopSignal: 'SIGTERM',
  defaultStartTimeoutMs: 60_000,
  async probe(ep, attemptMs) {
    const store = await createMilvusStore({ port: ep.port, timeoutMs: Math.max(500, Math.min(5_000, attemptMs)) });
    await store.close();
  },
  versions: milvusVersions,
  async connect(ep, opts) {
    const known = crashReportOf(ep.containerId);
    if (known) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: connect: ${known}`);
    return createMilvusStore({ port: ep.port, timeoutMs: opts?.timeouts?.queryMs, crashProbe: containerCrashProbe(ep.containerId, ep.where) });
  },
};
