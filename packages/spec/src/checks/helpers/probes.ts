import type { Metric } from '../../types';
import { basis, combine } from './synthetic';

/**
 * Hand-computed canonical scores of the probe vectors against query e0 (the canonical scales):
 * same = e0, scaled = 3·e0, diag = (e0 + e1)/√2, ortho = e1, opposite = −e0.
 *   cosine: 1, 1, 1/√2 ≈ 0.7071068, 0, −1
 *   ip:     1, 3, 0.7071068, 0, −1
 *   l2 (−‖q − x‖): 0, −2, −√(2 − √2) ≈ −0.7653669, −√2 ≈ −1.4142136, −2
 */
export const PROBE_EXPECTED: Record<Metric, Record<string, number>> = {
  cosine: { same: 1, scaled: 3 / 3, diag: Math.SQRT1_2, ortho: 0, opposite: -1 },
  ip: { same: 1, scaled: 3, diag: Math.SQRT1_2, ortho: 0, opposite: -1 },
  l2: { same: 0, scaled: -2, diag: -Math.sqrt(2 - Math.SQRT2), ortho: -Math.SQRT2, opposite: -2 },
};

/** The five probe vectors of `PROBE_EXPECTED` in `dim` dimensions (query: `same` = e0). */
export function probeVectors(dim: number): Record<'same' | 'scaled' | 'diag' | 'ortho' | 'opposite', Float32Array> {
  const e0 = basis(dim, 0);
  const e1 = basis(dim, 1);
  return { same: e0, scaled: basis(dim, 0, 3), diag: combine(e0, Math.SQRT1_2, e1, Math.SQRT1_2), ortho: e1, opposite: basis(dim, 0, -1) };
}
