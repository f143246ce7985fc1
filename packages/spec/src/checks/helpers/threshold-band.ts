import type { ExactOracle } from '../../oracle';
import type { GoldenQuery } from '../../golden/types';
import type { RecallFilter } from '../../types';

/** The counts a threshold query may return: `lo` … `hi`, and the largest row tolerance used (`widest`). */
export interface ThresholdBand {
  lo: number;
  hi: number;
  widest: number;
}

/**
 * The counts a correct backend may return for a threshold query (`vector`: `Float32Array` of
 * length `dim`, `k`, optional `filter`, `minScore`): a row whose oracle score lies within ITS
 * score tolerance of `minScore` (tolerance.ts: `scoreTolerance`, the target's figure at unit
 * magnitude, scaled by dimension and the two norms) may fall either side of it (C09's rule:
 * float32 storage, int8 quantization). lo = min(k, rows ≥ minScore + tol(row)), hi = min(k, rows
 * ≥ minScore − tol(row)), over the rows passing `filter`. Throws as `ExactOracle.topK`.
 */
export function thresholdBand(oracle: ExactOracle, q: { vector: Float32Array; k: number; filter?: RecallFilter; minScore: number }, scoreTolerance: number): ThresholdBand {
  const all = oracle.topK({ vector: q.vector, k: oracle.size, filter: q.filter }, 0).hits;
  const tols = oracle.tolerancesFor(q.vector, { scoreTolerance, tieEpsilon: 0 });
  let lo = 0;
  let hi = 0;
  let widest = 0;
  for (const h of all) {
    const tol = tols.score(h.id);
    if (h.score >= q.minScore + tol) lo++;
    if (h.score >= q.minScore - tol) hi++;
    if (Math.abs(h.score - q.minScore) <= tol) widest = Math.max(widest, tol);
  }
  return { lo: Math.min(q.k, lo), hi: Math.min(q.k, hi), widest };
}

/**
 * Whether `returned` results for threshold query `q` are a count the target's `scoreTolerance`
 * allows: memories whose oracle score lies within their tolerance of `minScore` (the tolerance
 * model, tolerance.ts) may fall either side of it (C09's rule: float32 storage, int8
 * quantization), so the count may be anything from min(k, rows ≥ minScore + tol) to min(k, rows
 * ≥ minScore − tol) (`thresholdBand`). False for a query without `minScore` (its count is exact). Pure.
 */
export function withinThresholdBand(oracle: ExactOracle, q: GoldenQuery, returned: number, scoreTolerance: number): boolean {
  if (q.minScore === undefined) return false;
  const { lo, hi } = thresholdBand(oracle, { vector: q.vector, k: q.k, filter: q.filter, minScore: q.minScore }, scoreTolerance);
  return returned >= lo && returned <= hi;
}
