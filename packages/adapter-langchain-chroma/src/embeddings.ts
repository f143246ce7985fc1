import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * The `embeddings` LangChain's `Chroma` must be constructed with. memory-matrix always hands the
 * client precomputed golden vectors (`addVectors`, `similaritySearchVectorWithScore`), so no model
 * is loaded; a call here would mean the client tried to embed text itself, which is an error
 * (INVALID_INPUT naming the call), never a silent vector.
 */
export const PRECOMPUTED_ONLY: EmbeddingsInterface = {
  embedDocuments: async (texts: string[]) => {
    throw new MemoryMatrixError('INVALID_INPUT', `langchain-chroma: the client asked to embed ${texts.length} text(s); memory-matrix passes precomputed vectors only`);
  },
  embedQuery: async () => {
    throw new MemoryMatrixError('INVALID_INPUT', 'langchain-chroma: the client asked to embed a query text; memory-matrix passes precomputed vectors only');
  },
};
