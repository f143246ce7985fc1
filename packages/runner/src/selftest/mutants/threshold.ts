import { needsCaps, type Mutant } from './proxy';

/**
 * `minScore` exclusive. Public bug kind: "a memory with exactly the threshold score is not
 * returned" — `score > threshold` where the contract says `≥` (C09), e.g. `WHERE 1 - (e <=> q) > $t`.
 * Hits whose canonical score equals `minScore` exactly are removed; nothing else changes.
 */
export const minScoreExclusive: Mutant = {
  name: 'min-score-exclusive',
  family: 'threshold',
  bug: 'recall with minScore drops the hits whose score equals minScore (> instead of ≥)',
  requires: needsCaps('vectors', 'threshold'),
  fault: () => ({
    collection: (inner) => ({
      recall: async (q) => {
        const hits = await inner.recall(q);
        const t = q.minScore;
        return t === undefined ? hits : hits.filter((h) => h.score > t);
      },
    }),
  }),
};

export const THRESHOLD_MUTANTS: readonly Mutant[] = [minScoreExclusive];
