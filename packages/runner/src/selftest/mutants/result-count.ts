import { needsCaps, type Mutant } from './proxy';

/** The largest k a recall may ask for (spec types.ts `RecallQuery.k`: 1..1000). */
const MAX_K = 1000;

/**
 * Off-by-one result counts. Public bug kinds: "recall returns k − 1 results" (a `LIMIT k - 1`,
 * a `range(1, k)`, the query's own row dropped as "self" when it is not in the store) and "recall
 * returns k + 1 results" (`LIMIT k + 1` kept from a has-more probe, an inclusive slice).
 */
export const kMinusOne: Mutant = {
  name: 'k-minus-one',
  family: 'result-count',
  bug: 'recall returns at most k − 1 hits',
  requires: needsCaps('vectors'),
  fault: () => ({ collection: (inner) => ({ recall: async (q) => (await inner.recall(q)).slice(0, Math.max(0, q.k - 1)) }) }),
};

/** k + 1: the store is asked for one more and all of them are returned (k = 1000, the maximum, is left alone). */
export const kPlusOne: Mutant = {
  name: 'k-plus-one',
  family: 'result-count',
  bug: 'recall returns up to k + 1 hits',
  requires: needsCaps('vectors'),
  fault: () => ({ collection: (inner) => ({ recall: (q) => inner.recall(q.k < MAX_K ? { ...q, k: q.k + 1 } : q) }) }),
};

export const RESULT_COUNT_MUTANTS: readonly Mutant[] = [kMinusOne, kPlusOne];
