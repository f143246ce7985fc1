import type { Failure } from '../comparator';
import { summarize } from '../stats';
import { type CheckDefinition, needs } from './check';

/**
 * C03 topk-exact: with an exact scan, every golden query's top-k equals the recorded oracle
 * expectation tie group by tie group, scores within `scoreTolerance` (comparator.ts, exact mode).
 */
export const c03TopkExact: CheckDefinition = {
  id: 'C03',
  name: 'topk-exact',
  fixtures: ['golden', 'exact-replay'],
  requires: needs('vectors', 'exactScan'),
  async run(cell) {
    const runs = await cell.queryRuns('exact');
    const replay = cell.judge('C03', 'exact', 'exact', runs);
    const failures: Failure[] = [];
    const recalls: number[] = [];
    const deltas: number[] = [];
    const taus: number[] = [];
    let firstDiff: number | null = null;
    for (const { comparison: c } of replay.queries) {
      recalls.push(c.recallAtK);
      deltas.push(c.maxAbsScoreDelta);
      if (c.kendallTau !== null) taus.push(c.kendallTau);
      if (c.firstDifferingRank !== null && (firstDiff === null || c.firstDifferingRank < firstDiff)) firstDiff = c.firstDifferingRank;
      failures.push(...c.failures);
    }
    const r = summarize(recalls);
    return {
      figures: {
        queries: runs.size,
        recallAtKMean: r.mean,
        recallAtKMin: r.min,
        maxAbsScoreDelta: Math.max(0, ...deltas),
        kendallTauMin: taus.length ? Math.min(...taus) : null,
        firstDifferingRank: firstDiff,
        failedQueries: new Set(failures.map((f) => f.queryId)).size,
      },
      failures,
      replay,
    };
  },
};
