import { MemoryMatrixError } from './errors';
import type { Metric } from './types';

/**
 * The one tolerance model every score comparison uses (docs/design.md, "Tolerances").
 *
 * A target's catalog figures `scoreTolerance` and `tieEpsilon` are the tolerances AT UNIT
 * MAGNITUDE: unit-length vectors of at most `REFERENCE_DIM` (384) components, the shape they were
 * measured on (agent-memories). For one (query, row) pair the allowed |score − oracle score| is
 *
 *   tol = declared · scale + underflow,   scale = D(n) · M(metric, ‖q‖, ‖m‖)
 *
 * - D(n) = max(1, √(n / 384)). Source: the probabilistic rounding-error bound of an n-term float32
 *   dot product, Higham & Mary, "A New Approach to Probabilistic Rounding Error Analysis", SIAM J.
 *   Sci. Comput. 41(5), 2019, Thm 3.1: |fl(xᵀy) − xᵀy| ≤ γ̃ₙ(λ)·|x|ᵀ|y|, γ̃ₙ(λ) ≈ λ√n·u, u = 2⁻²⁴,
 *   with probability ≥ 1 − 2n·exp(−λ²(1 − u)²/2), for any summation order. The declared 1e-5 is
 *   that bound at n = 384 with λ = 1e-5 / (√384·u) ≈ 8.56 (failure probability ≤ 2n·e^(−36.6) ≈ 9e-14 per pair);
 *   the bound grows as √n, so D is the ratio. Below 384 the declared figure is kept (it also holds
 *   the output rounding and conversions that do not shrink with n). The deterministic worst case
 *   γₙ = nu/(1 − nu) (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., 2002,
 *   §3.1, eq. 3.5) grows as n and is given by `gammaN` for reference; it is not the gate.
 * - M, the magnitude the error is proportional to, 1 for unit vectors:
 *   - `ip`: ‖q‖·‖m‖ (the bound's |q|ᵀ|m| ≤ ‖q‖‖m‖, Cauchy–Schwarz);
 *   - `cosine`: 1. a·b/(‖a‖‖b‖) with float32 norms is scale-free: the dot's error is relative to
 *     ‖a‖‖b‖ and each norm adds a relative γ̃ₙ/2 (Higham §3.1 on a sum of positive terms), so
 *     |Δcos| ≤ (1 + |cos|)·γ̃ₙ + O(u) whatever the norms;
 *   - `l2` ('difference' form, √Σ(aᵢ − bᵢ)², what pgvector, sqlite-vec, LanceDB and hnswlib
 *     compute): fl(d²) = d²(1 + θ), |θ| ≤ γ̃ₙ + 3u (positive terms), so |Δd| ≤ (γ̃ₙ/2 + 2u)·d ≤
 *     … · (‖q‖ + ‖m‖); M = (‖q‖ + ‖m‖)/2, 1 at unit norms.
 *   - `l2` ('expanded' form, ‖a‖² + ‖b‖² − 2a·b, BLAS-style brute force): the error e of d² is
 *     ≤ γ̃ₙ·(‖q‖ + ‖m‖)² (cancellation), so |Δd| = |e|/(d̂ + d) ≤ min(√e, e/d) with d the oracle's
 *     distance; here the whole tolerance is min(√E, E/d), E = declared·D(n)·(‖q‖ + ‖m‖)². Far
 *     looser near d = 0; no catalog target uses it today (a target that does would declare it).
 * - underflow: Higham §2.1's model fl(x op y) = (x op y)(1 + δ) + η, |η| ≤ 2⁻¹⁵⁰ for float32
 *   (half the subnormal spacing 2⁻¹⁴⁹): n·2⁻¹⁴⁹ for a score that is a sum (ip, cosine numerator),
 *   √(n·2⁻¹⁴⁹) for an l2 distance. Negligible unless the norms are below ~1e-19.
 *
 * A quantized target (redis@8.0 int8, scoreTolerance 4e-3 measured on unit vectors) is scaled the
 * same way. Tie groups use the same scale: two rows a, b tie when their oracle scores differ by at
 * most max(tie(a), tie(b)) with tie(x) = tieEpsilon · scale(x) + underflow, i.e. when the backend's
 * float32 noise may order them either way.
 */

/** float32 unit roundoff u = 2⁻²⁴ (IEEE 754 binary32, round to nearest; Higham §2.1). */
export const FLOAT32_UNIT_ROUNDOFF = 2 ** -24;
/** float32 subnormal spacing 2⁻¹⁴⁹: the absolute underflow term per operation is ≤ half of it. */
export const FLOAT32_SUBNORMAL_SPACING = 2 ** -149;
/** The dimension the catalog's declared tolerances hold at unchanged (agent-memories, 384-d). */
export const REFERENCE_DIM = 384;

/** How a backend computes an l2 distance: √Σ(aᵢ − bᵢ)² ('difference') or √(‖a‖² + ‖b‖² − 2a·b) ('expanded'). */
export type L2Form = 'difference' | 'expanded';

/** A target's declared tolerances at unit magnitude (the catalog's `scoreTolerance`, `tieEpsilon`). */
export interface DeclaredTolerances {
  scoreTolerance: number;
  tieEpsilon: number;
}

/**
 * Per-row tolerances of one query (all absolute, canonical score units), built by
 * `ExactOracle.tolerancesFor` or `pairTolerances`.
 * - `score(id)`: the largest |score − oracle score| allowed for row `id`.
 * - `tie(id)`: row `id`'s tie epsilon; rows a, b are one tie group when their oracle scores
 *   differ by ≤ max(tie(a), tie(b)).
 * An id that is not a row gets the tolerance at unit magnitude (`declared · D(n)`).
 */
export interface QueryTolerances {
  score(id: string): number;
  tie(id: string): number;
}

/** Deterministic worst-case γₙ = nu/(1 − nu) (Higham 2002, §3.1, eq. 3.5); Infinity when nu ≥ 1. `n` ≥ 0, `u` default float32. */
export function gammaN(n: number, u = FLOAT32_UNIT_ROUNDOFF): number {
  const nu = n * u;
  return nu >= 1 ? Infinity : nu / (1 - nu);
}

/** Probabilistic γ̃ₙ(λ) = exp(λ√n·u + nu²/(1 − u)) − 1 ≈ λ√n·u (Higham & Mary 2019, Thm 3.1). */
export function probabilisticGammaN(n: number, lambda: number, u = FLOAT32_UNIT_ROUNDOFF): number {
  return Math.expm1(lambda * Math.sqrt(n) * u + (n * u * u) / (1 - u));
}

/** D(n) = max(1, √(n / REFERENCE_DIM)): how the bound grows with the dimension. Throws INVALID_INPUT for n not an integer ≥ 1. */
export function dimensionFactor(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new MemoryMatrixError('INVALID_INPUT', `tolerance: dimension must be an integer ≥ 1, got ${n}`);
  return Math.max(1, Math.sqrt(n / REFERENCE_DIM));
}

/**
 * The dimensionless scale of one pair, D(n) · M(metric, ‖q‖, ‖m‖) (see the module comment): 1
 * for unit vectors of ≤ 384 components under every metric. `queryNorm`, `rowNorm`: Euclidean
 * norms (float64, ≥ 0). Throws INVALID_INPUT for a bad dimension or a negative / non-finite norm.
 */
export function toleranceScale(metric: Metric, dim: number, queryNorm: number, rowNorm: number): number {
  const d = dimensionFactor(dim);
  for (const [what, x] of [
    ['query norm', queryNorm],
    ['row norm', rowNorm],
  ] as const) {
    if (!(x >= 0) || !Number.isFinite(x)) throw new MemoryMatrixError('INVALID_INPUT', `tolerance: ${what} must be finite and ≥ 0, got ${x}`);
  }
  if (metric === 'cosine') return d;
  if (metric === 'ip') return d * queryNorm * rowNorm;
  return (d * (queryNorm + rowNorm)) / 2;
}

/** The absolute underflow term of a score of `metric` over `dim` components (module comment). */
export function underflowTerm(metric: Metric, dim: number): number {
  const sum = dim * FLOAT32_SUBNORMAL_SPACING;
  return metric === 'l2' ? Math.sqrt(sum) : sum;
}

/**
 * The absolute term of a score a backend reports as a distance with an offset (Chroma and LanceDB
 * give ip and cosine as d = 1 − s; the adapters' scores.ts turn it back, s = 1 − d): d is a float32
 * near 1 whatever the norms, so its rounding costs u·|d| ≤ u·(1 + |s|) (Higham, "Accuracy and
 * Stability of Numerical Algorithms", 2nd ed., §2.2: fl(x) = x(1 + δ), |δ| ≤ u = 2⁻²⁴), doubled
 * for the conversion back and a decimal transport: 2⁻²³ · (1 + ‖q‖‖m‖) under ip; 0 under cosine
 * (2⁻²² ≈ 2.4e-7 is inside the declared figure, which is calibrated on such backends) and l2 (no
 * offset). A score tolerance only: tie groups are formed from the oracle's float64 scores, which
 * carry no offset. It matters only for small ip scores: norms 1e-3 give scores ~1e-6 whose relative term is ~1e-11 while the
 * offset costs ~1.2e-7 (measured: LanceDB 0.37 and Chroma 1.0 on golden-data/user-data/ip-nonunit
 * scaled by 1e-3, |Δ| 2.6e-8).
 */
export function offsetTerm(metric: Metric, queryNorm: number, rowNorm: number): number {
  return metric === 'ip' ? 2 ** -23 * (1 + queryNorm * rowNorm) : 0;
}

/**
 * The allowed |score − oracle score| of one pair: `declared` (a target's `scoreTolerance` or
 * `tieEpsilon`, at unit magnitude) scaled by the model. `distance` (the oracle's l2 distance,
 * ≥ 0) is used by the 'expanded' l2 form only. Throws INVALID_INPUT (bad dimension or norm, or
 * `declared` negative / not finite).
 */
export function pairTolerance(declared: number, metric: Metric, dim: number, queryNorm: number, rowNorm: number, opts: { l2Form?: L2Form; distance?: number } = {}): number {
  if (!(declared >= 0) || !Number.isFinite(declared)) throw new MemoryMatrixError('INVALID_INPUT', `tolerance: declared tolerance must be finite and ≥ 0, got ${declared}`);
  const under = underflowTerm(metric, dim);
  if (metric === 'l2' && opts.l2Form === 'expanded') {
    const e = declared * dimensionFactor(dim) * (queryNorm + rowNorm) ** 2;
    const d = opts.distance ?? 0;
    return Math.min(Math.sqrt(e), d > 0 ? e / d : Infinity) + under;
  }
  return declared * toleranceScale(metric, dim, queryNorm, rowNorm) + under;
}

/** Euclidean norm √Σxᵢ² in float64 of a `Float32Array` (products exact in float64). */
export function vectorNorm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}

/**
 * `pairTolerance` for two vectors (`Float32Array`s of the same length `n`): the tolerance of
 * `declared` for the score of `a` against `b` under `metric`. Throws DIMENSION_MISMATCH for
 * different lengths, INVALID_INPUT as `pairTolerance`.
 */
export function vectorPairTolerance(declared: number, metric: Metric, a: Float32Array, b: Float32Array, l2Form: L2Form = 'difference'): number {
  if (a.length !== b.length) throw new MemoryMatrixError('DIMENSION_MISMATCH', `vectorPairTolerance: vectors have ${a.length} and ${b.length} components`);
  let distance: number | undefined;
  if (metric === 'l2' && l2Form === 'expanded') {
    let s = 0;
    for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
    distance = Math.sqrt(s);
  }
  return pairTolerance(declared, metric, a.length, vectorNorm(a), vectorNorm(b), { l2Form, distance });
}

/**
 * Per-row tolerances of one query from a lookup of row norms: `rowNorm(id)` is the row's
 * Euclidean norm, `undefined` for an id that is not a row (it gets the unit-magnitude figure).
 * Scales are computed once per id and cached.
 */
export function pairTolerances(declared: DeclaredTolerances, metric: Metric, dim: number, queryNorm: number, rowNorm: (id: string) => number | undefined): QueryTolerances {
  const scales = new Map<string, [number, number]>(); // id → [scale, absolute terms]
  const unit = dimensionFactor(dim);
  const under = underflowTerm(metric, dim);
  const scaleOf = (id: string): [number, number] => {
    let s = scales.get(id);
    if (s === undefined) {
      const n = rowNorm(id);
      s = n === undefined ? [unit, under + offsetTerm(metric, 1, 1)] : [toleranceScale(metric, dim, queryNorm, n), under + offsetTerm(metric, queryNorm, n)];
      scales.set(id, s);
    }
    return s;
  };
  return {
    score: (id) => {
      const [scale, abs] = scaleOf(id);
      return declared.scoreTolerance * scale + abs;
    },
    tie: (id) => declared.tieEpsilon * scaleOf(id)[0] + under,
  };
}

/** The same tolerance for every id (the model at unit magnitude, no scaling): what a caller without vectors uses. */
export function uniformTolerances(declared: DeclaredTolerances): QueryTolerances {
  return { score: () => declared.scoreTolerance, tie: () => declared.tieEpsilon };
}

/** A tie epsilon: one number for every row (at unit magnitude), or per row (`QueryTolerances.tie`). */
export type TieTolerance = number | ((id: string) => number);

/** The tie epsilon between rows `a` and `b`: the number, or max(tie(a), tie(b)). */
export function tieBetween(t: TieTolerance, a: string, b: string): number {
  return typeof t === 'number' ? t : Math.max(t(a), t(b));
}
