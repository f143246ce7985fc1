// Tie groups of a ranked result: comparator.ts judges the exact-mode rule and the first differing
// rank with them and re-exports them (C02, C05, checks/helpers/placement.ts and the runner's
// baselines import them from there).
import { type TieTolerance, tieBetween } from './tolerance';
import type { RecallHit } from './types';

/**
 * Split `hits` (in rank order) into tie groups: a hit joins the previous hit's group when their
 * scores differ by ≤ `eps` (so groups chain: 0.5, 0.5+0.8ε, 0.5+1.6ε are one group); with a
 * per-row `eps` (`QueryTolerances.tie`), by ≤ max(eps(prev), eps(hit)). A NaN score never joins
 * a group. Returns the groups in order; an empty input gives [].
 */
export function tieGroups(hits: RecallHit[], eps: TieTolerance): RecallHit[][] {
  const groups: RecallHit[][] = [];
  let current: RecallHit[] = [];
  for (const h of hits) {
    const prev = current[current.length - 1];
    if (prev !== undefined && !(Math.abs(prev.score - h.score) <= tieBetween(eps, prev.id, h.id))) {
      groups.push(current);
      current = [];
    }
    current.push(h);
  }
  if (current.length) groups.push(current);
  return groups;
}

/** One rank where the actual id is outside the expected tie group spanning it (`tieGroupViolations`). */
export interface TieGroupViolation {
  /** 1-based rank in `actual`. */
  rank: number;
  hit: RecallHit;
  /** The expected tie group whose rank span holds `rank`. */
  group: RecallHit[];
  /** 0-based rank where that group's span starts. */
  start: number;
}

/**
 * The exact-mode tie-group rule (C03; C02 reuses it for a tie group wider than k): the expected
 * `groups` (`tieGroups` of the expectation, in order) occupy consecutive rank spans; each actual
 * hit at ranks 1..min(actual.length, k) must be one of the ids of the group spanning its rank. A
 * group cut by k (or by a short result) is therefore compared as a subset: any of its members may
 * fill the ranks left. Returns the violations in rank order; [] when the rule holds. Pure.
 */
export function tieGroupViolations(groups: RecallHit[][], actual: RecallHit[], k: number): TieGroupViolation[] {
  const out: TieGroupViolation[] = [];
  const limit = Math.min(actual.length, k);
  let start = 0;
  for (const g of groups) {
    if (start >= limit) break;
    const end = Math.min(start + g.length, limit);
    const ids = new Set(g.map((h) => h.id));
    for (let i = start; i < end; i++) if (!ids.has(actual[i]!.id)) out.push({ rank: i + 1, hit: actual[i]!, group: g, start });
    start += g.length;
  }
  return out;
}

/**
 * The first 1-based rank of `actual` where the hit is not in the expected tie group (`groups`, in
 * order) spanning that rank, is a repeat, or is missing, over the first `expectedCount` ranks; else
 * `expectedCount + 1` when `actual` is longer, else null (`Comparison.firstDifferingRank`). Pure.
 */
export function tieAwareFirstDifference(groups: RecallHit[][], actual: RecallHit[], expectedCount: number): number | null {
  const seen = new Set<string>();
  let rank = 0;
  for (const g of groups) {
    const ids = new Set(g.map((h) => h.id));
    for (let j = 0; j < g.length && rank < expectedCount; j++, rank++) {
      const h = actual[rank];
      if (h === undefined || !ids.has(h.id) || seen.has(h.id)) return rank + 1;
      seen.add(h.id);
    }
  }
  if (rank < expectedCount) return rank + 1; // expectation shorter than min(k, matching)
  return actual.length > expectedCount ? expectedCount + 1 : null;
}
