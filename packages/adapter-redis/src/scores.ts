import { distanceToCanonical, type ScoreConversion } from '@memory-matrix/spec';

/**
 * Redis Vector Sets `VSIM … WITHSCORES` similarity s → canonical cosine similarity (docs/design.md
 * "canonical score"; higher is more similar).
 *
 * Source: Redis docs, VSIM: "WITHSCORES … returns a floating point number representing how near
 * the element is from the query, as a similarity between 0 and 1, where 0 means the vectors are
 * opposite, and 1 means they are pointing exactly in the same direction", i.e. s = (1 + cos)/2;
 * so cos = 2s − 1. Vector Sets only compare by cosine (vectors are normalised at VADD), hence no
 * metric argument. Measured on Redis 8.0.2: s is a float32 value widened to double, so with
 * NOQUANT 2s − 1 is within 5e-7 of the float64 cosine; with int8 (Q8) within 3e-3.
 */
export function redisVsimToCanonical(s: number): number {
  return 2 * s - 1;
}

/**
 * RediSearch `FT.SEARCH … KNN … AS dist` distance → canonical score, for the RediSearch path,
 * which this adapter only detects (see README, "RediSearch").
 * Source: Redis docs, "Vector search concepts" → distance metrics: COSINE d = 1 − cosine
 * similarity, IP d = 1 − inner product, L2 d = squared Euclidean distance (the returned value
 * has no square root; RediSearch issue #3416 corrected the docs' formula accordingly).
 * - `cosine` (COSINE): d → 1 − d
 * - `ip`     (IP):     d → 1 − d
 * - `l2`     (L2):     d → −√d (INVALID_INPUT for d < 0)
 */
export const redisearchToCanonical = distanceToCanonical({ cosine: 'one-minus', ip: 'one-minus', l2: 'negative-sqrt' }, 'redisearchToCanonical');

/** The driver's score conversion (`BackendDriver.scores`): Vector Sets compare by cosine only, so the metric is ignored. */
export const REDIS_SCORES: ScoreConversion = {
  formula: 'Redis VSIM WITHSCORES s = (1 + cos)/2 → 2s − 1 (Redis docs, VSIM); cosine only',
  toCanonical: (_metric, s) => redisVsimToCanonical(s),
};
