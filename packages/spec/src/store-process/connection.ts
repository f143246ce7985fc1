import net from 'node:net';
import { MemoryMatrixError } from '../errors';
import { LineSplitter } from '../lines';
import { errorFromWire, WRITE_OPS, type WireReply } from './wire';

interface Pending {
  op: string;
  /** The request has been handed to the kernel completely (the socket's write callback ran). */
  sent: boolean;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  timer?: NodeJS.Timeout;
}

/**
 * One client of a store process (server.ts): a TCP connection, requests in flight by id, each with
 * the client's own time limit (`queryMs`; absent = none). Like a database client's pool, a
 * connection that closed or was cut is opened again by the next request (a NEW connection of the
 * adapter in the process; requests name collections and sessions, not connection state, so nothing
 * is lost). Every failure is a MemoryMatrixError: BACKEND_ERROR when the connection closed or was cut
 * under a request, the process does not accept a connection, or a request got no answer within
 * `queryMs`; the server's own errors keep their code (wire.ts).
 */
export class ProcessConnection {
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private readonly lines = new LineSplitter();
  private socket?: Promise<net.Socket>;
  private live?: net.Socket;
  private userClosed = false;

  private constructor(
    private readonly host: string,
    private readonly port: number,
    readonly where: string,
    private readonly connectMs: number,
    private readonly queryMs: number | undefined,
  ) {}

  /** Connect to `host:port` within `connectMs` (default 5 000). BACKEND_ERROR when it cannot. */
  static async open(host: string, port: number, where: string, opts: { connectMs?: number; queryMs?: number } = {}): Promise<ProcessConnection> {
    const c = new ProcessConnection(host, port, where, opts.connectMs ?? 5_000, opts.queryMs);
    await c.ensure();
    return c;
  }

  /** The open socket, connecting first when there is none. */
  private ensure(): Promise<net.Socket> {
    this.socket ??= new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect({ host: this.host, port: this.port });
      const timer = setTimeout(() => {
        socket.destroy();
        this.socket = undefined;
        reject(new MemoryMatrixError('BACKEND_ERROR', `${this.where}: no connection to the store process at ${this.host}:${this.port} within ${this.connectMs} ms`));
      }, this.connectMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        socket.setNoDelay(true);
        socket.setEncoding('utf8');
        this.lines.reset();
        this.live = socket;
        socket.on('data', (d: string) => this.onData(d));
        socket.on('error', (e) => this.lost(socket, `connection error: ${e.message}`));
        socket.on('close', () => this.lost(socket, 'the connection closed (the store process ended or was killed)'));
        resolve(socket);
      });
      socket.once('error', (e) => {
        clearTimeout(timer);
        this.socket = undefined;
        reject(new MemoryMatrixError('BACKEND_ERROR', `${this.where}: cannot connect to the store process at ${this.host}:${this.port}: ${e.message}`, { cause: e }));
      });
    });
    return this.socket;
  }

  /** Send `op(args)` and resolve with the answer. */
  async call<T>(op: string, ...args: unknown[]): Promise<T> {
    if (this.userClosed) throw new MemoryMatrixError('BACKEND_ERROR', `${this.where}: ${op}: the client was closed`);
    const socket = await this.ensure().catch((e: unknown) => {
      throw new MemoryMatrixError('BACKEND_ERROR', `${op}: ${(e as Error).message}`, { cause: e });
    });
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { op, sent: false, resolve: resolve as (v: unknown) => void, reject };
      this.pending.set(id, p);
      if (this.queryMs !== undefined) {
        p.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new MemoryMatrixError('BACKEND_ERROR', `${this.where}: ${op}: no answer from the store process within ${this.queryMs} ms (client time limit)`));
        }, this.queryMs);
      }
      socket.write(`${JSON.stringify({ id, op, args })}\n`, () => (p.sent = true));
    });
  }

  /** Whether a data-changing request was sent completely and is not answered yet. */
  writeInFlight(): boolean {
    return [...this.pending.values()].some((p) => p.sent && WRITE_OPS.has(p.op));
  }

  /** Whether the client was closed by its user (`close()`); a cut connection is opened again by the next request. */
  get closed(): boolean {
    return this.userClosed;
  }

  /** Cut the open connection at this end (fault injection: what a dropped connection looks like to both ends). Resolves 1 when one was open. */
  cut(why: string): number {
    const socket = this.live;
    if (!socket || socket.destroyed) return 0;
    this.lost(socket, why);
    socket.destroy();
    return 1;
  }

  /** Close the client (idempotent); pending requests reject. */
  async close(): Promise<void> {
    if (this.userClosed) return;
    this.userClosed = true;
    const socket = this.live;
    if (socket) this.lost(socket, 'the client was closed');
    if (socket && !socket.destroyed) await new Promise<void>((r) => socket.end(r));
    socket?.destroy();
  }

  private onData(d: string): void {
    for (const line of this.lines.push(d)) {
      const r = JSON.parse(line) as WireReply;
      const p = this.pending.get(r.id);
      if (!p) continue; // answered after the client's time limit: the caller was already told
      this.pending.delete(r.id);
      clearTimeout(p.timer);
      if ('error' in r) p.reject(errorFromWire(r.error, this.where));
      else p.resolve(r.ok);
    }
  }

  /** `socket` is gone: every request on it rejects (whether it committed is unknown); the next call connects again. */
  private lost(socket: net.Socket, why: string): void {
    if (this.live !== socket) return;
    this.live = undefined;
    this.socket = undefined;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new MemoryMatrixError('BACKEND_ERROR', `${this.where}: ${p.op}: ${why}; whether it committed is unknown`));
    }
  }
}
