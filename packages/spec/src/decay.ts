import { MemoryMatrixError } from './errors';
import { diffMs, parseInstant, type Instant } from './time';
import type { Metric, RecallQuery, TimeDecay } from './types';

/**
 * Time-decayed recall (docs/checks.md C24). With `RecallQuery.decay` and `RecallQuery.now`:
 *
 *   score = canonical similarity × decayFactor(fn, age, h)
 *   age   = max(0, now − createdAt) in milliseconds (microseconds kept, time.ts `diffMs`)
 *   exponential: decayFactor = 0.5^(age / h)        (h = halfLifeMs: the factor halves every h ms)
 *   hyperbolic:  decayFactor = 1 / (1 + age / h)    (the factor is 1/2 at age h, 1/3 at 2h, …)
 *
 * `now` is always an explicit input (never the wall clock). The returned `RecallHit.score` is the
 * decayed score, `minScore` applies to it, ties are broken by id ascending as usual.
 * Only for `cosine` and `ip`: under `l2` every canonical score is ≤ 0, so multiplying by a factor
 * < 1 would move OLDER memories up; such a query is rejected (INVALID_INPUT). A negative cosine or
 * inner product is multiplied the same way (it moves towards 0); the formula is the same on every
 * target, which is what C24 checks.
 *
 * Ranking flips. Exponential decay never changes the relative order of two memories as `now`
 * moves (once both ages are > 0): the ratio of their factors is 0.5^((t_Y − t_X)/h), constant in
 * `now`. Hyperbolic decay does: a memory X (similarity a, written at t_X) and a NEWER one Y
 * (similarity b < a, written at t_Y = t_X + D) score equally when
 *     a / (1 + (t − t_X)/h) = b / (1 + (t − t_Y)/h)
 *  ⇔  a (h + t − t_Y) = b (h + t − t_X)
 *  ⇔  t* = t_X + a·D / (a − b) − h                                     (`hyperbolicFlipMs`)
 * Before t* the newer Y ranks first (if it does at t_Y, i.e. D > h (a − b)/b), after t* the more
 * similar X does, for good: their score ratio (a/b)·(h + t − t_Y)/(h + t − t_X) rises towards a/b.
 * Near t* the score gap grows at S²(a − b)/(h·a·b) per ms (S = the common score at t*).
 */

/** The decay factor in (0, 1] of a memory `ageMs` old (≥ 0) under `fn` with half-life `halfLifeMs` (> 0). */
export function decayFactor(fn: TimeDecay['fn'], ageMs: number, halfLifeMs: number): number {
  return fn === 'exponential' ? Math.pow(0.5, ageMs / halfLifeMs) : 1 / (1 + ageMs / halfLifeMs);
}

/** max(0, now − createdAt) in ms. */
export function ageMs(now: Instant, createdAt: Instant): number {
  return Math.max(0, diffMs(now, createdAt));
}

/** `similarity × decayFactor(age)` (the module formula). */
export function decayedScore(similarity: number, createdAt: Instant, now: Instant, decay: TimeDecay): number {
  return similarity * decayFactor(decay.fn, ageMs(now, createdAt), decay.halfLifeMs);
}

/**
 * The instant (epoch ms, fractional) at which memory X (similarity `a`, written at `tX` ms) and
 * memory Y (similarity `b`, written at `tY` ms) score equally under hyperbolic decay with
 * half-life `h`: t* = tX + a·(tY − tX)/(a − b) − h (module comment). Null when a = b (equal or
 * never) or when t* is before one of them was written (no flip while both exist).
 */
export function hyperbolicFlipMs(a: number, tX: number, b: number, tY: number, h: number): number | null {
  if (a === b) return null;
  const t = tX + (a * (tY - tX)) / (a - b) - h;
  return t >= Math.max(tX, tY) ? t : null;
}

/** A validated decay request: the parsed `now` and the decay parameters. */
export interface DecayRequest {
  now: Instant;
  decay: TimeDecay;
}

/**
 * Validate the time parts of a recall query: `now` (when present) must be a canonical instant
 * (time.ts); `decay` needs `now`, `fn` ∈ {exponential, hyperbolic}, a finite `halfLifeMs` > 0,
 * and a metric other than `l2`. Returns the parsed request when `decay` is set, else null.
 * `where` names the adapter and collection. Throws INVALID_INPUT.
 */
export function validateDecay(q: Pick<RecallQuery, 'now' | 'decay'>, metric: Metric, where: string): DecayRequest | null {
  const now = q.now === undefined ? undefined : parseInstant(q.now, `${where}: now`);
  const d = q.decay;
  if (d === undefined) return null;
  const bad = (m: string) => new MemoryMatrixError('INVALID_INPUT', `${where}: decay ${m}`);
  if (typeof d !== 'object' || d === null) throw bad('must be an object { fn, halfLifeMs }');
  if (d.fn !== 'exponential' && d.fn !== 'hyperbolic') throw bad(`.fn must be 'exponential' or 'hyperbolic', got ${JSON.stringify(d.fn)}`);
  if (typeof d.halfLifeMs !== 'number' || !Number.isFinite(d.halfLifeMs) || d.halfLifeMs <= 0) throw bad(`.halfLifeMs must be a finite number > 0 (ms), got ${String(d.halfLifeMs)}`);
  if (now === undefined) throw bad('needs `now` (an explicit instant; the wall clock is never used)');
  if (metric === 'l2') throw bad('is not defined under the l2 metric: canonical l2 scores are ≤ 0, so a factor < 1 would rank older memories higher');
  return { now, decay: { fn: d.fn, halfLifeMs: d.halfLifeMs } };
}
