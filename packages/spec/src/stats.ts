import type { OracleResult } from './oracle';
import { type TieTolerance, tieBetween } from './tolerance';
import type { RecallHit } from './types';

/**
 * recall@k of `actual` against the oracle's `expected` (docs/checks.md C05), in [0, 1].
 * - Only the first k actual hits count, each distinct id once (a duplicate never counts twice).
 * - An actual hit is correct when its id is in `expected.hits` with an expected score
 *   ≥ (k-th expected score − tieEpsilon): any member of the tie group cut by k is as good as
 *   another. (The k-th expected score is that of hit min(k, expected.hits.length).) A per-row
 *   `tieEpsilon` (`QueryTolerances.tie`, tolerance.ts) uses max(tie(hit), tie(k-th hit)).
 * - The denominator is min(k, expected.matching). When it is 0, recall is 1 for an empty
 *   `actual` and 0 otherwise (rows returned where none qualify are all wrong).
 * The result is capped at 1.
 */
export function recallAtK(expected: OracleResult, actual: RecallHit[], k: number, tieEpsilon: TieTolerance): number {
  const denominator = Math.min(k, expected.matching);
  if (denominator === 0) return actual.length === 0 ? 1 : 0;
  const last = Math.min(k, expected.hits.length);
  if (last === 0) return 0;
  const kth = expected.hits[last - 1]!;
  const good = new Set<string>();
  for (const h of expected.hits) if (h.score >= kth.score - tieBetween(tieEpsilon, h.id, kth.id)) good.add(h.id);
  const counted = new Set<string>();
  for (const h of actual.slice(0, k)) if (good.has(h.id)) counted.add(h.id);
  return Math.min(1, counted.size / denominator);
}

/**
 * Kendall rank correlation between two rankings (arrays of ids, best first), over the ids
 * present in both (each list's first occurrence of an id gives its rank).
 * τ = (concordant − discordant) / (n(n − 1)/2), n = number of common ids.
 * Positions within a list are distinct, so neither ranking has ties and τ-a = τ-b here
 * (Kendall, "A New Measure of Rank Correlation", Biometrika 30, 1938; τ-b per Kendall 1945,
 * as in `scipy.stats.kendalltau`). 1 = same order, −1 = reversed. Returns null when fewer
 * than 2 ids are common (undefined). O(n²), fine for n ≤ 1000.
 */
export function kendallTau(a: string[], b: string[]): number | null {
  const rankB = new Map<string, number>();
  b.forEach((id, i) => {
    if (!rankB.has(id)) rankB.set(id, i);
  });
  const seen = new Set<string>();
  const ranks: number[] = []; // ranks in b of the common ids, in a's order
  for (const id of a) {
    if (seen.has(id)) continue;
    seen.add(id);
    const r = rankB.get(id);
    if (r !== undefined) ranks.push(r);
  }
  const n = ranks.length;
  if (n < 2) return null;
  let s = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) s += ranks[i]! < ranks[j]! ? 1 : -1;
  return s / ((n * (n - 1)) / 2);
}

/**
 * The first 1-based rank at which two id lists differ: the first i with a[i] ≠ b[i], or
 * (shorter length + 1) when one is a strict prefix of the other; null when they are equal.
 * Plain position by position; `compareHits` reports a tie-aware variant.
 */
export function firstDifferingRank(a: string[], b: string[]): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i + 1;
  return a.length === b.length ? null : n + 1;
}

/** Summary figures of a list of numbers. */
export interface Summary {
  count: number;
  mean: number;
  min: number;
  max: number;
  /** Median; the mean of the two middle values for an even count. */
  p50: number;
  /** Population standard deviation √(Σ(x − mean)² / count). */
  stdev: number;
}

/**
 * Summary of `numbers` (mean, min, max, median, population stdev). An empty list gives
 * `count: 0` and NaN for every figure (NaN serializes as `null` in JSON). NaN inputs propagate.
 */
export function summarize(numbers: readonly number[]): Summary {
  const count = numbers.length;
  if (count === 0) return { count, mean: NaN, min: NaN, max: NaN, p50: NaN, stdev: NaN };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const x of numbers) {
    sum += x;
    min = Math.min(min, x);
    max = Math.max(max, x);
  }
  const mean = sum / count;
  let ss = 0;
  for (const x of numbers) ss += (x - mean) * (x - mean);
  const sorted = Float64Array.from(numbers).sort();
  const mid = count >> 1;
  const p50 = count % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { count, mean, min, max, p50, stdev: Math.sqrt(ss / count) };
}
