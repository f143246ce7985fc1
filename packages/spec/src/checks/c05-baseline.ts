import type { Failure } from '../comparator';
import type { LiveCell, QueryRun } from '../conformance/cell';
import { whereOf } from '../conformance/where';
import type { ReleaseBaseline } from '../conformance/types';
import { failure } from './check';

export type { ReleaseBaseline };

/** What `judgeAgainstBaseline` returns for C05's outcome. */
export interface BaselineVerdict {
  failures: Failure[];
  notes: string[];
  figures: Record<string, number | string>;
}

/**
 * Judge the cell's per-query recall@k on the index path (`perQuery`, query id → recall, as C05
 * computed it) against the release baseline's: each baseline query's recall@k is computed the same
 * way (LiveCell.compare, tie-aware, against the same oracle expectation). Queries in `exclude`
 * (duplicate clusters, reported not failed as in C05) are left out of both means and of the
 * per-query judgement. Fails (kind `baseline-regression`) every query whose recall fell by more
 * than `queryRecallDrop`, and the mean when it fell by more than `meanRecallDrop`, naming the
 * queries that fell most. A golden query the baseline lacks fails (the baseline is stale).
 */
export function judgeAgainstBaseline(cell: LiveCell, perQuery: ReadonlyMap<string, number>, b: ReleaseBaseline, exclude: ReadonlySet<string>): BaselineVerdict {
  const failures: Failure[] = [];
  const drops: Array<{ qid: string; base: number; now: number }> = [];
  const missing: string[] = [];
  let sumBase = 0;
  let sumNow = 0;
  let n = 0;
  for (const [qid, now] of perQuery) {
    if (exclude.has(qid)) continue;
    const rec = b.queries.get(qid);
    if (!rec) {
      missing.push(qid);
      continue;
    }
    const query = cell.dataset.queries.find((q) => q.id === qid)!;
    const run: QueryRun = { query, scan: 'index', hits: rec.ids.map((id, i) => ({ id, score: rec.scores[i]! })), ms: 0 };
    const base = cell.compare(run, 'ann').recallAtK;
    sumBase += base;
    sumNow += now;
    n++;
    if (now < base) drops.push({ qid, base, now });
  }
  drops.sort((x, y) => y.base - y.now - (x.base - x.now) || (x.qid < y.qid ? -1 : 1));
  const eps = 1e-9; // recall@k is a ratio of small integers: a drop exactly at the tolerance passes
  for (const d of drops) {
    if (d.base - d.now > b.queryRecallDrop + eps) {
      failures.push(
        failure(
          cell,
          'baseline-regression',
          `query ${d.qid}: recall@k ${d.now.toFixed(3)} < release baseline ${d.base.toFixed(3)} by ${(d.base - d.now).toFixed(3)} > ${b.queryRecallDrop} (${b.file})`,
          {
            queryId: d.qid,
            expected: d.base,
            actual: d.now,
            ...whereOf(
              cell.dataset.queries.find((q) => q.id === d.qid)!,
              'index',
              cell.dataset.manifest.metric,
            ),
          },
        ),
      );
    }
  }
  const meanBase = n ? sumBase / n : 1;
  const meanNow = n ? sumNow / n : 1;
  if (meanBase - meanNow > b.meanRecallDrop + eps) {
    const named = drops
      .slice(0, 10)
      .map((d) => `${d.qid} ${d.base.toFixed(2)}→${d.now.toFixed(2)}`)
      .join(', ');
    failures.push(
      failure(
        cell,
        'baseline-regression',
        `mean recall@k ${meanNow.toFixed(4)} < release baseline ${meanBase.toFixed(4)} by ${(meanBase - meanNow).toFixed(4)} > ${b.meanRecallDrop} over ${n} queries (${b.file}); ${drops.length} queries fell: ${named}${drops.length > 10 ? ', …' : ''}`,
        { expected: meanBase, actual: meanNow, scan: 'index' },
      ),
    );
  }
  if (missing.length) {
    failures.push(
      failure(
        cell,
        'baseline-regression',
        `${missing.length} golden queries have no line in the release baseline ${b.file} (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}); re-record it`,
      ),
    );
  }
  return {
    failures,
    notes: [`release baseline ${b.file} (recorded ${b.recordedAt} on ${b.serverVersion}): ${drops.length} queries below their baseline recall, ${exclude.size} duplicate-cluster queries not compared`],
    figures: { baselineFile: b.file, baselineRecallMean: meanBase, baselineRecallDrop: meanBase - meanNow, baselineQueriesBelow: drops.length },
  };
}
