import type { RecallHit } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/** `hits` with every run of exactly equal scores reversed in place (the rest of the order kept). */
export function reverseTies(hits: readonly RecallHit[]): RecallHit[] {
  const out: RecallHit[] = [];
  for (let i = 0; i < hits.length;) {
    let j = i + 1;
    while (j < hits.length && hits[j]!.score === hits[i]!.score) j++;
    out.push(...hits.slice(i, j).reverse());
    i = j;
  }
  return out;
}

/**
 * Ties reversed. Public bug kind: "results with equal scores come back in a different order on
 * every run / after the upgrade" — the contract breaks ties by id ascending (C07); an adapter
 * that drops its `ORDER BY score, id` tiebreaker, or sorts by descending id, returns tie groups in
 * another order. Here: each run of hits with exactly equal scores is reversed.
 */
export const tiesReversed: Mutant = {
  name: 'ties-reversed',
  family: 'ties',
  bug: 'hits with equal scores come back in descending id order instead of ascending',
  requires: needsCaps('vectors'),
  fault: () => ({ collection: (inner) => ({ recall: async (q) => reverseTies(await inner.recall(q)) }) }),
};

export const TIE_MUTANTS: readonly Mutant[] = [tiesReversed];
