import { Embeddings } from '@langchain/core/embeddings';
import { MemoryMatrixError, type MemoryRecord } from '@memory-matrix/spec';

/**
 * A LangChain.js `Embeddings` that runs no model: `embedDocuments(texts)` returns the golden
 * vectors of `records` (as number[]), in order, after checking that `texts` are exactly the
 * records' texts in that order (golden texts repeat, so a text → vector map would be ambiguous).
 * Throws INVALID_INPUT when the texts differ; `embedQuery` is not supported (the bench only loads).
 */
export class GoldenEmbeddings extends Embeddings {
  private readonly vectors: number[][];

  constructor(private readonly records: MemoryRecord[]) {
    super({});
    this.vectors = records.map((r) => Array.from(r.embedding));
  }

  embedDocuments(texts: string[]): Promise<number[][]> {
    if (texts.length !== this.records.length || texts.some((t, i) => t !== this.records[i]!.text)) {
      throw new MemoryMatrixError('INVALID_INPUT', `GoldenEmbeddings: asked for ${texts.length} texts that are not the ${this.records.length} golden texts in order`);
    }
    return Promise.resolve(this.vectors);
  }

  embedQuery(): Promise<number[]> {
    throw new MemoryMatrixError('INVALID_INPUT', 'GoldenEmbeddings: embedQuery is not supported (the bench only loads)');
  }
}
