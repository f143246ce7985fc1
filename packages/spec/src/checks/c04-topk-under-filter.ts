import type { Failure } from '../comparator';
import type { ScanMode } from '../conformance/cell';
import type { Figure, FigureTable } from '../conformance/result';
import { selectivitySweep } from './c04-sweep';
import { type CheckDefinition, needs } from './check';

/** Selectivity buckets (fraction of rows matching the filter), the sweep of C04 (0.1 % to 50 %). */
export const SELECTIVITY_BUCKETS: ReadonlyArray<{ label: string; max: number }> = [
  { label: '0.1%', max: 0.005 },
  { label: '1%', max: 0.05 },
  { label: '10%', max: 0.2 },
  { label: '50%', max: 1 },
];

/** The bucket label of a selectivity in [0, 1]. */
export function selectivityBucket(fraction: number): string {
  return (SELECTIVITY_BUCKETS.find((b) => fraction <= b.max) ?? SELECTIVITY_BUCKETS[SELECTIVITY_BUCKETS.length - 1]).label;
}

/**
 * C04 topk-under-filter: every filtered golden query returns exactly min(k, M) rows (M = rows
 * matching the filter, from the oracle), all matching the filter — on the exact path and on the
 * ANN index path (where post-filtering ANN indexes return short results unless the backend
 * compensates, e.g. with iterative index scans), plus the selectivity × k sweep of
 * c04-sweep.ts against the live oracle. The exact path must have no shortfall; the index path may
 * miss at most the target's declared `annShortfallMax` fraction of rows per bucket / sweep point.
 * Figures per selectivity bucket:
 * count shortfall (Σ (min(k,M) − returned)) and mean recall@k on each path.
 */
export const c04TopkUnderFilter: CheckDefinition = {
  id: 'C04',
  name: 'topk-under-filter',
  fixtures: ['golden', 'exact-replay', 'index-replay'],
  requires: needs('vectors', 'filterNamespace'),
  async run(cell) {
    const modes: ScanMode[] = cell.scanModes();
    const total = cell.dataset.memories.length;
    const figures: Record<string, Figure> = {};
    const failures: Failure[] = [];
    const tables: FigureTable[] = [];
    const notes = [
      'golden filtered queries per selectivity bucket, plus a sweep of namespace filters (0.1 %, 1 %, 10 %, 50 %) × k ∈ {1, 10, 50} (5 vectors each) and k ∈ {100, 500, 1000} (1 vector each) on every scan path',
    ];
    let filtered = 0;
    for (const scan of modes) {
      const runs = await cell.queryRuns(scan);
      const buckets = new Map<string, { n: number; shortfall: number; expected: number; recall: number; failures: Failure[] }>();
      for (const [qid, run] of runs) {
        if (!run.query.filter) continue;
        if (scan === modes[0]) filtered++;
        const exp = cell.expectationFor(qid);
        const c = cell.compare(run, 'ann');
        const label = selectivityBucket(exp.matching / total);
        const b = buckets.get(label) ?? { n: 0, shortfall: 0, expected: 0, recall: 0, failures: [] };
        b.n++;
        b.shortfall += Math.max(0, c.expectedCount - run.hits.length);
        b.expected += c.expectedCount;
        b.recall += c.recallAtK; // recallAtK under the query's tolerance model (cell.compare)
        buckets.set(label, b);
        b.failures.push(
          ...c.failures
            .filter((f) => f.kind === 'count' || f.kind === 'filter')
            .map((f) => ({ ...f, message: `${scan} scan, selectivity ${((100 * exp.matching) / total).toFixed(2)}%: ${f.message}` })),
        );
      }
      let shortfall = 0;
      const margin = scan === 'exact' ? 0 : cell.config.tolerances.annShortfallMax;
      for (const [label, b] of buckets) {
        failures.push(...b.failures.filter((f) => f.kind === 'filter' || b.shortfall > margin * b.expected));
        figures[`${scan}.shortfall@${label}`] = b.shortfall;
        figures[`${scan}.recall@${label}`] = b.n ? b.recall / b.n : null;
        figures[`${scan}.queries@${label}`] = b.n;
        shortfall += b.shortfall;
      }
      figures[`${scan}Shortfall`] = shortfall;
      const sweep = await selectivitySweep(cell, scan);
      tables.push(sweep.table);
      failures.push(...sweep.failures);
      figures[`${scan}SweepShortfall`] = sweep.shortfall;
    }
    figures.filteredQueries = filtered;
    return { figures, failures, tables, notes };
  },
};
