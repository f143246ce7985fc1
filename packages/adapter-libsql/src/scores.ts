import { distanceToCanonical, type Metric } from '@memory-matrix/spec';

/**
 * libSQL vector distance → canonical score (cosine similarity for `cosine`, −Euclidean distance
 * for `l2`; higher is more similar).
 *
 * Source: tursodatabase/libsql `libsql-sqlite3/src/vectorfloat32.c` and docs.turso.tech
 * "AI & Embeddings" (vector functions):
 * - `vector_distance_cos(a, b)` (`vectorF32DistanceCos`): dot, ‖a‖², ‖b‖² accumulated in float32,
 *   `1.0 - dot / sqrt(‖a‖² ‖b‖²)`: the cosine distance, d → 1 − d. The DiskANN index with
 *   `metric=cosine` orders by the same function.
 * - `vector_distance_l2(a, b)` (`vectorF32DistanceL2`): `sqrt(Σ (aᵢ − bᵢ)²)`, the Euclidean
 *   distance (not its square; measured: [1,0,0] vs [1,0.1,0] → 0.1000000015), d → −d.
 * libSQL has no inner-product distance (`libsql_vector_idx` accepts `metric=cosine|l2` only;
 * `metric=inner` is refused "invalid vector index parameter"): `ip` is CAPABILITY_MISSING.
 */
export const libsqlToCanonical = distanceToCanonical(
  { cosine: 'one-minus', l2: 'negated', ip: { missing: 'libsql: no inner-product distance (vector_distance_cos, vector_distance_l2 only)' } },
  'libsqlToCanonical',
);

/** Metrics a libSQL collection can be created with. */
export const LIBSQL_METRICS: Metric[] = ['cosine', 'l2'];

/** The SQL distance function of each metric, and its `libsql_vector_idx` `metric=` spelling. */
export const DISTANCE: Record<'cosine' | 'l2', { fn: string; indexMetric: string }> = {
  cosine: { fn: 'vector_distance_cos', indexMetric: 'cosine' },
  l2: { fn: 'vector_distance_l2', indexMetric: 'l2' },
};
