import { MemoryMatrixError, type RecallHit, type ScanMode } from '@memory-matrix/spec';
import type { Baseline, BaselineRun, DiffCell, DiffReport } from './model';
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

const hitsOf = (q: BaselineRun['queries'][number]): RecallHit[] => q.ids.map((id, i) => ({ id, score: q.scores[i]! }));

/**
 * Diff two baselines of one dataset, one cell per scan path both recorded (index, then exact);
 * a path recorded on one side only goes to `notCompared` with the reason. Per query `diffQuery`,
 * per cell `judgeCell` under `thresholds`, with the larger tieEpsilon and scoreTolerance of the two
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
    const j = judgeCell(diffs, thresholds, scoreTolerance, clusters);
    cells.push({
      scan,
      baselineIndex: ra.index,
      candidateIndex: rb.index,
      verdict: j.verdict,
      reasons: j.reasons,
      notes: j.notes,
      figures: { ...j.figures, baselineOracleRecallMean: ra.oracleRecall.mean, candidateOracleRecallMean: rb.oracleRecall.mean },
      scoreTolerance,
      tieEpsilon,
      worst: j.worst.map((q) => ({
        query: q.query,
        k: q.k,
        overlap: q.overlap,
        missing: q.missing,
        added: q.added,
        maxRankShift: q.maxRankShift,
        maxAbsScoreDelta: q.maxAbsScoreDelta,
        failures: q.failures,
        rankChanges: q.rankChanges,
      })),
      queries: diffs.map((q) => ({
        query: q.query,
        k: q.k,
        overlap: q.overlap,
        tieSwaps: q.tieSwaps,
        missing: q.missing,
        added: q.added,
        rankChanges: q.rankChanges,
        scoreDeltaIds: q.scoreDeltas.ids,
        scoreDeltas: q.scoreDeltas.deltas,
        kendallTau: q.kendallTau,
      })),
    });
  }
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
