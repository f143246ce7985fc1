import { MemoryMatrixError } from '@memory-matrix/spec';
import { ADAPTER } from './errors';

/**
 * The embedder mem0 is configured with (`embedder: { provider: 'langchain', config: { model } }`,
 * mem0ai `LangchainEmbedder`: any object with `embedQuery(text)` and `embedDocuments(texts)`):
 * it loads no model and returns the vector the driver handed it for the ONE text the next mem0
 * call embeds (`expect(text, vector)`): the memory's text in `add` (mem0 `createMemory` embeds
 * `data`), the query text in `search`. A text other than the expected one — mem0 embedding
 * something the driver did not foresee — rejects (BACKEND_ERROR naming the text) rather than
 * inventing a vector. Calls on one embedder must be serialised by the caller (collection.ts does).
 */
export class HandedEmbeddings {
  private next: { text: string; vector: number[] } | null = null;

  /** The vector (`Float32Array` of length dim, copied as numbers) to return for `text` on the next embedding. */
  expect(text: string, vector: Float32Array): void {
    this.next = { text, vector: Array.from(vector) };
  }

  /** LangChain Embeddings `embedQuery`: the handed vector when `text` is the expected text. */
  async embedQuery(text: string): Promise<number[]> {
    const n = this.next;
    if (n === null || n.text !== text) {
      throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: mem0 asked to embed ${JSON.stringify(text.slice(0, 80))}, which the driver did not hand it a vector for`);
    }
    return n.vector;
  }

  /** LangChain Embeddings `embedDocuments`: `embedQuery` of each text. */
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return Promise.all(texts.map((t) => this.embedQuery(t)));
  }
}
