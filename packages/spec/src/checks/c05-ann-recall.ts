import type { Failure } from '../comparator';
import { summarize } from '../stats';
import { type CheckDefinition, type CheckOutcome, failure } from './check';

/**
 * C05 ann-recall: with the cell's ANN index, recall@k of every golden query against the recorded
 * oracle expectation (ties at the k boundary count as hits, stats.ts) must reach the target's
 * `annRecallFloorPerQuery`, and the mean its `annRecallFloor`. Scores of returned ids must still be
 * exact within `scoreTolerance`, no id may repeat, no id may fall outside the filter.
 * Figures: mean / min / p50 recall@k, the worst query, max |Δscore|.
 */
export const c05AnnRecall: CheckDefinition = {
  id: 'C05',
  name: 'ann-recall',
  requires(caps) {
    if (!caps.vectors) return 'capability: vectors';
    if (caps.annIndexes.length === 0) return 'capability: annIndexes';
    return null;
  },
  async run(cell): Promise<CheckOutcome> {
    if (cell.config.index.type === 'none') {
      return { figures: { index: 'none' }, failures: [], notes: ['the cell builds no ANN index; every scan is exact'] };
    }
    const runs = await cell.queryRuns('index');
    const { annRecallFloor, annRecallFloorPerQuery } = cell.config.tolerances;
    const failures: Failure[] = [];
    const recalls: number[] = [];
    let worst = { id: '-', recall: 2 };
    let maxDelta = 0;
    for (const [qid, run] of runs) {
      const c = cell.compare(run, 'ann');
      recalls.push(c.recallAtK);
      maxDelta = Math.max(maxDelta, c.maxAbsScoreDelta);
      if (c.recallAtK < worst.recall) worst = { id: qid, recall: c.recallAtK };
      failures.push(...c.failures.filter((f) => ['score', 'duplicate-id', 'nan-score', 'filter'].includes(f.kind)));
      if (c.recallAtK < annRecallFloorPerQuery) {
        failures.push(
          failure(cell, 'recall', `query ${qid}: recall@${run.query.k} ${c.recallAtK.toFixed(3)} < per-query floor ${annRecallFloorPerQuery}`, {
            queryId: qid,
            expected: annRecallFloorPerQuery,
            actual: c.recallAtK,
          }),
        );
      }
    }
    const s = summarize(recalls);
    if (s.mean < annRecallFloor) {
      failures.push(failure(cell, 'recall', `mean recall@k ${s.mean.toFixed(4)} over ${recalls.length} queries < floor ${annRecallFloor}`, { expected: annRecallFloor, actual: s.mean }));
    }
    return {
      figures: {
        index: describeIndex(cell.config.index),
        queries: recalls.length,
        recallAtKMean: s.mean,
        recallAtKMin: s.min,
        recallAtKP50: s.p50,
        worstQuery: worst.id,
        floor: annRecallFloor,
        maxAbsScoreDelta: maxDelta,
      },
      failures,
    };
  },
};

/** A short label for an index config, e.g. `hnsw(m=16,efc=64,ef=100)`. */
export function describeIndex(i: import('../types').IndexConfig): string {
  switch (i.type) {
    case 'none':
      return 'none';
    case 'hnsw':
      return `hnsw(m=${i.m},efc=${i.efConstruction},ef=${i.efSearch})`;
    case 'ivfflat':
      return `ivfflat(lists=${i.lists},probes=${i.probes})`;
  }
}
