import { MemoryMatrixError } from './errors';
import type { Metric } from './types';

/**
 * Canonical scores: the one score scale every adapter reports (docs/design.md, "canonical score").
 * - `cosine`: cosine similarity  a·b / (‖a‖‖b‖), in [−1, 1].
 * - `ip`:     inner product      a·b.
 * - `l2`:     negative Euclidean distance  −‖a − b‖, in (−∞, 0].
 * Higher is always more similar. Each driver turns its backend's native value into this scale
 * (`BackendDriver.scores`, driver.ts; the formula and its source sit in the adapter package's
 * scores.ts). Converters are plain arithmetic: a NaN input gives a NaN output (the comparator
 * reports it as `nan-score` with its rank), so nothing is hidden. This module keeps the generic
 * parts: the float64 reference score, vector validation, and `negativeSqrtOfSquared`.
 */

/** Largest finite float32 value, (2 − 2⁻²³) · 2¹²⁷. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * −√d for a backend that returns the SQUARED Euclidean distance d (Chroma, RediSearch `L2`): the
 * canonical `l2` score. `where` names the converter in the message. Throws INVALID_INPUT for
 * d < 0 (impossible for a sum of squares: the backend did not return what its driver says).
 */
export function negativeSqrtOfSquared(d: number, where: string): number {
  return -sqrtOfSquared(d, where);
}

function sqrtOfSquared(d: number, where: string): number {
  if (d < 0) {
    throw new MemoryMatrixError('INVALID_INPUT', `${where}: squared L2 distance must be ≥ 0, got ${d}; the backend did not return a squared Euclidean distance`);
  }
  return Math.sqrt(d);
}

/**
 * The float64 reference score of two vectors (what the oracle computes), from the definitions:
 * - `cosine`: Σaᵢbᵢ / √(Σaᵢ² · Σbᵢ²). A zero vector gives 0/0 = NaN (cosine is undefined
 *   there; `validateVector` rejects zero vectors under cosine before they reach a store).
 *   Identical non-zero vectors give exactly 1 (√(x²) = x is exact in IEEE 754 double).
 * - `ip`: Σaᵢbᵢ.
 * - `l2`: −√Σ(aᵢ − bᵢ)².
 * Every float32 component is widened to float64 and every product is exact in float64
 * (24 + 24 significand bits ≤ 53); only the sums round. No clamping to [−1, 1].
 * `a`, `b`: `Float32Array`s of the same length; throws DIMENSION_MISMATCH otherwise.
 */
export function referenceScore(metric: Metric, a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) {
    throw new MemoryMatrixError('DIMENSION_MISMATCH', `referenceScore: vectors have ${a.length} and ${b.length} components`);
  }
  const n = a.length;
  if (metric === 'l2') {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const d = a[i]! - b[i]!;
      s += d * d;
    }
    return -Math.sqrt(s);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (metric === 'ip') return dot;
  return dot / Math.sqrt(na * nb);
}

/**
 * Validate one vector before it is written or queried (docs/checks.md C11, C12).
 * `v`: array-like of numbers (normally a `Float32Array`) that must have exactly `dim` components.
 * `where`: what and where, e.g. `golden-data/x/memories.jsonl:12 field embedding` or
 * `upsert record m00012`; it leads every message.
 * Throws DIMENSION_MISMATCH (wrong length) or INVALID_VECTOR (a NaN or ±Infinity component, or
 * one whose magnitude exceeds the float32 range, naming its index; or an all-zero vector under
 * `cosine`, where cosine is undefined).
 */
export function validateVector(v: ArrayLike<number>, dim: number, metric: Metric, where: string): void {
  const p = vectorProblem(v, dim, metric);
  if (p) throw new MemoryMatrixError(p.code, `${where}: ${p.message}`);
}

/** What `validateVector` would throw for `v` (code and message without the `where`), or null when it accepts it; builds no string for a valid vector. */
export function vectorProblem(v: ArrayLike<number>, dim: number, metric: Metric): { code: 'DIMENSION_MISMATCH' | 'INVALID_VECTOR'; message: string } | null {
  if (v.length !== dim) return { code: 'DIMENSION_MISMATCH', message: `vector has ${v.length} components, the collection's dimension is ${dim}` };
  if (v instanceof Float32Array) {
    // The common case, one monomorphic pass: x − x is 0 for a finite x and NaN for NaN / ±Infinity,
    // so the sum is 0 exactly when every component is finite; a float32 never exceeds FLOAT32_MAX.
    // The general loop below runs only to name the bad component.
    let nonFinite = 0;
    let nonZero = false;
    for (let i = 0; i < dim; i++) {
      const x = v[i]!;
      nonFinite += x - x;
      if (x !== 0) nonZero = true;
    }
    if (nonFinite === 0 && (nonZero || metric !== 'cosine')) return null;
  }
  let allZero = true;
  for (let i = 0; i < dim; i++) {
    const x = v[i]!;
    if (!Number.isFinite(x)) return { code: 'INVALID_VECTOR', message: `component ${i} is ${x}; vectors must have finite components` };
    if (Math.abs(x) > FLOAT32_MAX) return { code: 'INVALID_VECTOR', message: `component ${i} is ${x}, beyond the float32 range (±${FLOAT32_MAX}); it would be stored as Infinity` };
    if (x !== 0) allZero = false;
  }
  if (allZero && metric === 'cosine') return { code: 'INVALID_VECTOR', message: 'zero vector under the cosine metric (cosine similarity is undefined for it)' };
  return null;
}
