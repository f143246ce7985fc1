import { MemoryMatrixError } from '@memory-matrix/spec';
import { Agent, type Dispatcher } from 'undici';

/** Client-side limits of one Chroma store's HTTP transport, in milliseconds; absent = no limit. */
export interface ChromaTimeouts {
  /** Opening a TCP connection must finish within this (undici `connect.timeout`). */
  connectMs?: number;
  /**
   * One HTTP request, from the moment it is dispatched until its response body has arrived,
   * must finish within this; the transport then destroys the request's connection. The only
   * limit that ends a call against a frozen server (`docker pause`).
   */
  requestMs?: number;
}

/** A request the transport has dispatched and the server has not answered completely. */
export interface LiveRequest {
  method: string;
  /** Path with query, e.g. `/api/v2/tenants/default_tenant/databases/default_database/collections/<uuid>/upsert`. */
  path: string;
  /** `Date.now()` at dispatch. */
  startedAt: number;
  /** The whole request (headers and body) has been written to the socket; the server holds it. */
  sent: boolean;
}

interface Live extends LiveRequest {
  abort?: (err?: Error) => void;
  /** Why the transport cut the request (timeout, drop), once it has. */
  reason?: Error;
}

/** Paths of Chroma's record-writing endpoints (v2 API: add, upsert, update, delete). */
export const WRITE_PATH = /\/collections\/[^/]+\/(add|upsert|update|delete)(\?|$)/;

/**
 * The HTTP transport of one Chroma store: an undici `Dispatcher` passed to chromadb's client as
 * `fetchOptions.dispatcher`. Why: chromadb 3.5's `ChromaClient` takes one `fetchOptions`
 * (RequestInit) for its whole life and no per-call options, so an `AbortSignal` there would be a
 * single signal for every request; but the `Request` it builds keeps the `dispatcher` of its init
 * (undici), so a dispatcher sees every request of the client and can end each one on its own.
 * It wraps an own undici `Agent` (connection pool, `connect.timeout` = `connectMs`) and
 * - ends a request that has not completed within `requestMs` (`abort` from undici's
 *   `onConnect`, which destroys its socket); the caller's fetch then rejects;
 * - lists the requests in flight (`live`), and marks when a request has been fully written;
 * - `cut(reason, filter)`: destroys the connections carrying matching requests in flight.
 * `failureOf` tells why the transport cut a request (the chromadb client replaces a fetch
 * failure by a bare "Failed to connect to Chroma"), so the adapter's errors can say it.
 */
export class ChromaTransport {
  private readonly agent: Agent;
  private readonly inFlight = new Set<Live>();
  private readonly recent: Array<{ at: number; message: string }> = [];
  closed = false;

  constructor(readonly timeouts: ChromaTimeouts = {}) {
    for (const [field, v] of Object.entries(timeouts)) {
      if (v !== undefined && !(Number.isInteger(v) && v > 0)) throw new MemoryMatrixError('INVALID_INPUT', `chroma: timeouts.${field} must be a positive integer of milliseconds, got ${String(v)}`);
    }
    this.agent = new Agent(timeouts.connectMs ? { connect: { timeout: timeouts.connectMs } } : {});
  }

  /** Requests dispatched and not yet answered completely (copies). */
  live(): LiveRequest[] {
    return [...this.inFlight].map(({ method, path, startedAt, sent }) => ({ method, path, startedAt, sent }));
  }

  /** Destroy the connections of the requests in flight that match `filter` (all by default); resolves with how many were cut. */
  cut(reason: string, filter: (r: LiveRequest) => boolean = () => true): number {
    let n = 0;
    for (const r of this.inFlight) {
      if (!filter(r) || r.reason) continue;
      this.fail(r, new Error(`${reason}: ${r.method} ${r.path}`));
      n++;
    }
    return n;
  }

  /** The reason the transport cut a request since `since` (Date.now()), or undefined. */
  failureOf(since: number): string | undefined {
    return this.recent.filter((f) => f.at >= since).map((f) => f.message)[0];
  }

  /** undici `Dispatcher.dispatch`, called by fetch for every request of the client. */
  dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers): boolean {
    const r: Live = { method: String(opts.method), path: opts.path, startedAt: Date.now(), sent: false };
    this.inFlight.add(r);
    const timer = this.timeouts.requestMs
      ? setTimeout(() => this.fail(r, new Error(`client request timeout: no complete answer within ${this.timeouts.requestMs} ms to ${r.method} ${r.path}`)), this.timeouts.requestMs)
      : undefined;
    timer?.unref();
    const done = () => {
      clearTimeout(timer);
      this.inFlight.delete(r);
    };
    const h = handler as Dispatcher.DispatchHandlers & { onRequestSent?(): void; onResponseStarted?(): void };
    const wrapped: Dispatcher.DispatchHandlers & { onRequestSent?(): void } = {
      onConnect: (abort) => {
        r.abort = abort;
        if (r.reason) abort(r.reason);
        return h.onConnect?.(abort);
      },
      onError: (err) => {
        done();
        return h.onError?.(r.reason ?? err);
      },
      onUpgrade: (status, headers, socket) => h.onUpgrade?.(status, headers, socket),
      onResponseStarted: () => h.onResponseStarted?.(),
      onHeaders: (status, headers, resume, text) => h.onHeaders?.(status, headers, resume, text) ?? true,
      onData: (chunk) => h.onData?.(chunk) ?? true,
      onComplete: (trailers) => {
        done();
        return h.onComplete?.(trailers);
      },
      onBodySent: (size, total) => h.onBodySent?.(size, total),
      onRequestSent: () => {
        r.sent = true;
        return h.onRequestSent?.();
      },
    };
    return this.agent.dispatch(opts, wrapped);
  }

  /** Close the pool (idle sockets at once; requests in flight are destroyed). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.agent.destroy().catch(() => undefined);
  }

  private fail(r: Live, err: Error): void {
    if (r.reason) return;
    r.reason = err;
    this.recent.push({ at: Date.now(), message: err.message });
    if (this.recent.length > 20) this.recent.shift();
    r.abort?.(err); // before onConnect: aborted there as soon as a socket is assigned
  }
}
