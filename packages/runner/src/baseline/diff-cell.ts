import type { RecallHit } from '@memory-matrix/spec';
import type { BaselineRun, DiffCell, DiffScan } from './model';
import type { QueryDiff } from './query-diff';
import type { CellJudgement } from './verdict';

/** A recorded query's hits (ids with their canonical scores, best first). */
export const hitsOf = (q: BaselineRun['queries'][number]): RecallHit[] => q.ids.map((id, i) => ({ id, score: q.scores[i]! }));

/** A diff cell from its path's runs, per-query diffs and judgement. */
export function diffCell(scan: DiffScan, ra: BaselineRun, rb: BaselineRun, diffs: QueryDiff[], j: CellJudgement, tol: { scoreTolerance: number; tieEpsilon: number }): DiffCell {
  return {
    scan,
    baselineIndex: ra.index,
    candidateIndex: rb.index,
    verdict: j.verdict,
    reasons: j.reasons,
    notes: j.notes,
    figures: { ...j.figures, baselineOracleRecallMean: ra.oracleRecall.mean, candidateOracleRecallMean: rb.oracleRecall.mean },
    scoreTolerance: tol.scoreTolerance,
    tieEpsilon: tol.tieEpsilon,
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
  };
}
