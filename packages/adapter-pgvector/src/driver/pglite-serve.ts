import type { Socket } from 'node:net';
import { MemoryMatrixError } from '@memory-matrix/spec';
import type { PGliteLike } from '../sql';

/**
 * Most connections one served PGlite accepts at once: PostgreSQL's default `max_connections`
 * (100, postgresql.conf.sample). A client target's pool (pg.Pool default max 10, Mastra's PgVector
 * 20) plus the cell's other stores, each holding idle connections until the cell's cleanup closes
 * them, fit as they do on a PostgreSQL server with its defaults.
 */
export const PGLITE_SERVER_MAX_CONNECTIONS = 100;

/**
 * How long one connection may hold PGlite's single session idle inside a transaction while other
 * connections' statements wait behind it, ms. PostgreSQL would serve those others at once (each
 * connection is its own backend); pglite-socket serves nothing else until that transaction ends, so
 * a client that waits on another connection while holding a transaction would hang both for ever.
 * Past this limit the holder is ended as PostgreSQL's `idle_in_transaction_session_timeout` ends
 * a session (FATAL 25P03; its transaction rolled back) and the others go on.
 */
export const PGLITE_IDLE_HOLD_LIMIT_MS = 30_000;

/** A PGlite served on a loopback port. */
export interface PGliteSocket {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (PGlite accepts any user and password). */
  url: string;
  /** Close every connection (a transaction still open on one is rolled back) and stop listening. */
  stop(): Promise<void>;
}

/** SSLRequest (PostgreSQL protocol, "Message Formats"): length 8, code 80877103. */
const SSL_REQUEST = { length: 8, code: 80877103 };

/**
 * The ErrorResponse PostgreSQL sends a connection over `max_connections` (postmaster.c
 * `canAcceptConnections` → CAC_TOOMANY): severity FATAL, SQLSTATE 53300 too_many_connections,
 * "sorry, too many clients already". Fields per the protocol's "Error and Notice Message Fields".
 */
export function tooManyClientsMessage(): Buffer {
  return fatalMessage('53300', 'sorry, too many clients already');
}

/** A FATAL ErrorResponse: code `sqlstate`, message `message`, optional detail (field D). */
export function fatalMessage(sqlstate: string, message: string, detail?: string): Buffer {
  const pairs = [['S', 'FATAL'], ['V', 'FATAL'], ['C', sqlstate], ['M', message], ...(detail === undefined ? [] : [['D', detail]])];
  const fields = Buffer.concat([...pairs.map(([k, v]) => Buffer.from(`${k}${v}\0`, 'utf8')), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'ascii');
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

/**
 * Refuse `socket` as PostgreSQL does past `max_connections`: read the client's first message (an
 * SSLRequest is answered `N`, no SSL, and the startup message that follows is read), then answer
 * the FATAL 53300 ErrorResponse and close. The client sees `sorry, too many clients already` with
 * code 53300 instead of a connection closed without a word.
 */
function refuse(socket: Socket): void {
  socket.on('error', () => undefined); // the client may already be gone; nothing to tell it then
  const onData = (data: Buffer): void => {
    if (data.length === SSL_REQUEST.length && data.readInt32BE(0) === SSL_REQUEST.length && data.readInt32BE(4) === SSL_REQUEST.code) {
      socket.write('N');
      return;
    }
    socket.off('data', onData);
    socket.end(tooManyClientsMessage());
  };
  socket.on('data', onData);
}

/** The members of pglite-socket 0.2.17's `PGLiteSocketServer` this file relies on (src/index.ts). */
interface SocketServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  getServerConn(): string;
  getStats(): { activeConnections: number };
  /** Private: called once per accepted socket (src/index.ts:660 `createServer((socket) => setImmediate(() => this.handleConnection(socket)))`). */
  handleConnection?: (socket: Socket) => Promise<void>;
  /** Private: the net.Server, whose `maxConnections` pglite-socket sets to its own limit (src/index.ts:664). */
  server?: { maxConnections?: number } | null;
  /** Private: the statements waiting (src/index.ts:26 `QueryQueueManager`), the connection served last, whether one runs now. */
  queryQueue?: { queue: Array<{ handlerId: number }>; lastHandlerId: number | null; processing: boolean };
  /** Private: one handler per open connection (src/index.ts:611). */
  handlers?: Set<{ handlerId: number; socket: Socket | null; handleError(err: Error): void }>;
}

/**
 * Every second: when PGlite is inside a transaction of the connection served last, nothing runs,
 * statements of other connections wait and none of that connection's is queued, it holds the
 * session idle; held so for `limitMs`, it is sent FATAL 25P03 (PostgreSQL's idle-in-transaction
 * message, with a detail naming the cause) and ended through pglite-socket's own error path
 * (`handleError`: the server drops it, its transaction is rolled back, the queue goes on). Returns
 * the function that stops watching.
 */
function endIdleHolders(server: SocketServer, db: PGliteLike & { isInTransaction(): boolean }, limitMs: number): () => void {
  let held: { id: number; since: number } | undefined;
  const timer = setInterval(() => {
    const q = server.queryQueue!;
    const id = q.lastHandlerId;
    const idle = id !== null && !q.processing && q.queue.length > 0 && !q.queue.some((x) => x.handlerId === id) && db.isInTransaction();
    if (!idle) return void (held = undefined);
    if (held?.id !== id) return void (held = { id, since: Date.now() });
    if (Date.now() - held.since < limitMs) return;
    const handler = [...server.handlers!].find((h) => h.handlerId === id);
    const waiting = new Set(q.queue.map((x) => x.handlerId)).size;
    const detail = `PGlite serves one session for every connection: this connection held a transaction open without a statement for ${Math.round((Date.now() - held.since) / 1000)} s while ${waiting} other connection(s) waited behind it`;
    held = undefined;
    if (!handler?.socket) return;
    handler.socket.write(fatalMessage('25P03', 'terminating connection due to idle-in-transaction timeout', detail));
    handler.handleError(new Error(detail));
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Serve `db` over the Postgres wire protocol on 127.0.0.1 (a free port) with pglite-socket
 * (`module`, pinned 0.2.17), for client drivers (LangChain.js, Mastra, a user's own module over
 * `pg`). At most `maxConnections` connections at once (default PGLITE_SERVER_MAX_CONNECTIONS); one
 * more is refused with PostgreSQL's FATAL 53300 `sorry, too many clients already`.
 *
 * Why not pglite-socket's own limit: it sets the same number as the net.Server's
 * `maxConnections` (src/index.ts:664), and Node destroys a socket over that limit on accept without
 * a byte (net.js `onconnection`), so the client reads `Connection terminated unexpectedly` and
 * nothing says why; pglite-socket's own check behind it (src/index.ts:771) writes the text `Too
 * many connections\n`, which is not a protocol message either. Measured: the own-memory example's
 * cell (a pool of 4 per store, stores closed at its cleanup) held 32 connections when its cleanup
 * asked for a 33rd, which was dropped so: `drop c09_cosine_…: Connection terminated unexpectedly`.
 *
 * Everything else is pglite-socket's: one PGlite session shared by every connection, statements
 * queued one at a time, a connection's open transaction served alone until it ends (other
 * connections wait; a connection that closes mid-transaction is rolled back and the others go on),
 * except that a connection idle in a transaction while others wait is ended after `idleHoldLimitMs`
 * (default PGLITE_IDLE_HOLD_LIMIT_MS, `endIdleHolders`). README "The PGlite server" has the measurements. Throws TARGET_UNAVAILABLE naming `where` when the
 * package is missing, is not the shape above, or cannot listen.
 */
export async function servePGlite(module: string, db: PGliteLike, where: string, maxConnections = PGLITE_SERVER_MAX_CONNECTIONS, idleHoldLimitMs = PGLITE_IDLE_HOLD_LIMIT_MS): Promise<PGliteSocket> {
  let server: SocketServer;
  let unwatch: () => void;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- dual CJS/ESM; require keeps jest in CommonJS
    const { PGLiteSocketServer } = require(module) as { PGLiteSocketServer: new (o: Record<string, unknown>) => SocketServer };
    server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    const accept = server.handleConnection;
    if (typeof accept !== 'function') throw new Error('PGLiteSocketServer has no handleConnection (not the pinned 0.2.17 shape)');
    server.handleConnection = (socket: Socket) => (server.getStats().activeConnections >= maxConnections ? Promise.resolve(refuse(socket)) : accept.call(server, socket));
    await server.start();
    if (!server.server) throw new Error('PGLiteSocketServer started without its net.Server (not the pinned 0.2.17 shape)');
    server.server.maxConnections = Infinity; // the limit is the check above, which answers as PostgreSQL does
    if (!server.queryQueue || !server.handlers || typeof (db as { isInTransaction?: unknown }).isInTransaction !== 'function')
      throw new Error('PGLiteSocketServer has no queryQueue / handlers, or PGlite no isInTransaction (not the pinned shapes)');
    unwatch = endIdleHolders(server, db as PGliteLike & { isInTransaction(): boolean }, idleHoldLimitMs);
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: cannot serve PGlite on a loopback port (${module}): ${(err as Error).message}`, { cause: err });
  }
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    stop: () => (unwatch(), server.stop()),
  };
}
