import { MemoryMatrixError, type ScanMode } from '@memory-matrix/spec';
import { compareFiltered } from './compare-filtered';
import { diffCell, hitsOf } from './diff-cell';
import type { Baseline, DiffCell, DiffReport } from './model';
import { diffQuery } from './query-diff';
import { judgeCell, type DiffThresholds } from './verdict';

/**
 * The dataset both sides must share: same name and same `datasetSha256` (the fingerprint of the
 * data files). INVALID_INPUT naming both sides' dataset and sha256 otherwise.
 */
export function checkSameDataset(a: { label: string; name: string; sha256: string }, b: { label: string; name: string; sha256: string }): void {
  if (a.name === b.name && a.sha256 === b.sha256) return;
  throw new MemoryMatrixError(
    'INVALID_INPUT',
    `baseline and candidate are of different datasets: ${a.label} has ${a.name} sha256 ${a.sha256.slice(0, 12)}…, ${b.label} has ${b.name} sha256 ${b.sha256.slice(0, 12)}…; record both on the same golden data (--dataset)`,
  );
}

/**
 * Diff two baselines of one dataset, one cell per scan path both recorded (index, then exact);
 * a path recorded on one side only goes to `notCompared` with the reason. Per query `diffQuery`,
 * per cell `judgeCell` under `thresholds`, then the golden filter set's results (compare-filtered.ts), with the larger tieEpsilon and scoreTolerance of the two
 * targets (a score delta within it is float noise, not a change). `exactScanOf`: the catalog's
 * `capabilities.exactScan` of a target (undefined when not in the catalog), used to say why a path
 * is missing (`lacks`). Throws INVALID_INPUT when the
 * datasets differ or a query is recorded on one side only (naming it).
 */
export function compareBaselines(
  a: Baseline,
  b: Baseline,
  thresholds: DiffThresholds,
  exactScanOf: (target: string) => boolean | undefined = () => undefined,
): Pick<DiffReport, 'cells' | 'notCompared'> {
  checkSameDataset({ label: `baseline ${a.target}`, ...a.dataset }, { label: `candidate ${b.target}`, ...b.dataset });
  const tieEpsilon = Math.max(a.provenance.tolerances.tieEpsilon ?? 0, b.provenance.tolerances.tieEpsilon ?? 0);
  const scoreTolerance = Math.max(a.provenance.tolerances.scoreTolerance ?? 0, b.provenance.tolerances.scoreTolerance ?? 0);
  const cells: DiffCell[] = [];
  const notCompared: DiffReport['notCompared'] = [];
  for (const scan of ['index', 'exact'] as ScanMode[]) {
    const ra = a.runs[scan];
    const rb = b.runs[scan];
    if (!ra || !rb) {
      const why = [!ra ? lacks('baseline', a.target, scan, exactScanOf(a.target)) : null, !rb ? lacks('candidate', b.target, scan, exactScanOf(b.target)) : null];
      notCompared.push({ scan, reason: why.filter(Boolean).join('; ') });
      continue;
    }
    const byId = new Map(rb.queries.map((q) => [q.query, q]));
    const onlyA = ra.queries.filter((q) => !byId.has(q.query)).map((q) => q.query);
    const inA = new Set(ra.queries.map((q) => q.query));
    const onlyB = rb.queries.filter((q) => !inA.has(q.query)).map((q) => q.query);
    if (onlyA.length || onlyB.length) {
      throw new MemoryMatrixError(
        'INVALID_INPUT',
        `${scan} scan: queries recorded on one side only (baseline ${a.target}: ${onlyA.slice(0, 5).join(', ') || 'none'}; candidate ${b.target}: ${onlyB.slice(0, 5).join(', ') || 'none'})`,
      );
    }
    const diffs = ra.queries.map((qa) => {
      const qb = byId.get(qa.query)!;
      if (qa.k !== qb.k) throw new MemoryMatrixError('INVALID_INPUT', `${scan} scan, query ${qa.query}: k ${qa.k} in baseline ${a.target} but ${qb.k} in candidate ${b.target}`);
      return diffQuery(qa.query, qa.k, hitsOf(qa), hitsOf(qb), tieEpsilon);
    });
    const ann = ra.index.type !== 'none' || rb.index.type !== 'none';
    const clusters = new Set(ann ? [...(a.clusterQueries ?? []), ...(b.clusterQueries ?? [])] : []);
    cells.push(diffCell(scan, ra, rb, diffs, judgeCell(diffs, thresholds, scoreTolerance, clusters), { scoreTolerance, tieEpsilon }));
  }
  const filtered = compareFiltered(a, b, thresholds, { scoreTolerance, tieEpsilon });
  cells.push(...filtered.cells);
  notCompared.push(...filtered.notCompared);
  return { cells, notCompared };
}

/**
 * Why `side`'s baseline of `target` has no `scan` run, one clause naming the side:
 * `candidate <target> has no exact scan (capability exactScan: false)` when the target cannot
 * force one, else `the baseline file of <target> has no exact-path results (…)` — a target with
 * the capability (or one the catalog does not know) records that path, so the file lost it.
 */
export function lacks(side: 'baseline' | 'candidate', target: string, scan: ScanMode, exactScan: boolean | undefined): string {
  if (scan === 'exact' && exactScan === false) return `${side} ${target} has no exact scan (capability exactScan: false)`;
  const cap = scan === 'exact' && exactScan === true ? ` although ${target} has capability exactScan: true; record it again` : '';
  return `the ${side} file of ${target} has no ${scan}-path results${cap}`;
}

/** The run's verdict: FAIL if any cell failed, else DRIFT if any drifted, else PASS (null without cells). */
export function overallVerdict(cells: DiffCell[]): DiffReport['verdict'] {
  if (!cells.length) return null;
  return cells.some((c) => c.verdict === 'FAIL') ? 'FAIL' : cells.some((c) => c.verdict === 'DRIFT') ? 'DRIFT' : 'PASS';
}
