import net from 'node:net';
import { MemoryMatrixError } from '@memory-matrix/spec';
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
 * One client connection to a SQLite store process (server.ts): requests in flight by id, each with
 * the client's own time limit. `queryMs` absent = no limit. Every failure is a MemoryMatrixError:
 * BACKEND_ERROR when the connection closed or was cut (pending and later requests), or a request
 * got no answer within `queryMs`; the server's own errors keep their code (wire.ts).
 */
export class ProcessConnection {
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private buf = '';
  private ended?: string;

  private constructor(
    private readonly socket: net.Socket,
    readonly where: string,
    private readonly queryMs: number | undefined,
  ) {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => this.onData(d));
    socket.on('error', (e) => this.fail(`connection error: ${e.message}`));
    socket.on('close', () => this.fail('the connection closed (the store process ended or was killed)'));
  }

  /** Connect to `host:port` within `connectMs` (default 5 000). BACKEND_ERROR when it cannot. */
  static open(host: string, port: number, where: string, opts: { connectMs?: number; queryMs?: number } = {}): Promise<ProcessConnection> {
    const connectMs = opts.connectMs ?? 5_000;
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new MemoryMatrixError('BACKEND_ERROR', `${where}: no connection to the store process at ${host}:${port} within ${connectMs} ms`));
      }, connectMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new ProcessConnection(socket, where, opts.queryMs));
      });
      socket.once('error', (e) => {
        clearTimeout(timer);
        reject(new MemoryMatrixError('BACKEND_ERROR', `${where}: cannot connect to the store process at ${host}:${port}: ${e.message}`, { cause: e }));
      });
    });
  }

  /** Send `op(args)` and resolve with the answer. */
  call<T>(op: string, ...args: unknown[]): Promise<T> {
    if (this.ended) return Promise.reject(new MemoryMatrixError('BACKEND_ERROR', `${this.where}: ${op}: ${this.ended}`));
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
      this.socket.write(`${JSON.stringify({ id, op, args })}\n`, () => (p.sent = true));
    });
  }

  /** Whether a data-changing request was sent completely and is not answered yet. */
  writeInFlight(): boolean {
    return [...this.pending.values()].some((p) => p.sent && WRITE_OPS.has(p.op));
  }

  get closed(): boolean {
    return this.ended !== undefined;
  }

  /** Cut the connection at this end (fault injection: what a dropped connection looks like to both ends). Resolves 1 when it was open. */
  cut(why: string): number {
    if (this.ended) return 0;
    this.fail(why);
    this.socket.destroy();
    return 1;
  }

  /** Close the connection (idempotent); pending requests reject. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.fail('the connection was closed by the client');
    await new Promise<void>((r) => this.socket.end(r));
    this.socket.destroy();
  }

  private onData(d: string): void {
    this.buf += d;
    for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
      const r = JSON.parse(this.buf.slice(0, nl)) as WireReply;
      this.buf = this.buf.slice(nl + 1);
      const p = this.pending.get(r.id);
      if (!p) continue; // answered after the client's time limit: the caller was already told
      this.pending.delete(r.id);
      clearTimeout(p.timer);
      if ('error' in r) p.reject(errorFromWire(r.error, this.where));
      else p.resolve(r.ok);
    }
  }

  private fail(why: string): void {
    this.ended ??= why;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new MemoryMatrixError('BACKEND_ERROR', `${this.where}: ${p.op}: ${why}; whether it committed is unknown`));
    }
  }
}
