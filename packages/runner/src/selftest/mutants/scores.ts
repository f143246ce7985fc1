import type { RecallHit } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/**
 * Score-scale regressions: the adapter hands back the backend's native number, or a rescaled
 * similarity, where the contract promises the canonical score (spec scores.ts). Public bug kind:
 * "relevance scores are distances after the client upgrade" (pgvector `<=>` is a distance, Chroma
 * returns distances, LangChain's `similaritySearchWithScore` changed between distance and
 * similarity), and "scores are in [0, 1] now" ((1 + cos) / 2 normalisation, e.g. a relevance
 * score function applied twice). Only the scores change; ids and order stay the backend's.
 */
function rescaled(name: string, bug: string, f: (s: number) => number): Mutant {
  return {
    name,
    family: 'scores',
    bug,
    requires: needsCaps('vectors'),
    fault: () => ({
      collection: (inner) => ({
        recall: async (q) => (await inner.recall(q)).map((h: RecallHit) => ({ id: h.id, score: f(h.score) })),
      }),
    }),
  };
}

/** Score flipped to distance: `1 − s` (cosine distance where the similarity is promised). */
export const scoreAsDistance = rescaled('score-as-distance', 'recall returns the distance 1 − s instead of the similarity s', (s) => 1 - s);

/** Another scale: `(1 + s) / 2`, a similarity squeezed into [0, 1]. */
export const scoreHalfScale = rescaled('score-half-scale', 'recall returns (1 + s) / 2 instead of the canonical score s', (s) => (1 + s) / 2);

export const SCORE_MUTANTS: readonly Mutant[] = [scoreAsDistance, scoreHalfScale];
