import { referenceScore, type Metric } from '../src';
import { boundaryCase, boundaryDelta } from '../src/checks/c09-boundary';
import { basis } from '../src/checks/helpers/synthetic';

/** float32 arithmetic of a score (what a backend storing float32 computes), by rounding every step. */
function float32Score(metric: Metric, a: Float32Array, b: Float32Array): number {
  const f = Math.fround;
  let dot = 0;
  let na = 0;
  let nb = 0;
  let d2 = 0;
  for (let i = 0; i < a.length; i++) {
    dot = f(dot + f(a[i]! * b[i]!));
    na = f(na + f(a[i]! * a[i]!));
    nb = f(nb + f(b[i]! * b[i]!));
    d2 = f(d2 + f((a[i]! - b[i]!) ** 2));
  }
  if (metric === 'ip') return dot;
  if (metric === 'l2') return -f(Math.sqrt(d2));
  return f(dot / f(Math.sqrt(f(na * nb))));
}

describe('C09 boundary probe (c09-boundary.ts)', () => {
  test('δ: a power of two ≥ 2 × tolerance and ≥ 2⁻¹⁰', () => {
    expect(boundaryDelta(1e-5)).toBe(2 ** -10);
    expect(boundaryDelta(4e-3)).toBe(2 ** -6);
  });

  describe.each([
    ['cosine', 1e-5],
    ['ip', 1e-5],
    ['l2', 1e-5],
    ['cosine', 4e-3],
    ['ip', 4e-3],
    ['l2', 4e-3],
  ] as Array<[Metric, number]>)('%s, scoreTolerance %s', (metric, tol) => {
    const bc = boundaryCase(metric, 8, tol);
    const q = basis(8, 0);
    test('each row: its declared score is the float64 score, rows on a threshold are exact in float32 too', () => {
      for (const r of bc.rows) {
        expect(referenceScore(metric, q, r.vector)).toBeCloseTo(r.score, 12);
        if (bc.thresholds.includes(r.score)) {
          expect(referenceScore(metric, q, r.vector)).toBe(r.score);
          expect(float32Score(metric, q, r.vector)).toBe(r.score);
        }
      }
    });
    test('each threshold has a row exactly on it and a row at least δ (> 2 × tolerance) below it, nearer than the next threshold', () => {
      const sorted = [...bc.thresholds].sort((a, b) => b - a);
      sorted.forEach((t, i) => {
        expect(bc.rows.some((r) => r.score === t)).toBe(true);
        const below = bc.rows.filter((r) => r.score < t && (i + 1 === sorted.length || r.score > sorted[i + 1]!));
        expect(below.length).toBeGreaterThan(0);
        for (const r of below) expect(t - r.score).toBeGreaterThanOrEqual(bc.delta);
        expect(bc.delta).toBeGreaterThanOrEqual(2 * tol);
      });
    });
    test('a ">" threshold drops the row on it, a ">=" threshold keeps it: the probe tells them apart at every threshold', () => {
      for (const t of bc.thresholds) {
        const ge = bc.rows.filter((r) => r.score >= t).map((r) => r.id);
        const gt = bc.rows.filter((r) => r.score > t).map((r) => r.id);
        expect(ge.length).toBeGreaterThan(gt.length);
      }
    });
  });
});
