import { chromaToCanonical } from '@memory-matrix/adapter-chroma';
import type { ScoreConversion } from '@memory-matrix/spec';

/**
 * LangChain.js `Chroma.similaritySearchVectorWithScore` → canonical score.
 *
 * What the client returns: the second element of each `[Document, number]` pair is Chroma's own
 * query `distances[0][i]`, passed through unchanged (@langchain/community 1.1.29,
 * `src/vectorstores/chroma.ts`, `similaritySearchVectorWithScore`: `results.push([new Document(…),
 * cleanDistances[i]])`; its docstring calls it "a similarity score", and its own example prints
 * `[SIM=0.000000]` for the query's exact match, i.e. a distance). So the conversion is Chroma's
 * (collection configuration "space", the hnswlib distance functions): cosine d = 1 − cos → 1 − d,
 * ip d = 1 − a·b → 1 − d, squared l2 d → −√d (the raw chroma adapter's `chromaToCanonical`).
 */
export const LANGCHAIN_CHROMA_SCORES: ScoreConversion = {
  formula: 'LangChain.js Chroma returns Chroma distances unchanged (similaritySearchVectorWithScore): cosine d → 1 − d; ip d → 1 − d; squared l2 d → −√d',
  toCanonical: chromaToCanonical,
};
