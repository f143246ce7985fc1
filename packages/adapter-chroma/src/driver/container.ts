import { MemoryMatrixError, type ContainerEndpoint, type ContainerKind } from '@memory-matrix/spec';
import { awaitChromaWrite, chromaApiVersion, connectChroma, dropChromaClient, probeChroma } from './connect';

/** Where the offline chroma image keeps its data (`chroma run --path /data`, matrix/targets.yaml). */
const CHROMA_DATA_DIR = '/data';
/** Port Chroma listens on inside the image (offline recipe and the official image). */
export const CHROMA_PORT = 8000;
/** The chromadb npm CLI inside the offline image (matrix/targets.yaml recipe). */
const OFFLINE_CLI = '/opt/chroma/node_modules/chromadb/dist/cli.mjs';

/**
 * The Chroma release inside the container, from its CLI: `chroma --version` (the official image)
 * or the chromadb npm CLI of the offline image. The server's /api/v2/version only names the HTTP
 * API (1.0.0 on both 1.0 and 1.4). TARGET_UNAVAILABLE when neither answers with a version.
 */
async function cliVersion(ep: ContainerEndpoint): Promise<string> {
  const r = await ep.exec(['sh', '-c', `if command -v chroma >/dev/null 2>&1; then exec chroma --version; else exec node ${OFFLINE_CLI} --version; fi`], { timeoutMs: 60_000 });
  const output = r.stdout.toString('utf8') + r.stderr;
  const m = /chroma (\d+\.\d+\.\d+\S*)/.exec(output);
  if (!m) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${ep.where}: \`chroma --version\` in the container gave no version (exit ${r.code}): ${output.trim().slice(-300)}`);
  return m[1]!;
}

/**
 * The `chroma` container kind (the offline image runs `chroma run --path /data` on port 8000).
 * - Ready: the log line `Listening on` (1.0) / `listening on address` (1.4), then `probeChroma`
 *   (heartbeat and a real client call).
 * - Versions: the release from the CLI in the container, the API version from the server.
 * - Stop: SIGINT — Chroma 1.4.4 exits on it in < 3 s, but on SIGTERM it logs "Received SIGTERM,
 *   shutting down service" and hangs until docker's SIGKILL (measured).
 * - Faults: Chroma has no server setting that changes durability (no fsync or commit-mode knob in
 *   `chroma run`; its config file sets the persist path, port and CORS), so the only configuration
 *   is "the persistent path /data on the instance's volume". A configuration with `settings` is
 *   refused (INVALID_INPUT); `effective` reports the path and whether Chroma's SQLite file (its
 *   write-ahead log, `embeddings_queue`, and catalog) is on it. Connections are cut and writes
 *   watched at the client's end (connect.ts). No dump format: Chroma has no export/import of a
 *   collection (its data directory is the format), so C16 uses the in-place path.
 */
export const chromaContainerKind: ContainerKind = {
  kind: 'chroma',
  port: CHROMA_PORT,
  dataDir: CHROMA_DATA_DIR,
  readyLog: /[Ll]istening on/,
  stopSignal: 'SIGINT',
  defaultStartTimeoutMs: 60_000,
  probe: probeChroma,
  async versions(ep) {
    const api = await chromaApiVersion(ep);
    const release = await cliVersion(ep);
    return { serverVersion: `Chroma ${release} (API ${api})`, components: { chroma: release, chromaApi: api } };
  },
  connect: (ep, opts) => connectChroma(ep, opts),
  /** For client drivers (chromadb's `ChromaClient({ path })`, LangChain.js `Chroma({ url })`): the server's HTTP root on the mapped loopback port. */
  connectionString: (ep) => `http://${ep.host}:${ep.port}`,
  faults: {
    async applySettings(ep, settings) {
      throw new MemoryMatrixError(
        'INVALID_INPUT',
        `${ep.where}: Chroma has no server settings to apply (got ${Object.keys(settings).join(', ')}); its durability configuration is the persistent path`,
      );
    },
    async effectiveSettings(ep) {
      const r = await ep.exec(['sh', '-c', `test -f ${CHROMA_DATA_DIR}/chroma.sqlite3 && echo present || echo missing`], { timeoutMs: 15_000 });
      if (r.code !== 0) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: cannot look at ${CHROMA_DATA_DIR} (exit ${r.code}): ${r.stderr.trim()}`);
      return { persist_path: CHROMA_DATA_DIR, 'chroma.sqlite3': r.stdout.toString('utf8').trim() };
    },
    settingsInArgs: () => ({}),
    async dropConnections(ep, clientName) {
      return dropChromaClient(ep, clientName);
    },
    awaitWriteInFlight: awaitChromaWrite,
  },
};
