import { MemoryMatrixError, type ConnectOptions, type Endpoint, type MemoryStore } from '@memory-matrix/spec';
import { createChromaStore } from '../chroma-adapter';
import { ChromaTransport, WRITE_PATH, type LiveRequest } from '../transport';

/** Where a server listens: what the fault controls are handed (container or local endpoint). */
type Listening = Pick<Endpoint, 'host' | 'port'>;

/**
 * Transports of the stores opened with a `clientName`, per server. The key is the server's HTTP
 * root `http://<host>:<port>` (the URL the kinds' `connectionString` gives client drivers), so a
 * client library's transport (`chromaClientTransport`) and this adapter's own are found alike.
 */
const clients = new Map<string, Set<ChromaTransport>>();
const serverUrl = (ep: Listening): string => `http://${ep.host}:${ep.port}`;
const keyOf = (url: string, clientName: string): string => `${url}\u0000${clientName}`;

function transportsOf(ep: Listening, clientName: string): ChromaTransport[] {
  const set = clients.get(keyOf(serverUrl(ep), clientName));
  if (!set) return [];
  for (const t of set) if (t.closed) set.delete(t);
  return [...set];
}

/**
 * A new HTTP transport for a client of the Chroma server at `url` (`http://127.0.0.1:<port>`, as
 * the kinds' `connectionString` gives it): `opts.timeouts.connectMs` is the TCP connect limit and
 * `timeouts.queryMs` the whole-request limit (`ChromaTransport`; `statementMs` has no Chroma
 * equivalent). With `opts.clientName` the transport is registered, so the fault controls
 * (`dropChromaClient`, `awaitChromaWrite`) find it: a client library over Chroma (LangChain.js)
 * passes it to its chromadb client as `fetchOptions.dispatcher`. The caller closes it.
 * Throws INVALID_INPUT for a bad timeout or name.
 */
export function chromaClientTransport(url: string, opts?: ConnectOptions): ChromaTransport {
  if (opts?.clientName !== undefined && !/^[\x20-\x7e]{1,63}$/.test(opts.clientName)) {
    throw new MemoryMatrixError('INVALID_INPUT', `connect: clientName must be 1-63 printable ASCII characters, got ${JSON.stringify(opts.clientName)}`);
  }
  const t = opts?.timeouts ?? {};
  const transport = new ChromaTransport({ connectMs: t.connectMs, requestMs: t.queryMs });
  if (opts?.clientName !== undefined) {
    const k = keyOf(url.replace(/\/+$/, ''), opts.clientName);
    if (!clients.has(k)) clients.set(k, new Set());
    clients.get(k)!.add(transport);
  }
  return transport;
}

/** A write (POST add/upsert/update/delete) whose request the server holds completely and has not answered. */
export const isWriteInFlight = (r: LiveRequest): boolean => r.method === 'POST' && WRITE_PATH.test(r.path) && r.sent;

/**
 * A new Chroma store. Without `opts` (ordinary cells): the adapter's default client. With `opts`:
 * its own transport — `timeouts.connectMs` is the TCP connect limit and `timeouts.queryMs` the
 * whole-request limit (`ChromaTransport`); `statementMs` has no Chroma equivalent (the server has
 * no per-request time limit) and is not applied. A `clientName` registers the transport so
 * `dropChromaClient`/`awaitChromaWrite` find it. Throws INVALID_INPUT for a bad timeout or name,
 * BACKEND_ERROR when the server does not answer.
 */
export async function connectChroma(ep: Listening, opts?: ConnectOptions): Promise<MemoryStore> {
  if (opts === undefined) return createChromaStore({ host: ep.host, port: ep.port });
  const transport = chromaClientTransport(serverUrl(ep), opts);
  try {
    return await createChromaStore({ host: ep.host, port: ep.port, transport });
  } catch (err) {
    await transport.close();
    throw err;
  }
}

/**
 * ONE readiness attempt (the readiness probe of every Chroma server the run starts, container or
 * local): `/api/v2/heartbeat` answers 200, then a real client call (pre-flight max batch size and
 * version, as `createChromaStore` does) succeeds. Throws otherwise.
 */
export async function probeChroma(ep: Endpoint, attemptMs: number): Promise<void> {
  const r = await fetch(`http://${ep.host}:${ep.port}/api/v2/heartbeat`, { signal: AbortSignal.timeout(Math.max(200, Math.min(2_000, attemptMs))) });
  if (!r.ok) throw new Error(`heartbeat HTTP ${r.status}`);
  const store = await createChromaStore({ host: ep.host, port: ep.port, timeouts: { connectMs: 2_000, requestMs: 5_000 } });
  try {
    await store.serverInfo();
  } finally {
    await store.close();
  }
}

/** The HTTP API version the server reports (`/api/v2/version` through the client), e.g. `1.0.0`. */
export async function chromaApiVersion(ep: Endpoint): Promise<string> {
  const probe = await createChromaStore({ host: ep.host, port: ep.port });
  try {
    return (await probe.serverInfo()).components.chromaApi!;
  } finally {
    await probe.close();
  }
}

/**
 * Cut the named client's connections that carry a request in flight. Chroma's HTTP frontend keeps
 * no per-client sessions a server-side command could terminate (no pg_terminate_backend or CLIENT
 * KILL), and the image carries no tool that kills one TCP connection (no `ss -K`), so the drop is
 * made at the client's end of the wire: both ends then see what a dropped connection looks like.
 * Resolves with the number of connections cut.
 */
export function dropChromaClient(ep: Listening, clientName: string): number {
  return transportsOf(ep, clientName).reduce((n, t) => n + t.cut(`connection of client ${clientName} cut by memory-matrix (fault injection)`), 0);
}

/**
 * Resolves once a write of `clientName` is in flight at the server (`isWriteInFlight`: seen from
 * the client side, the only side where HTTP shows it); BACKEND_ERROR after `timeoutMs`. Calls
 * `onWatching` at once (client-side state needs no connection to watch it).
 */
export async function awaitChromaWrite(ep: Listening & { where: string }, clientName: string, timeoutMs: number, onWatching?: () => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  onWatching?.();
  // Not readiness: a 1 ms watch of client-side state for a window as long as one request.
  for (;;) {
    if (transportsOf(ep, clientName).some((t) => t.live().some(isWriteInFlight))) return;
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: no write of client ${clientName} in flight within ${timeoutMs} ms (no POST add/upsert/update/delete fully sent and unanswered)`);
}
