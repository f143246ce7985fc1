import { redisVsimToCanonical as specRedisVsimToCanonical, redisearchToCanonical as specRedisearchToCanonical, type Metric } from '@memory-matrix/spec';

/**
 * Redis Vector Sets `VSIM … WITHSCORES` similarity s → canonical cosine similarity (DESIGN.md
 * "canonical score"; higher is more similar).
 *
 * Source: Redis docs, VSIM: "WITHSCORES … returns a floating point number representing how near
 * the element is from the query, as a similarity between 0 and 1, where 0 means the vectors are
 * opposite, and 1 means they are pointing exactly in the same direction", i.e. s = (1 + cos)/2;
 * so cos = 2s − 1. Vector Sets only compare by cosine (vectors are normalised at VADD), hence no
 * metric argument. Measured on Redis 8.0.2: s is a float32 value widened to double, so with
 * NOQUANT 2s − 1 is within 5e-7 of the float64 cosine; with int8 (Q8) within 3e-3.
 * The one implementation lives in `@memory-matrix/spec` (scores.ts); this module re-exports it
 * next to the code that reads VSIM replies (STYLE.md item 8).
 */
export const redisVsimToCanonical: (s: number) => number = specRedisVsimToCanonical;

/**
 * RediSearch `FT.SEARCH … KNN … AS dist` distance → canonical score (COSINE d → 1 − d,
 * IP d → 1 − d, L2 squared d → −√d); re-exported from spec for the RediSearch path, which this
 * adapter only detects (see README, "RediSearch").
 */
export const redisearchToCanonical: (metric: Metric, d: number) => number = specRedisearchToCanonical;
