import { MemoryMatrixError, isMemoryMatrixError } from '@memory-matrix/spec';
import type { ChromaClient } from 'chromadb';
import type { ChromaTransport } from './transport';

/** Adapter name (`MemoryStore.adapter`). */
export const ADAPTER = 'chroma';

/** Error-class names of the chromadb client (compared by name: jest may load two module copies). */
export function chromaErrorName(err: unknown): string {
  return typeof err === 'object' && err !== null ? String((err as { name?: unknown }).name ?? '') : '';
}

/**
 * `BACKEND_ERROR` for a failed client call: `chroma: <op> on collection <coll> failed: <message>`
 * with the client's error as `cause`. A `MemoryMatrixError` passes through unchanged.
 */
export function wrapBackendError(err: unknown, op: string, coll?: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const name = chromaErrorName(err);
  const msg = err instanceof Error ? err.message : String(err);
  return new MemoryMatrixError('BACKEND_ERROR', `chroma: ${op}${coll ? ` on collection ${coll}` : ''} failed: ${name ? `${name}: ` : ''}${msg}`, { cause: err });
}

/** What a store and its collections share: the client, the server's max batch, the closed flag. */
export class StoreContext {
  closed = false;

  constructor(
    readonly client: ChromaClient,
    /** Records per write request, from the server (`GET /api/v2/pre-flight-checks` → max_batch_size). */
    readonly maxBatch: number,
    /** e.g. `127.0.0.1:8000` (messages). */
    readonly where: string,
    /** The client's HTTP transport (timeouts, requests in flight); closed with the store. */
    readonly transport?: ChromaTransport,
  ) {}

  /**
   * Runs `fn`, wrapping client errors as BACKEND_ERROR; throws BACKEND_ERROR after `close()`.
   * When the transport cut one of the call's requests (client request timeout, connection cut),
   * the message says so (the chromadb client reports any fetch failure as "Failed to connect").
   */
  async run<T>(op: string, coll: string | undefined, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new MemoryMatrixError('BACKEND_ERROR', `chroma: ${op}${coll ? ` on collection ${coll}` : ''}: the store was closed`);
    const t0 = Date.now();
    try {
      return await fn();
    } catch (err) {
      const e = wrapBackendError(err, op, coll);
      const why = e.code === 'BACKEND_ERROR' ? this.transport?.failureOf(t0) : undefined;
      if (!why) throw e;
      // The cut is the cause; the chromadb client's own text ("Failed to connect to chromadb. Make sure …") says nothing more.
      throw new MemoryMatrixError('BACKEND_ERROR', `chroma: ${op}${coll ? ` on collection ${coll}` : ''} failed: ${why} (chromadb client: ${chromaErrorName(err) || 'error'})`, { cause: err });
    }
  }
}
