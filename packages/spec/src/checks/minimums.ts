import { C11_MIN_MEMORIES } from './c11-dimension-guard';
import { C12_MIN_MEMORIES } from './c12-degenerate-vectors';
import { C13_MIN_MEMORIES } from './c13-numeric-range';
import { C21_MIN_MEMORIES } from './c21-idempotent-upsert';
import { C22_MIN_MEMORIES } from './c22-upsert';
import { C23_MIN_MEMORIES } from './c23-fault-surfaced';
import { C25_MIN_MEMORIES } from './c25-isolation';
import { C27_MIN_MEMORIES } from './c27-rounds';
import { C29_MIN_MEMORIES } from './c29-backend-errors';

/**
 * The fewest memories each check can run on (below it the check throws INVALID_INPUT naming the
 * dataset, its size and the need). Checks not listed scale to any non-empty dataset (they sample
 * min(n, wanted) distinct memories).
 */
export const CHECK_MIN_MEMORIES: Readonly<Record<string, number>> = {
  C11: C11_MIN_MEMORIES,
  C12: C12_MIN_MEMORIES,
  C13: C13_MIN_MEMORIES,
  C21: C21_MIN_MEMORIES,
  C22: C22_MIN_MEMORIES,
  C23: C23_MIN_MEMORIES,
  C25: C25_MIN_MEMORIES,
  C27: C27_MIN_MEMORIES,
  C29: C29_MIN_MEMORIES,
};

/** The smallest dataset (memories) every check can run on, and the check that sets it. */
export const MIN_DATASET_MEMORIES: { count: number; check: string } = Object.entries(CHECK_MIN_MEMORIES).reduce((best, [check, count]) => (count > best.count ? { count, check } : best), {
  count: 1,
  check: '-',
});

/**
 * The fewest queries a dataset needs: C04's selectivity sweep replays 5 unfiltered held-out query
 * vectors per point (QUERIES_PER_POINT in c04-sweep.ts), and the sampler makes every second held-out
 * query a namespace-filter query, so 10 queries give it 5. With fewer, C04/C05/C09 average over a
 * handful of queries and one ANN miss moves a mean by tenths.
 */
export const MIN_DATASET_QUERIES: { count: number; check: string } = { count: 10, check: 'C04' };
