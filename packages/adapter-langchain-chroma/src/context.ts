import { isMemoryMatrixError, MemoryMatrixError, type ErrorCode } from '@memory-matrix/spec';
import type { ChromaTransport } from '@memory-matrix/adapter-chroma';
import type { ChromaClient } from 'chromadb';
import type { ChromadbMajor } from './clients';

/** Adapter name (`MemoryStore.adapter`). */
export const ADAPTER = 'langchain-chroma';

/**
 * Client errors whose text says what they are, and the code they get. Nothing else is mapped:
 * every other error of the client or the server is BACKEND_ERROR with the original as `cause`.
 * - LangChain's own check of the FIRST vector against `numDimensions` ("Vectors must have the same
 *   length as the number of dimensions (384)");
 * - a batch whose vectors differ in length ("Inconsistent dimensions in provided embeddings": the
 *   chromadb 1.x client's own check; chromadb 3.x relays the server's words);
 * - Chroma's refusal of a vector of another dimension than the collection's ("Collection expecting
 *   embedding with dimension of 384, got 385", server 1.0.0 and 1.4.4).
 */
const MAPPED: Array<[RegExp, ErrorCode]> = [
  [/Vectors must have the same length as the number of dimensions/, 'DIMENSION_MISMATCH'],
  [/Inconsistent dimensions in provided embeddings/, 'DIMENSION_MISMATCH'],
  [/expecting embedding with dimension of \d+, got \d+/i, 'DIMENSION_MISMATCH'],
];

/** What a store and its collections share: the chromadb client LangChain is handed, its transport, the closed flag. */
export class StoreContext {
  closed = false;

  constructor(
    /** The chromadb client (`index` of every LangChain `Chroma` of this store; also the raw reads). */
    readonly client: ChromaClient,
    readonly major: ChromadbMajor,
    /** e.g. `http://127.0.0.1:8000` (messages). */
    readonly url: string,
    /** The client's HTTP transport (timeouts, requests in flight, connection cut); closed with the store. */
    readonly transport: ChromaTransport,
  ) {}

  /**
   * Run one client call: errors become `MemoryMatrixError` (MAPPED codes, else BACKEND_ERROR naming
   * the operation and collection, with the original as `cause`; a request the transport cut names
   * the cut). BACKEND_ERROR after `close()`.
   */
  async run<T>(op: string, coll: string | undefined, fn: () => Promise<T>): Promise<T> {
    const at = `${ADAPTER}: ${op}${coll ? ` on collection ${coll}` : ''}`;
    if (this.closed) throw new MemoryMatrixError('BACKEND_ERROR', `${at}: the store was closed`);
    const t0 = Date.now();
    try {
      return await fn();
    } catch (err) {
      if (isMemoryMatrixError(err)) throw err;
      const msg = err instanceof Error ? `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}` : String(err);
      const code = MAPPED.find(([re]) => re.test(msg))?.[1] ?? 'BACKEND_ERROR';
      const cut = code === 'BACKEND_ERROR' ? this.transport.failureOf(t0) : undefined;
      throw new MemoryMatrixError(code, `${at} failed: ${cut ? `${cut} (client: ${msg.slice(0, 200)})` : msg}`, { cause: err });
    }
  }
}
