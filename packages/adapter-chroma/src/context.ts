import { MemoryMatrixError } from '@memory-matrix/spec';
import type { ChromaClient } from 'chromadb';

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
  if (err instanceof MemoryMatrixError || (typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' && (err as Error).name === 'MemoryMatrixError')) {
    return err as MemoryMatrixError;
  }
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
  ) {}

  /** Runs `fn`, wrapping client errors as BACKEND_ERROR; throws BACKEND_ERROR after `close()`. */
  async run<T>(op: string, coll: string | undefined, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new MemoryMatrixError('BACKEND_ERROR', `chroma: ${op}${coll ? ` on collection ${coll}` : ''}: the store was closed`);
    try {
      return await fn();
    } catch (err) {
      throw wrapBackendError(err, op, coll);
    }
  }
}
