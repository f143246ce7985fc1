import { MemoryMatrixError, negativeSqrtOfSquared, type Metric } from '@memory-matrix/spec';

/**
 * LanceDB `_distance` → canonical score (cosine similarity, inner product, −Euclidean distance;
 * higher is more similar).
 *
 * Source: LanceDB's `DistanceType` docs (rust/lancedb/src/lib.rs, v0.37.1; the same text in the
 * TypeScript `IvfPqOptions.distanceType`) and lance-linalg's kernels (lance
 * rust/lance-linalg/src/distance/{cosine,l2,dot}.rs), measured on 0.37.1 (README.md):
 * - `cosine` → `cosine_distance` = 1 − x·y / (‖x‖‖y‖), range [0, 2]: d → 1 − d;
 * - `l2` → `l2` = Σ (xᵢ − yᵢ)², the SQUARED Euclidean distance (despite the docs' "Euclidean
 *   distance"; [1,2,0,0] vs [0,1,0,0] gives 2): d → −√d (`negativeSqrtOfSquared`);
 * - `dot` → `dot_distance` = 1 − x·y: d → 1 − d (the inner product).
 * All in float32. An ANN index over `cosine` (IVF_HNSW_SQ) returns 2·(1 − cos) instead (L2² of
 * the normalized vectors): the same formula is applied to it, so the matrix shows the difference
 * (README "Flat vs index distances", lancedb/lancedb#3530).
 */
export function lancedbToCanonical(metric: Metric, d: number): number {
  if (typeof d !== 'number' || Number.isNaN(d)) throw new MemoryMatrixError('BACKEND_ERROR', `lancedb: _distance is not a number: ${String(d)}`);
  switch (metric) {
    case 'cosine':
    case 'ip':
      return 1 - d;
    case 'l2':
      return negativeSqrtOfSquared(d, 'lancedb l2 _distance');
  }
}

/** LanceDB's `distanceType` of each contract metric. */
export const LANCE_DISTANCE: Record<Metric, 'cosine' | 'dot' | 'l2'> = { cosine: 'cosine', ip: 'dot', l2: 'l2' };

/** Metrics a LanceDB collection can be created with. */
export const LANCEDB_METRICS: Metric[] = ['cosine', 'ip', 'l2'];
