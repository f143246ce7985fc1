import { compareIds, type OracleResult } from '../oracle';
import { decayedScore, hyperbolicFlipMs } from '../decay';
import { referenceScore } from '../scores';
import { addMs, diffMs, formatInstant, parseInstant, type Instant } from '../time';
import type { MemoryRecord, TimeDecay } from '../types';
import { MemoryMatrixError } from '../errors';
import { basis } from './helpers/synthetic';

/**
 * C24's controlled scenario (vectors: `scenarioVectors`, any dim ≥ 2). From 17 d, vectors are sums of n unit basis vectors, so against the query
 * e0 their cosine is exactly 1/√n: 1 (n = 1), 0.5 (n = 4), 0.25 (n = 16) — exact in float32, in
 * float64 and in Redis' int8 quantization (every component is 0 or the same value), so every
 * target computes the same similarities and the flip instants are exact. Instants are relative to
 * T0 (ms). Half-life 100 ms.
 *
 *   id        sim   written (ms after T0)
 *   c24-a     1     0
 *   c24-b     0.5   200
 *   c24-c     0.25  450
 *   c24-sub-1 1*    450.250   (* against the second query e100 — e16 below 117 d, −e4 below 17 d, −e1 below 5 d; 0 against e0)
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
/** Axis of the sub-millisecond pair and of the second query when dim ≥ 117 (unchanged layout). */
const DIRECTION_SUB = 100;

/** One memory of the scenario: id, its similarity to query e0 (1, 0.5, 0.25; 'sub' = the pair), offset from T0 in ms. */
const LAYOUT: ReadonlyArray<{ id: string; sim: 1 | 0.5 | 0.25 | 'sub'; at: number }> = [
  { id: 'c24-a', sim: 1, at: 0 },
  { id: 'c24-b', sim: 0.5, at: 200 },
  { id: 'c24-c', sim: 0.25, at: 450 },
  { id: 'c24-sub-1', sim: 'sub', at: 450.25 },
  { id: 'c24-sub-2', sim: 'sub', at: 450.75 },
];

/** The scenario's vectors in `dim` dimensions: one per similarity, the pair's, and the two queries (all `Float32Array(dim)`, never zero). */
export interface ScenarioVectors {
  sim: Record<1 | 0.5 | 0.25, Float32Array>;
  sub: Float32Array;
  q1: Float32Array;
  q2: Float32Array;
  /** How they are built (see `scenarioVectors`): 'basis-sum' and 'signed' are exact, 'plane' float32-rounded. */
  construction: 'basis-sum' | 'signed' | 'plane';
}

/**
 * The vectors of the scenario for any `dim` ≥ 2 (throws INVALID_INPUT below).
 * - dim ≥ 17, 'basis-sum': the memory of similarity 1/√n to e0 is the sum of e0 … e(n−1) (n = 1, 4,
 *   16: cosines exactly 1, 0.5, 0.25 in float32, float64 and int8, every component 0 or the same
 *   value); the pair and the second query are e(s) with s = 100 when dim ≥ 117 (the layout used
 *   since C24 was written, so 384-d datasets see the same bytes) else s = 16 — orthogonal to the
 *   first 16 axes either way.
 * - 5 ≤ dim < 17, 'signed': components in {0, ±1} over the first 5 axes. Query q1 = (1,1,1,1,0);
 *   cos = q·v / (|q||v|) with |q| = |v| = 2: a = (1,1,1,1,0) → 4/4 = 1, b = (1,1,1,−1,0) → 2/4 = 0.5,
 *   c = (1,1,−1,0,1) → 1/4 = 0.25 — exact in float32, float64 and int8 (every non-zero component
 *   has the same magnitude). The pair and q2 are −e4: 0 against q1, 0 / 0 / −0.5 against a, b, c.
 * - 2 ≤ dim < 5, 'plane': no vectors with rational components make an exact 60° angle in a plane
 *   (its tangent would be √3), and 4 axes of {0, ±1} cannot give 1/4 (q·v is even when both have 4
 *   non-zeros), so the memories are the float32 unit vectors (s, √(1 − s²)) in the e0/e1 plane
 *   for s = 1, 0.5, 0.25, the pair and q2 −e1. The similarities are then 1, 0.5, 0.25 within
 *   float32 rounding (≈ 6e-8): `predictedFlips` and `decayedReference` compute them from these
 *   float32 vectors in float64, so the flip instants stay exact for the stored vectors (they move
 *   by < 1e-4 ms from 300 / 500 / 600: 2.0e-5 ms measured; the score gap then is < 1e-7, far
 *   inside tieEpsilon). A backend that quantizes to int8 (Redis' default) is NOT exact here.
 */
export function scenarioVectors(dim: number): ScenarioVectors {
  if (!Number.isInteger(dim) || dim < 2) throw new MemoryMatrixError('INVALID_INPUT', `C24: dimension ${dim}: the time-decay scenario needs at least 2 dimensions`);
  const vec = (head: number[]) => {
    const v = new Float32Array(dim);
    v.set(head);
    return v;
  };
  if (dim >= 17) {
    const sum = (n: number) => vec(Array.from({ length: n }, () => 1));
    const s = dim >= DIRECTION_SUB + 17 ? DIRECTION_SUB : 16;
    return { sim: { 1: sum(1), 0.5: sum(4), 0.25: sum(16) }, sub: basis(dim, s), q1: basis(dim, 0), q2: basis(dim, s), construction: 'basis-sum' };
  }
  if (dim >= 5) {
    return { sim: { 1: vec([1, 1, 1, 1]), 0.5: vec([1, 1, 1, -1]), 0.25: vec([1, 1, -1, 0, 1]) }, sub: basis(dim, 4, -1), q1: vec([1, 1, 1, 1]), q2: basis(dim, 4, -1), construction: 'signed' };
  }
  const plane = (c: number) => vec([c, Math.sqrt(1 - c * c)]);
  return { sim: { 1: plane(1), 0.5: plane(0.5), 0.25: plane(0.25) }, sub: basis(dim, 1, -1), q1: basis(dim, 0), q2: basis(dim, 1, -1), construction: 'plane' };
}

/** The scenario's memories in `dim` dimensions (dim ≥ 2; see `scenarioVectors`), written at their offsets from `base` (default T0). */
export function scenarioRecords(dim: number, base: string = T0): MemoryRecord[] {
  const t0 = parseInstant(base, 'C24 T0');
  const vs = scenarioVectors(dim);
  return LAYOUT.map(({ id, sim, at }) => {
    const v = Float32Array.from(sim === 'sub' ? vs.sub : vs.sim[sim]);
    return { id, namespace: 'c24', text: `C24 time-decay memory ${id}`, kind: 'episode', createdAt: formatInstant(addMs(t0, at)), metadata: { check: 'C24' }, embedding: v };
  });
}

/** The two queries: e0 (k = 3, the flips; (1,1,1,1) in 5–16 d) and the pair's direction (k = 2, the sub-millisecond pair); named e0 / e100 as in the 384-d layout. */
export function scenarioQueries(dim: number): Array<{ name: string; vector: Float32Array; k: number }> {
  const vs = scenarioVectors(dim);
  return [
    { name: 'e0', vector: vs.q1, k: 3 },
    { name: 'e100', vector: vs.q2, k: 2 },
  ];
}

/** `now` of each step, ms after T0: before, at and after every predicted flip, plus the age-0 clamp. */
export const STEPS_MS = [100, 299, 300, 301, 450, 499, 500, 501, 599, 600, 601, 1000];

/** The predicted hyperbolic flips of query e0 (pairs X older and more similar, Y newer), in ms after `base` (default T0). */
export function predictedFlips(records: MemoryRecord[], query: Float32Array, base: string = T0): Array<{ older: string; newer: string; atMs: number }> {
  const t0 = parseInstant(base, 'C24 T0');
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

/** Instant `ms` after `base` (default T0). */
export function at(ms: number, base: string = T0): Instant {
  return addMs(parseInstant(base, 'C24 T0'), ms);
}

/**
 * The first instant of `year` (UTC) at which this process's time zone changes its UTC offset (a
 * DST start or end: `Date.prototype.getTimezoneOffset` differs from the instant before it), found
 * to the millisecond by bisection between days whose offsets differ; null when the zone keeps one
 * offset all year (UTC, or a zone without DST). In Australia/Adelaide, 2024: 2024-04-06T16:30:00.000Z
 * (03:00 ACDT, UTC+10:30, becomes 02:00 ACST, UTC+09:30; IANA tz database).
 */
export function offsetChangeIn(year: number): Instant | null {
  const off = (ms: number) => new Date(ms).getTimezoneOffset();
  const DAY = 86_400_000;
  let lo = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  while (lo < end && off(lo + DAY) === off(lo)) lo += DAY;
  if (lo >= end) return null;
  let hi = lo + DAY; // off(lo) !== off(hi): the change lies in (lo, hi]
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (off(mid) === off(lo)) lo = mid;
    else hi = mid;
  }
  return { ms: hi, us: 0 };
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
