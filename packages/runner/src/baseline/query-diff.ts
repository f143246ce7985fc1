import { kendallTau, tieGroups, type RecallHit } from '@memory-matrix/spec';

/** One id whose rank moved beyond its baseline tie group: 1-based ranks, `shift` = signed ranks (+ = lower in the candidate). */
export interface RankChange {
  id: string;
  from: number;
  to: number;
  shift: number;
}

/**
 * Baseline vs candidate result of one query (both canonical scores, higher = more similar).
 * - `overlap`: tie-aware |A ∩ B| / n in [0, 1], n = min(k, max(|A|, |B|)); 1 when both are empty.
 * - `common`: ids in both top-k lists; `tieSwaps`: boundary swaps excused as ties (see `diffQuery`).
 * - `missing` / `added`: ids only in the baseline / only in the candidate, ties excused ones left out.
 * - `rankChanges`: common ids that landed outside their baseline tie group's rank span.
 * - `maxRankShift`: largest |shift| (0 when none).
 * - `scoreDeltas`: candidate − baseline score of every common id (score units), ids in baseline order.
 * - `maxAbsScoreDelta` and its id (`null` when no id is common).
 * - `kendallTau`: spec `kendallTau` of the two id lists (common ids); null when < 2 are common.
 */
export interface QueryDiff {
  query: string;
  k: number;
  baselineCount: number;
  candidateCount: number;
  overlap: number;
  common: number;
  tieSwaps: number;
  missing: string[];
  added: string[];
  rankChanges: RankChange[];
  maxRankShift: number;
  scoreDeltas: { ids: string[]; deltas: number[] };
  maxAbsScoreDelta: number;
  maxDeltaId: string | null;
  kendallTau: number | null;
}

/** First occurrence of each id, at most k hits (a repeated id never counts twice). */
function topK(hits: RecallHit[], k: number): RecallHit[] {
  const seen = new Set<string>();
  const out: RecallHit[] = [];
  for (const h of hits) {
    if (out.length >= k) break;
    if (seen.has(h.id)) continue;
    seen.add(h.id);
    out.push(h);
  }
  return out;
}

/** id → 1-based [first, last] rank span of its tie group (spec `tieGroups`, chained within `eps`). */
function tieSpans(hits: RecallHit[], eps: number): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  let start = 1;
  for (const g of tieGroups(hits, eps)) {
    const span: [number, number] = [start, start + g.length - 1];
    for (const h of g) spans.set(h.id, span);
    start += g.length;
  }
  return spans;
}

/**
 * Score range [lowest, highest] of the last tie group of a list cut by k (spec `tieGroups`, chained
 * within `eps`); null when the list is shorter than k (nothing was cut).
 */
function boundaryRange(hits: RecallHit[], k: number, eps: number): [number, number] | null {
  if (hits.length < k || hits.length === 0) return null;
  const groups = tieGroups(hits, eps);
  const last = groups[groups.length - 1]!;
  return [last[last.length - 1]!.score, last[0]!.score];
}

/**
 * Compare one query's candidate hits B with its baseline hits A (each cut to its first k distinct ids).
 * Rules (docs/design.md "tie group": order inside a tie group is not a difference; the group cut by k is
 * compared as a subset):
 * - overlap = min(1, (|A ∩ B| + tieSwaps) / n), n = min(k, max(|A|, |B|)); n = 0 gives 1.
 * - tieSwaps (ties across k): when A was cut by k, its last tie group (`tieGroups`, scores
 *   [lo, hi]) may continue past k. An id only in B whose candidate score is in [lo − ε, hi + ε] is
 *   another member of that group, standing for a member only in A of the same group:
 *   min(#such in B, #such in A) pairs are excused (left out of `missing` / `added`). A short B is
 *   never excused for being short.
 * - rank change of a common id: its candidate rank r outside the rank span [s, e] of its baseline
 *   tie group; shift = r − e when r > e, r − s when r < s (0 inside the span).
 * - score delta of a common id: candidate score − baseline score.
 * Pure; never throws.
 */
export function diffQuery(query: string, k: number, baseline: RecallHit[], candidate: RecallHit[], tieEpsilon: number): QueryDiff {
  const A = topK(baseline, k);
  const B = topK(candidate, k);
  const aById = new Map(A.map((h, i) => [h.id, { score: h.score, rank: i + 1 }]));
  const bById = new Map(B.map((h, i) => [h.id, { score: h.score, rank: i + 1 }]));
  const n = Math.min(k, Math.max(A.length, B.length));

  const onlyA = A.filter((h) => !bById.has(h.id)).map((h) => h.id);
  const onlyB = B.filter((h) => !aById.has(h.id)).map((h) => h.id);
  const common = A.length - onlyA.length;
  // Ties across k: A's boundary tie group continues past k, so an id only in B whose score lies in
  // that group's range (± eps) is another member of it, as good as the member A kept.
  let tieSwaps = 0;
  let missing = onlyA;
  let added = onlyB;
  const edge = boundaryRange(A, k, tieEpsilon);
  if (edge) {
    const [lo, hi] = edge;
    const tied = onlyB.filter((id) => {
      const sc = bById.get(id)!.score;
      return sc >= lo - tieEpsilon && sc <= hi + tieEpsilon;
    });
    // Each tied newcomer stands for one member of A's boundary group that B left out (lowest ranks first).
    const leftOut = onlyA.filter((id) => aById.get(id)!.score <= hi + tieEpsilon && aById.get(id)!.score >= lo - tieEpsilon);
    tieSwaps = Math.min(tied.length, leftOut.length);
    const dropA = new Set(leftOut.slice(leftOut.length - tieSwaps));
    const dropB = new Set(tied.slice(0, tieSwaps));
    missing = onlyA.filter((id) => !dropA.has(id));
    added = onlyB.filter((id) => !dropB.has(id));
  }
  const overlap = n === 0 ? 1 : Math.min(1, (common + tieSwaps) / n);

  const spans = tieSpans(A, tieEpsilon);
  const rankChanges: RankChange[] = [];
  const ids: string[] = [];
  const deltas: number[] = [];
  let maxAbsScoreDelta = 0;
  let maxDeltaId: string | null = null;
  for (const [id, a] of aById) {
    const b = bById.get(id);
    if (!b) continue;
    const [s, e] = spans.get(id)!;
    const shift = b.rank > e ? b.rank - e : b.rank < s ? b.rank - s : 0;
    if (shift !== 0) rankChanges.push({ id, from: a.rank, to: b.rank, shift });
    const d = b.score - a.score;
    ids.push(id);
    deltas.push(d);
    if (maxDeltaId === null || Math.abs(d) > maxAbsScoreDelta) {
      maxAbsScoreDelta = Math.abs(d);
      maxDeltaId = id;
    }
  }
  return {
    query,
    k,
    baselineCount: A.length,
    candidateCount: B.length,
    overlap,
    common,
    tieSwaps,
    missing,
    added,
    rankChanges,
    maxRankShift: rankChanges.reduce((m, r) => Math.max(m, Math.abs(r.shift)), 0),
    scoreDeltas: { ids, deltas },
    maxAbsScoreDelta,
    maxDeltaId,
    kendallTau: kendallTau(
      A.map((h) => h.id),
      B.map((h) => h.id),
    ),
  };
}
