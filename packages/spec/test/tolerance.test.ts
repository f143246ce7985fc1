import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceScore } from '../src/scores';
import { dimensionFactor, gammaN, pairTolerance, pairTolerances, probabilisticGammaN, REFERENCE_DIM, toleranceScale, vectorNorm, vectorPairTolerance } from '../src/tolerance';
import type { Metric } from '../src/types';

const DIR = join(__dirname, '../../../golden-data/agent-memories');
const DIM = 384;
const raw = readFileSync(join(DIR, 'memories.f32'));
const ALL = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
const ROWS = ALL.length / DIM;
const f = Math.fround;

/** A real vector of n components: rows of agent-memories from `start` on, concatenated (n > 384) or cut (n < 384), scaled to norm `norm` and rounded to float32. */
function realVector(start: number, n: number, norm: number): Float32Array {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = ALL[((start + Math.floor(i / DIM)) % ROWS) * DIM + (i % DIM)]!;
  let s = 0;
  for (const x of v) s += x * x;
  const k = norm / Math.sqrt(s);
  return Float32Array.from(v, (x) => x * k);
}

type Order = 'recursive' | 'pairwise' | 'lanes8';

/** Σ terms(i) with every operation rounded to float32, in one of three orders a backend may use. */
function sum32(n: number, term: (i: number) => number, order: Order): number {
  if (order === 'recursive') {
    let s = 0;
    for (let i = 0; i < n; i++) s = f(s + term(i));
    return s;
  }
  if (order === 'lanes8') {
    // 8 partial sums (AVX), combined at the end: sqlite-vec / pgvector compiled with SIMD.
    const acc = new Array<number>(8).fill(0);
    for (let i = 0; i < n; i++) acc[i % 8] = f(acc[i % 8]! + term(i));
    return acc.reduce((a, b) => f(a + b), 0);
  }
  const rec = (lo: number, hi: number): number => (hi - lo === 1 ? term(lo) : f(rec(lo, (lo + hi) >> 1) + rec((lo + hi) >> 1, hi)));
  return n === 0 ? 0 : rec(0, n);
}

/** The score a float32 backend computes, in summation order `order`. */
function float32Score(metric: Metric, a: Float32Array, b: Float32Array, order: Order): number {
  const n = a.length;
  if (metric === 'l2') return -f(Math.sqrt(sum32(n, (i) => f(f(a[i]! - b[i]!) ** 2), order)));
  const dot = sum32(n, (i) => f(a[i]! * b[i]!), order);
  if (metric === 'ip') return dot;
  const na = f(Math.sqrt(sum32(n, (i) => f(a[i]! * a[i]!), order)));
  const nb = f(Math.sqrt(sum32(n, (i) => f(b[i]! * b[i]!), order)));
  return f(dot / f(na * nb));
}

/** The magnitude one "relative" error is measured against: ‖a‖‖b‖ (ip), 1 (cosine), the distance (l2). */
function magnitude(metric: Metric, a: Float32Array, b: Float32Array, ref: number): number {
  return metric === 'ip' ? vectorNorm(a) * vectorNorm(b) : metric === 'cosine' ? 1 : Math.abs(ref);
}

const METRICS: Metric[] = ['cosine', 'ip', 'l2'];
const DIMS = [3, 384, 2048];
const NORMS = [1e-3, 1, 1e3];
const PAIRS = 150;

describe('tolerance model', () => {
  it('keeps the declared figure at unit norms for n ≤ 384 under every metric', () => {
    for (const metric of METRICS) {
      for (const n of [1, 3, 100, 384]) {
        expect(toleranceScale(metric, n, 1, 1)).toBe(1);
        expect(pairTolerance(1e-5, metric, n, 1, 1)).toBe(1e-5);
      }
    }
  });

  it('grows with the norms (ip, l2) and with √n above 384, and is norm-free under cosine', () => {
    expect(dimensionFactor(2048)).toBeCloseTo(Math.sqrt(2048 / 384), 12);
    expect(pairTolerance(1e-5, 'ip', 384, 1e3, 1e3)).toBeCloseTo(10, 9);
    expect(pairTolerance(1e-5, 'ip', 384, 1e-3, 1e-3)).toBeCloseTo(1e-11, 20);
    expect(pairTolerance(1e-5, 'l2', 384, 1e3, 1e3)).toBeCloseTo(1e-2, 12);
    expect(pairTolerance(1e-5, 'l2', 384, 1e-3, 1e-3)).toBeCloseTo(1e-8, 18);
    expect(pairTolerance(1e-5, 'cosine', 384, 1e3, 1e-3)).toBe(1e-5);
    expect(pairTolerance(1e-5, 'cosine', 2048, 1, 1)).toBeCloseTo(1e-5 * Math.sqrt(2048 / 384), 15);
    // A quantized target's measured figure scales the same way.
    expect(pairTolerance(4e-3, 'ip', 384, 1e3, 1e3)).toBeCloseTo(4e3, 6);
  });

  it('equals the Higham–Mary probabilistic bound with λ ≈ 8.56 at n = 384 (the declared 1e-5), below the deterministic γₙ', () => {
    const lambda = 1e-5 / (Math.sqrt(REFERENCE_DIM) * 2 ** -24);
    expect(lambda).toBeCloseTo(8.56, 2);
    expect(probabilisticGammaN(REFERENCE_DIM, lambda)).toBeCloseTo(1e-5, 9);
    expect(probabilisticGammaN(2048, lambda)).toBeCloseTo(pairTolerance(1e-5, 'ip', 2048, 1, 1), 9);
    expect(gammaN(REFERENCE_DIM)).toBeCloseTo(2.29e-5, 7);
    expect(gammaN(2 ** 24)).toBe(Infinity);
  });

  it('rejects a bad dimension, norm or declared figure with INVALID_INPUT', () => {
    expect(() => toleranceScale('ip', 0, 1, 1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => toleranceScale('ip', 384, -1, 1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => toleranceScale('l2', 384, 1, NaN)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => pairTolerance(-1, 'cosine', 384, 1, 1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => vectorPairTolerance(1e-5, 'ip', new Float32Array(3), new Float32Array(4))).toThrow(expect.objectContaining({ code: 'DIMENSION_MISMATCH' }));
  });

  it('per-row tolerances: unknown ids get the unit-magnitude figure, ties use the same scale', () => {
    const t = pairTolerances({ scoreTolerance: 1e-5, tieEpsilon: 2e-5 }, 'ip', 384, 10, (id) => (id === 'a' ? 100 : undefined));
    // ip scores carry the absolute offset term 2⁻²³(1 + ‖q‖‖m‖) (offsetTerm); ties do not.
    expect(t.score('a')).toBeCloseTo(1e-2 + 2 ** -23 * 1001, 12);
    expect(t.tie('a')).toBeCloseTo(2e-2, 12);
    expect(t.score('zz')).toBe(1e-5 + 2 ** -23 * 2);
  });

  it('l2 expanded form: √E near d = 0, E/d away from it', () => {
    const e = 1e-5 * 4; // unit norms: E = declared · (1 + 1)²
    expect(pairTolerance(1e-5, 'l2', 384, 1, 1, { l2Form: 'expanded', distance: 0 })).toBeCloseTo(Math.sqrt(e), 12);
    expect(pairTolerance(1e-5, 'l2', 384, 1, 1, { l2Form: 'expanded', distance: 1 })).toBeCloseTo(e, 12);
  });

  it('near-duplicates (the same memory re-embedded: a + 1e-4 relative noise) stay inside the bound at norms 1e-3 … 1e3', () => {
    for (const metric of METRICS) {
      for (const norm of NORMS) {
        for (let p = 0; p < 50; p++) {
          const a = realVector(p * 11, DIM, norm);
          const b = Float32Array.from(a, (x, i) => x * (1 + 1e-4 * Math.sin(i + p)));
          const ref = referenceScore(metric, a, b);
          const tol = vectorPairTolerance(1e-5, metric, a, b);
          for (const order of ['recursive', 'pairwise', 'lanes8'] as const) expect(Math.abs(float32Score(metric, a, b, order) - ref)).toBeLessThanOrEqual(tol);
        }
      }
    }
  });

  for (const metric of METRICS) {
    for (const n of DIMS) {
      for (const norm of NORMS) {
        it(`${metric}, n ${n}, norms ${norm}: float32 in 3 summation orders inside the bound over ${PAIRS} real pairs; a 1e-3 relative error outside`, () => {
          let worst = 0; // largest |Δ| / tolerance seen
          let caught = 0;
          for (let p = 0; p < PAIRS; p++) {
            // Different norms on the two sides too (norm and norm·7.3), as in a user's data.
            const a = realVector(p * 7, n, norm);
            const b = realVector(p * 7 + 3 + (p % 5), n, p % 2 ? norm * 7.3 : norm);
            const ref = referenceScore(metric, a, b);
            const tol = vectorPairTolerance(1e-5, metric, a, b);
            for (const order of ['recursive', 'pairwise', 'lanes8'] as const) {
              const d = Math.abs(float32Score(metric, a, b, order) - ref);
              worst = Math.max(worst, d / tol);
              // The deterministic worst case (Higham §3.1) holds too, with the same magnitude.
              if (metric === 'ip') expect(d).toBeLessThanOrEqual(gammaN(n) * vectorNorm(a) * vectorNorm(b));
            }
            const defect = ref + 1e-3 * magnitude(metric, a, b, ref);
            if (Math.abs(defect - ref) > tol) caught++;
          }
          expect(worst).toBeLessThanOrEqual(1);
          expect(caught).toBe(PAIRS);
        });
      }
    }
  }
});
