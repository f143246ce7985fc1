import { MemoryMatrixError, type ConnectOptions, type MemoryStore } from '@memory-matrix/spec';
import { ChromaTransport, createChromaStore, WRITE_PATH, type LiveRequest } from '@memory-matrix/adapter-chroma';
import { execBinary, pollUntil } from './docker-ops';
import type { FaultEndpoint, FaultKind } from './kinds';

/** Where the offline chroma image keeps its data (`chroma run --path /data`, matrix/targets.yaml). */
const CHROMA_DATA_DIR = '/data';

/** Transports of the stores opened with a `clientName`, per server (`ep.containerId`), for drop / in-flight. */
const clients = new Map<string, Set<ChromaTransport>>();
const keyOf = (ep: FaultEndpoint, clientName: string): string => `${ep.containerId}\u0000${clientName}`;

function transportsOf(ep: FaultEndpoint, clientName: string): ChromaTransport[] {
  const set = clients.get(keyOf(ep, clientName));
  if (!set) return [];
  for (const t of set) if (t.closed) set.delete(t);
  return [...set];
}

/** A write (POST add/upsert/update/delete) whose request the server holds completely and has not answered. */
export const isWriteInFlight = (r: LiveRequest): boolean => r.method === 'POST' && WRITE_PATH.test(r.path) && r.sent;

/**
 * `ConnectOptions` → a Chroma store on its own transport. `timeouts.connectMs` is the TCP connect
 * limit and `timeouts.queryMs` the whole-request limit (adapter-chroma `ChromaTransport`);
 * `statementMs` has no Chroma equivalent (the server has no per-request time limit) and is not
 * applied. A `clientName` registers the transport so `dropConnections`/`awaitWriteInFlight` find
 * it. Throws INVALID_INPUT for a bad timeout or name, BACKEND_ERROR when the server does not answer.
 */
export async function connectChroma(ep: FaultEndpoint, opts: ConnectOptions = {}): Promise<MemoryStore> {
  if (opts.clientName !== undefined && !/^[\x20-\x7e]{1,63}$/.test(opts.clientName)) {
    throw new MemoryMatrixError('INVALID_INPUT', `connect: clientName must be 1-63 printable ASCII characters, got ${JSON.stringify(opts.clientName)}`);
  }
  const t = opts.timeouts ?? {};
  const transport = new ChromaTransport({ connectMs: t.connectMs, requestMs: t.queryMs });
  if (opts.clientName !== undefined) {
    const k = keyOf(ep, opts.clientName);
    if (!clients.has(k)) clients.set(k, new Set());
    clients.get(k)!.add(transport);
  }
  try {
    return await createChromaStore({ host: ep.host, port: ep.port, transport });
  } catch (err) {
    await transport.close();
    throw err;
  }
}

/** Heartbeat, then a real client call (pre-flight max batch size and version, as `createChromaStore` does), retried until `deadline`. */
export async function waitForChroma(ep: FaultEndpoint, deadline: number): Promise<void> {
  let last: unknown;
  const ok = await pollUntil(async () => {
    try {
      const r = await fetch(`http://${ep.host}:${ep.port}/api/v2/heartbeat`, { signal: AbortSignal.timeout(2_000) });
      if (!r.ok) throw new Error(`heartbeat HTTP ${r.status}`);
      const store = await createChromaStore({ host: ep.host, port: ep.port, timeouts: { connectMs: 2_000, requestMs: 5_000 } });
      try {
        await store.serverInfo();
      } finally {
        await store.close();
      }
      return true;
    } catch (err) {
      last = err;
      return undefined;
    }
  }, deadline, 100);
  if (!ok) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${ep.where}: Chroma did not answer a heartbeat and a client call before the start deadline: ${(last as Error)?.message ?? 'no reply'}`, { cause: last });
}

/** Cut the named client's connections that carry a request in flight (see `chromaFaultKind`). */
export function dropChromaClient(ep: FaultEndpoint, clientName: string): number {
  return transportsOf(ep, clientName).reduce((n, t) => n + t.cut(`connection of client ${clientName} cut by memory-matrix (fault injection)`), 0);
}

/** Resolves once a write of `clientName` is in flight at the server (`isWriteInFlight`); BACKEND_ERROR after `timeoutMs`. */
export async function awaitChromaWrite(ep: FaultEndpoint, clientName: string, timeoutMs: number): Promise<void> {
  const seen = await pollUntil(async () => (transportsOf(ep, clientName).some((t) => t.live().some(isWriteInFlight)) ? true : undefined), Date.now() + timeoutMs, 1);
  if (!seen) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: no write of client ${clientName} in flight within ${timeoutMs} ms (no POST add/upsert/update/delete fully sent and unanswered)`);
}

/**
 * Chroma fault kind (container kind `chroma`: the offline image runs `chroma run --path /data`
 * on port 8000; `docker stop` sends SIGINT because Chroma 1.4.4 hangs on SIGTERM).
 * - Configuration: Chroma has no server setting that changes durability (no fsync or
 *   commit-mode knob in `chroma run`; its config file sets the persist path, port and CORS), so
 *   the only configuration is "the persistent path /data on the instance's volume". A
 *   configuration with `settings` is refused (INVALID_INPUT); `effective` reports the path and
 *   whether Chroma's SQLite file (its write-ahead log, `embeddings_queue`, and catalog) is on it.
 * - Ready: the log line `Listening on` (1.0) / `listening on address` (1.4), a heartbeat and a
 *   real client call.
 * - Timeouts: see `connectChroma`.
 * - dropConnections: Chroma's HTTP frontend keeps no per-client sessions a server-side command
 *   could terminate (there is no pg_terminate_backend or CLIENT KILL), and the image carries no
 *   tool that kills one TCP connection (no `ss -K`). So the drop is made at the client's end of
 *   the wire: the named client's transport destroys every connection that carries a request in
 *   flight. Both ends then see what a dropped connection looks like (the client a socket error,
 *   the server a closed connection); the server finishes or abandons what it had received.
 *   Resolves with the number of connections cut.
 * - awaitWriteInFlight: seen from the client side, the only side where HTTP shows it: a write
 *   request of that client has been written to the socket completely and its answer has not come
 *   back, i.e. the server holds the whole batch and is applying it.
 * - No dump format: Chroma has no export/import of a collection (its data directory is the
 *   format), so `exportCollection`/`importCollection` are absent; C16 uses the in-place path.
 */
export const chromaFaultKind: FaultKind = {
  port: 8000,
  dataDir: CHROMA_DATA_DIR,
  readyLog: /[Ll]istening on/,
  stopSignal: 'SIGINT',
  waitQuery: waitForChroma,
  async applySettings(ep, settings) {
    throw new MemoryMatrixError('INVALID_INPUT', `${ep.where}: Chroma has no server settings to apply (got ${Object.keys(settings).join(', ')}); its durability configuration is the persistent path`);
  },
  async effectiveSettings(ep) {
    const r = await execBinary(ep.containerId, ['sh', '-c', `test -f ${CHROMA_DATA_DIR}/chroma.sqlite3 && echo present || echo missing`], { timeoutMs: 15_000 });
    if (r.code !== 0) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: cannot look at ${CHROMA_DATA_DIR} (exit ${r.code}): ${r.stderr.trim()}`);
    return { persist_path: CHROMA_DATA_DIR, 'chroma.sqlite3': r.stdout.toString('utf8').trim() };
  },
  settingsInArgs: () => ({}),
  connect: connectChroma,
  async dropConnections(ep, clientName) {
    return dropChromaClient(ep, clientName);
  },
  awaitWriteInFlight: awaitChromaWrite,
};
