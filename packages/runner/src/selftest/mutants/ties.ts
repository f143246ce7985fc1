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

/**
 * `hits` with every run of exactly equal scores ordered by `seq` (the order the ids were first
 * written; ids never written last, by id), the rest of the order kept.
 */
export function insertionOrderTies(hits: readonly RecallHit[], seq: ReadonlyMap<string, number>): RecallHit[] {
  const key = (h: RecallHit): number => seq.get(h.id) ?? Number.MAX_SAFE_INTEGER;
  const out: RecallHit[] = [];
  for (let i = 0; i < hits.length;) {
    let j = i + 1;
    while (j < hits.length && hits[j]!.score === hits[i]!.score) j++;
    out.push(...hits.slice(i, j).sort((a, b) => key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    i = j;
  }
  return out;
}

/**
 * Ties by insertion order. Public bug kind: "an adapter orders equal distances by rowid / insertion
 * order (`ORDER BY distance, rowid`) instead of by id" — invisible when the memories were written in
 * id order, which is why the cell loads the golden set in a seeded shuffled order (spec
 * load-order.ts). Here: each run of hits with exactly equal scores is ordered by when each id was
 * first upserted into that collection (per collection name, over every client of the run).
 */
export const tiesByInsertion: Mutant = {
  name: 'ties-by-insertion',
  family: 'ties',
  bug: 'hits with equal scores come back in insertion order instead of ascending id',
  requires: needsCaps('vectors'),
  fault: () => {
    const written = new Map<string, Map<string, number>>(); // collection name → id → first write
    return {
      collection: (inner) => ({
        upsert: async (records) => {
          await inner.upsert(records);
          const seq = written.get(inner.spec.name) ?? new Map<string, number>();
          written.set(inner.spec.name, seq);
          for (const r of records) if (!seq.has(r.id)) seq.set(r.id, seq.size);
        },
        recall: async (q) => insertionOrderTies(await inner.recall(q), written.get(inner.spec.name) ?? new Map()),
      }),
    };
  },
};

export const TIE_MUTANTS: readonly Mutant[] = [tiesReversed, tiesByInsertion];
