import { Embeddings } from '@langchain/core/embeddings';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { ADAPTER } from './errors';

/**
 * The `Embeddings` PGVectorStore is constructed with. The driver hands the client vectors only —
 * the golden embeddings through `addVectors` and the query vectors through
 * `similaritySearchVectorWithScore` — so no model is loaded and nothing is ever embedded; a call
 * that would embed text (`addDocuments`, `similaritySearch` with a string) rejects with
 * INVALID_INPUT rather than inventing vectors.
 */
export class PrecomputedEmbeddings extends Embeddings {
  constructor() {
    super({});
  }

  embedDocuments(texts: string[]): Promise<number[][]> {
    return Promise.reject(new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: asked to embed ${texts.length} texts; this store takes precomputed vectors only (addVectors)`));
  }

  embedQuery(): Promise<number[]> {
    return Promise.reject(new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: asked to embed a query; this store takes precomputed query vectors only (similaritySearchVectorWithScore)`));
  }
}
