import { distanceToCanonical, type Metric } from '@memory-matrix/spec';

/**
 * sqlite-vec `vec0` distance → canonical score (cosine similarity for `cosine`, −Euclidean
 * distance for `l2`; higher is more similar).
 *
 * Source: sqlite-vec 0.1.9, `sqlite-vec.c` (github.com/asg017/sqlite-vec, tag v0.1.9):
 * - `distance_metric=cosine` → `distance_cosine_float`: dot, ‖a‖², ‖b‖² accumulated in float32
 *   over the components, `return 1 - (dot / (sqrt(aMag) * sqrt(bMag)))` as float32:
 *   d → 1 − d.
 * - `distance_metric=L2` (the default) → `distance_l2_sqr_float`: despite its name it returns
 *   `sqrt(Σ (aᵢ − bᵢ)²)` (float32 accumulation; the AVX path for dims divisible by 16 sums 8
 *   float32 lanes, then `sqrt`), i.e. the Euclidean distance, not its square: d → −d.
 * - `distance_metric=L1` exists too; it is not a metric of the contract.
 * vec0 has no inner-product metric, so `ip` is not offered (`SQLITE_METRICS`); a collection asking
 * for it is refused with CAPABILITY_MISSING (so is `ip` here).
 *
 * `d` is the float32 result widened to the REAL the `distance` column returns; the subtraction is
 * float64. The accumulation in float32 bounds the score error at about 384 × 2⁻²⁴ ≈ 2.3e-5 in the
 * worst case (√384 × 2⁻²⁴ ≈ 1.2e-6 typical); README.md records what was measured.
 */
export const sqliteVecToCanonical = distanceToCanonical(
  { cosine: 'one-minus', l2: 'negated', ip: { missing: 'sqlite: vec0 has no inner-product distance (metrics: cosine, L2, L1)' } },
  'sqliteVecToCanonical',
);

/** The metrics vec0 0.1.9 offers that the contract has, with their `distance_metric=` spelling. */
export const VEC0_DISTANCE_METRIC: Partial<Record<Metric, string>> = { cosine: 'cosine', l2: 'L2' };

/** Metrics a SQLite collection can be created with. */
export const SQLITE_METRICS: Metric[] = ['cosine', 'l2'];

/** The scalar SQL function of sqlite-vec computing the same distance as the vec0 column (for time decay's exact scan). */
export const DISTANCE_FUNCTION: Partial<Record<Metric, string>> = { cosine: 'vec_distance_cosine', l2: 'vec_distance_l2' };
