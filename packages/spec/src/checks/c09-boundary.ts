import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { Metric } from '../types';
import { failure } from './check';
import { basis, combine, syntheticRecord } from './helpers/synthetic';

/** One hand-made row of the boundary probe: its vector and its canonical score against the probe query e₀. */
export interface BoundaryRow {
  id: string;
  vector: Float32Array;
  /** Canonical score against e₀ (scores.ts): exact in float32 and float64 for the `onThreshold` rows, ≤ threshold − δ for the others. */
  score: number;
}

/** The boundary probe of one metric: rows, and the thresholds that some rows meet exactly. */
export interface BoundaryCase {
  metric: Metric;
  rows: BoundaryRow[];
  /** minScore values; each equals the exact score of at least one row (identical → 1 / −0, orthogonal → 0, e₀ scaled). */
  thresholds: number[];
  /** How far below a threshold the "just below" rows sit (canonical units). */
  delta: number;
}

/**
 * The gap δ between a threshold and the row just below it: the smallest power of two ≥ 2 ×
 * `scoreTolerance` and ≥ 2⁻¹⁰ (a power of two keeps the ip and l2 rows exact in float32), so a
 * quantized target (int8, tolerance 4e-3 → δ = 2⁻⁶) cannot round the row onto the threshold.
 */
export function boundaryDelta(scoreTolerance: number): number {
  let d = 2 ** -10;
  while (d < 2 * scoreTolerance) d *= 2;
  return d;
}

/**
 * The rows and thresholds of C09's boundary probe for `metric` in `dim` ≥ 2 dimensions, query e₀.
 * Rows whose score must equal a threshold exactly use one non-zero component (or none against e₀),
 * so float32 storage, float64 oracles and int8 quantization all give the same exact value:
 * - cosine: e₀ → 1, e₁ → 0; just below, with s = 2√δ: e₀ + s·e₁ (1/√(1+4δ) ≈ 1 − 2δ) and −s·e₀ + e₁ (≈ −2√δ);
 * - ip: e₀ → 1, ½e₀ → ½, e₁ → 0; just below: (1−δ)e₀, (½−δ)e₀, −δe₀ + e₁;
 * - l2 (−‖a−b‖): e₀ → −0, 2e₀ → −1; just below: (1+δ)e₀ → −δ, (2+δ)e₀ → −(1+δ).
 * Thresholds: cosine {1, 0}, ip {1, ½, 0}, l2 {0, −1}.
 */
export function boundaryCase(metric: Metric, dim: number, scoreTolerance: number): BoundaryCase {
  const delta = boundaryDelta(scoreTolerance);
  const e0 = basis(dim, 0);
  const e1 = basis(dim, 1);
  const row = (id: string, vector: Float32Array, score: number): BoundaryRow => ({ id: `c09-${metric}-${id}`, vector, score });
  if (metric === 'cosine') {
    const s = 2 * Math.sqrt(delta);
    return {
      metric,
      delta,
      thresholds: [1, 0],
      rows: [row('same', e0, 1), row('orthogonal', e1, 0), row('below-1', combine(e0, 1, e1, s), 1 / Math.sqrt(1 + s * s)), row('below-0', combine(e0, -s, e1, 1), -s / Math.sqrt(1 + s * s))],
    };
  }
  if (metric === 'ip') {
    return {
      metric,
      delta,
      thresholds: [1, 0.5, 0],
      rows: [
        row('same', e0, 1),
        row('half', basis(dim, 0, 0.5), 0.5),
        row('orthogonal', e1, 0),
        row('below-1', basis(dim, 0, 1 - delta), 1 - delta),
        row('below-half', basis(dim, 0, 0.5 - delta), 0.5 - delta),
        row('below-0', combine(e0, -delta, e1, 1), -delta),
      ],
    };
  }
  return {
    metric,
    delta,
    thresholds: [0, -1],
    rows: [row('same', e0, -0), row('at-1', basis(dim, 0, 2), -1), row('below-0', basis(dim, 0, 1 + delta), -delta), row('below-1', basis(dim, 0, 2 + delta), -(1 + delta))],
  };
}

/**
 * C09's boundary probe on every metric the target supports: a scratch collection per metric with
 * the `boundaryCase` rows; for each threshold t, `recall(e₀, k = rows, minScore = t)` must return
 * exactly the rows whose exact score is ≥ t — a row ON the threshold kept (`>=`, not `>`), the row
 * δ below it dropped — with no tolerance band. Exact scan where the target has one, else its index
 * path (a handful of rows: any ANN index answers exhaustively). Returns failures and per-metric figures.
 */
export async function thresholdBoundary(cell: LiveCell): Promise<{ failures: Failure[]; figures: Record<string, number> }> {
  const failures: Failure[] = [];
  const figures: Record<string, number> = {};
  const scan = cell.config.capabilities.exactScan ? ('exact' as const) : undefined;
  const dim = cell.dataset.manifest.dim;
  for (const metric of cell.config.capabilities.metrics) {
    const bc = boundaryCase(metric, dim, cell.config.tolerances.scoreTolerance);
    const { collection } = await cell.scratch(`c09_${metric}`, { metric });
    await collection.upsert(bc.rows.map((r) => syntheticRecord(r.id, r.vector)));
    await collection.buildIndex();
    let asserted = 0;
    for (const t of bc.thresholds) {
      const hits = await collection.recall({ vector: basis(dim, 0), k: bc.rows.length, minScore: t, scan });
      const got = new Set(hits.map((h) => h.id));
      for (const r of bc.rows) {
        asserted++;
        const keep = r.score >= t;
        if (keep === got.has(r.id)) continue;
        const where = r.score === t ? 'exactly on the threshold' : `${(t - r.score).toExponential(2)} below the threshold`;
        failures.push(
          failure(
            cell,
            'threshold-boundary',
            `${metric}: minScore ${t}: row ${r.id} (exact score ${r.score}, ${where}) ${keep ? 'missing: a row whose score equals minScore must be kept (≥, not >)' : 'returned although below minScore'}`,
            {
              id: r.id,
              expected: keep ? 'kept' : 'dropped',
              actual: keep ? 'dropped' : 'kept',
              metric, // the probe's metric, not the dataset's
              scan: scan ?? 'index',
              filtered: false,
              threshold: true,
            },
          ),
        );
      }
    }
    figures[`boundary.${metric}`] = asserted;
  }
  return { failures, figures };
}
