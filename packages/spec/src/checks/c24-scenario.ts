import { compareIds, type OracleResult } from '../oracle';
import { decayedScore, hyperbolicFlipMs } from '../decay';
import { referenceScore } from '../scores';
import { addMs, diffMs, formatInstant, parseInstant, type Instant } from '../time';
import type { MemoryRecord, TimeDecay } from '../types';
import { basis } from './synthetic';

/**
 * C24's controlled scenario. Vectors are sums of n unit basis vectors, so against the query
 * e0 their cosine is exactly 1/√n: 1 (n = 1), 0.5 (n = 4), 0.25 (n = 16) — exact in float32, in
 * float64 and in Redis' int8 quantization (every component is 0 or the same value), so every
 * target computes the same similarities and the flip instants are exact. Instants are relative to
 * T0 (ms). Half-life 100 ms.
 *
 *   id        sim   written (ms after T0)
 *   c24-a     1     0
 *   c24-b     0.5   200
 *   c24-c     0.25  450
 *   c24-sub-1 1*    450.250   (* against the second query e100; 0 against e0)
 *   c24-sub-2 1*    450.750   the two differ by 0.5 ms: microsecond timestamps
 *
 * Hyperbolic flips (decay.ts, t* = t_X + a·D/(a − b) − h):
 *   a~b: 0 + 1·200/0.5 − 100 = 300 ms   (at 300 c24-c, still age 0, also scores 0.25: a 3-way tie)
 *   a~c: 0 + 1·450/0.75 − 100 = 500 ms
 *   b~c: 200 + 0.5·250/0.25 − 100 = 600 ms
 * Order of query e0 (k = 3): before 300 b a c; 300–500 c a b; 500–600 a c b; after 600 a b c.
 * Near a flip the score gap grows by 2e-4 … 8e-4 per ms, so ±1 ms is 20–80 × tieEpsilon (1e-5).
 * Exponential decay with the same half-life keeps one order (c b a) for every now ≥ 450 ms.
 */

export const T0 = '2024-05-01T09:30:00.000Z';
export const HALF_LIFE_MS = 100;
const DIRECTION_SUB = 100;

/** One memory of the scenario: id, number of basis vectors summed, offset from T0 in ms, query axis. */
const LAYOUT: ReadonlyArray<{ id: string; n: number; at: number; axis: number }> = [
  { id: 'c24-a', n: 1, at: 0, axis: 0 },
  { id: 'c24-b', n: 4, at: 200, axis: 0 },
  { id: 'c24-c', n: 16, at: 450, axis: 0 },
  { id: 'c24-sub-1', n: 1, at: 450.25, axis: DIRECTION_SUB },
  { id: 'c24-sub-2', n: 1, at: 450.75, axis: DIRECTION_SUB },
];

/** The scenario's memories in `dim` dimensions (dim ≥ 117). */
export function scenarioRecords(dim: number): MemoryRecord[] {
  const t0 = parseInstant(T0, 'C24 T0');
  return LAYOUT.map(({ id, n, at, axis }) => {
    const v = new Float32Array(dim);
    for (let i = 0; i < n; i++) v[axis + i] = 1;
    return { id, namespace: 'c24', text: `C24 time-decay memory ${id}`, kind: 'episode', createdAt: formatInstant(addMs(t0, at)), metadata: { check: 'C24' }, embedding: v };
  });
}

/** The two queries: e0 (k = 3, the flips) and e100 (k = 2, the sub-millisecond pair). */
export function scenarioQueries(dim: number): Array<{ name: string; vector: Float32Array; k: number }> {
  return [
    { name: 'e0', vector: basis(dim, 0), k: 3 },
    { name: 'e100', vector: basis(dim, DIRECTION_SUB), k: 2 },
  ];
}

/** `now` of each step, ms after T0: before, at and after every predicted flip, plus the age-0 clamp. */
export const STEPS_MS = [100, 299, 300, 301, 450, 499, 500, 501, 599, 600, 601, 1000];

/** The predicted hyperbolic flips of query e0 (pairs X older and more similar, Y newer), in ms after T0. */
export function predictedFlips(records: MemoryRecord[], query: Float32Array): Array<{ older: string; newer: string; atMs: number }> {
  const t0 = parseInstant(T0, 'C24 T0');
  const rel = (r: MemoryRecord) => diffMs(parseInstant(r.createdAt, r.id), t0);
  const axis = records.filter((r) => referenceScore('cosine', query, r.embedding) > 0);
  const out: Array<{ older: string; newer: string; atMs: number }> = [];
  for (const x of axis) {
    for (const y of axis) {
      if (rel(x) >= rel(y)) continue;
      const a = referenceScore('cosine', query, x.embedding);
      const b = referenceScore('cosine', query, y.embedding);
      const t = a > b ? hyperbolicFlipMs(a, rel(x), b, rel(y), HALF_LIFE_MS) : null;
      if (t !== null) out.push({ older: x.id, newer: y.id, atMs: t });
    }
  }
  return out.sort((p, q) => p.atMs - q.atMs);
}

/** Instant `ms` after T0. */
export function at(ms: number): Instant {
  return addMs(parseInstant(T0, 'C24 T0'), ms);
}

/**
 * The float64 reference of a decayed recall over `records`: every record scored
 * (`referenceScore` × decay factor), sorted by score then id, top-k plus the boundary tie group
 * within `tieEpsilon` (the `ExactOracle.topK` shape, so the comparator can judge it).
 */
export function decayedReference(records: MemoryRecord[], query: Float32Array, k: number, now: Instant, decay: TimeDecay, tieEpsilon: number): OracleResult {
  const scored = records
    .map((r) => ({ id: r.id, score: decayedScore(referenceScore('cosine', query, r.embedding), parseInstant(r.createdAt, r.id), now, decay) }))
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
  const cut = scored.length > k ? scored[k - 1]!.score - tieEpsilon : -Infinity;
  return { hits: scored.filter((h, i) => i < k || h.score >= cut), matching: scored.length };
}
