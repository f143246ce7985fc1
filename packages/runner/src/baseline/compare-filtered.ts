import type { ScanMode } from '@memory-matrix/spec';
import { diffCell, hitsOf } from './diff-cell';
import type { Baseline, DiffCell, DiffReport } from './model';
import { diffQuery } from './query-diff';
import { judgeCell, type DiffThresholds } from './verdict';

/**
 * The thresholds of a `filtered exact` cell: the profile's, with ids required identical under ties
 * (`minOverlap` and `minMeanOverlap` 1, `maxRankShift` 0): an exact filtered top-k has one right
 * answer (C31's tie rule), so any other id or rank outside its tie group is a FAIL; scores keep the
 * profile's `maxScoreDelta`.
 */
export function exactFilteredThresholds(t: DiffThresholds): DiffThresholds {
  return { ...t, minOverlap: 1, minMeanOverlap: 1, maxRankShift: 0 };
}

/** The case names of `<case>/<query>` keys, distinct, in order. */
const casesOf = (keys: string[]): string[] => [...new Set(keys.map((k) => k.slice(0, k.lastIndexOf('/'))))];

/**
 * Diff the golden filter set's results of two baselines (`Baseline.filtered`, filtered.ts), one
 * cell per scan path both recorded: `filtered index` (judged under `thresholds`, as the unfiltered
 * index path) and `filtered exact` (`exactFilteredThresholds`: identical ids under ties). Each
 * `<case>/<query>` result recorded on both sides is one query of the cell; a case run on one side
 * only (unsupported on the other: its operators or shapes) is a note naming it, not a failure. Not
 * compared, with the reason (`notCompared`, path `filtered`): a side recorded without filtered
 * results (an older recording, or a dataset without a filter set), filter sets that differ
 * (derivation, k, queries), a path one side lacks, no case run on both. `tol`: the larger
 * tolerances of the two targets (compare.ts). Pure; never throws.
 */
export function compareFiltered(a: Baseline, b: Baseline, thresholds: DiffThresholds, tol: { scoreTolerance: number; tieEpsilon: number }): Pick<DiffReport, 'cells' | 'notCompared'> {
  const cells: DiffCell[] = [];
  const notCompared: DiffReport['notCompared'] = [];
  const fa = a.filtered;
  const fb = b.filtered;
  if (!fa || !fb) {
    const who = [!fa ? `baseline ${a.target}` : null, !fb ? `candidate ${b.target}` : null].filter(Boolean).join(' and ');
    notCompared.push({
      scan: 'filtered',
      reason: `${who} ${!fa && !fb ? 'were' : 'was'} recorded without the golden filter set's results (a recording made before record kept them, or a dataset without a filter set): filtered queries not compared; record again to compare them`,
    });
    return { cells, notCompared };
  }
  const sa = fa.set;
  const sb = fb.set;
  if (sa.derivation !== sb.derivation || sa.k !== sb.k || sa.queries.join(',') !== sb.queries.join(',')) {
    notCompared.push({
      scan: 'filtered',
      reason: `the filter sets differ (baseline ${a.target}: ${sa.derivation}, k ${sa.k}, queries ${sa.queries.join(' ')}; candidate ${b.target}: ${sb.derivation}, k ${sb.k}, queries ${sb.queries.join(' ')}): record both with the same golden data`,
    });
    return { cells, notCompared };
  }
  for (const scan of ['index', 'exact'] as ScanMode[]) {
    const ra = fa.runs[scan];
    const rb = fb.runs[scan];
    if (!ra && !rb) continue;
    if (!ra || !rb) {
      const side = !ra ? `baseline ${a.target}` : `candidate ${b.target}`;
      notCompared.push({ scan: `filtered ${scan}`, reason: `${side} has no filtered ${scan}-path results (no such path on that target, or no case it can push down)` });
      continue;
    }
    const byId = new Map(rb.queries.map((q) => [q.query, q]));
    const inA = new Set(ra.queries.map((q) => q.query));
    const common = ra.queries.filter((q) => byId.has(q.query) && byId.get(q.query)!.k === q.k);
    const onlyA = casesOf(ra.queries.filter((q) => !byId.has(q.query)).map((q) => q.query));
    const onlyB = casesOf(rb.queries.filter((q) => !inA.has(q.query)).map((q) => q.query));
    if (!common.length) {
      notCompared.push({
        scan: `filtered ${scan}`,
        reason: `no filter case was run on both targets (baseline ${a.target} ${casesOf([...inA]).length} cases, candidate ${b.target} ${casesOf([...byId.keys()]).length})`,
      });
      continue;
    }
    const diffs = common.map((qa) => diffQuery(qa.query, qa.k, hitsOf(qa), hitsOf(byId.get(qa.query)!), tol.tieEpsilon));
    const j = judgeCell(diffs, scan === 'exact' ? exactFilteredThresholds(thresholds) : thresholds, tol.scoreTolerance);
    const oneSide = (label: string, cases: string[]) => (cases.length ? `${label}: ${cases.length} (${cases.slice(0, 8).join(', ')}${cases.length > 8 ? ', …' : ''})` : null);
    const only = [oneSide(`only baseline ${a.target}`, onlyA), oneSide(`only candidate ${b.target}`, onlyB)].filter(Boolean);
    if (only.length) j.notes.push(`filter cases run on one side only (unsupported on the other: see each baseline's filtered.unsupported), not compared — ${only.join('; ')}`);
    cells.push(diffCell(`filtered ${scan}`, ra, rb, diffs, j, tol));
  }
  return { cells, notCompared };
}
