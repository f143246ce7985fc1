import { tieGroups, tieGroupViolations } from '../../comparator';
import { MemoryMatrixError } from '../../errors';
import { ExactOracle, type OracleResult } from '../../oracle';
import type { TieTolerance } from '../../tolerance';
import { MAX_RECALL_K, type MemoryRecord, type Metric, type RecallHit } from '../../types';

/*
 * Where the exact oracle puts a memory in the answer to a query (usually its own embedding), and
 * whether a backend's answer puts it there. No check may assume a memory is its own nearest
 * neighbour: under inner product a short vector loses to a long one pointing the same way, and
 * under any metric a memory can have exact or near duplicates (issue 31, kinds 1 and 3).
 */

/**
 * The tie group holding memory `id` in the oracle's full ranking of one query (score descending,
 * ties by id ascending; groups by `tieGroups` with the tie epsilon): its 0-based rank span
 * [`start`, `end`), so a correct backend returns `id` at a 1-based rank in `start + 1 … end`.
 * `score`: the oracle's float64 canonical score of `id`; `first`: the size of the oracle's rank-1
 * tie group (`start` 0 means `id` is among its nearest neighbours). `tie(id)`: the query's per-row
 * tie epsilon of the tolerance model (tolerance.ts: the declared figure scaled by the row's norms and
 * the dimension), the one the groups were formed with; pass it to `placementProblem`.
 */
export interface Placement {
  id: string;
  start: number;
  end: number;
  score: number;
  first: number;
  tie: (id: string) => number;
}

/**
 * An `ExactOracle` over exactly `records` (a scratch collection's contents, in any order), each
 * `embedding` a `Float32Array` of length `dim`, under `metric`. Throws what `ExactOracle` throws
 * (INVALID_INPUT for a duplicate or empty id, DIMENSION_MISMATCH, INVALID_VECTOR).
 */
export function oracleOver(records: readonly MemoryRecord[], dim: number, metric: Metric): ExactOracle {
  const vectors = new Float32Array(records.length * dim);
  records.forEach((r, i) => {
    if (r.embedding.length !== dim) throw new MemoryMatrixError('DIMENSION_MISMATCH', `oracleOver: memory ${r.id} has ${r.embedding.length} components, expected ${dim}`);
    vectors.set(r.embedding, i * dim);
  });
  return new ExactOracle({
    ids: records.map((r) => r.id),
    namespaces: records.map((r) => r.namespace),
    kinds: records.map((r) => r.kind),
    metadata: records.map((r) => r.metadata),
    createdAt: records.map((r) => r.createdAt),
    vectors,
    dim,
    metric,
  });
}

/**
 * Where `oracle` puts row `id` for an unfiltered query of `vector` (`Float32Array` of length
 * `oracle.dim`), with the declared tie epsilon `eps` ≥ 0 at unit magnitude, scaled per row by the
 * tolerance model (`ExactOracle.tolerancesFor`). Cost: one full ranking (n scores and a sort).
 * Throws INVALID_INPUT when `id` is not a row of `oracle`; what `ExactOracle.topK` throws.
 */
export function placementOf(oracle: ExactOracle, id: string, vector: Float32Array, eps: number): Placement {
  if (!oracle.has(id)) throw new MemoryMatrixError('INVALID_INPUT', `placementOf: ${id} is not a row of the oracle`);
  const tie = oracle.tolerancesFor(vector, { scoreTolerance: eps, tieEpsilon: eps }).tie;
  const groups = tieGroups(oracle.topK({ vector, k: oracle.size }, 0).hits, tie);
  let start = 0;
  for (const g of groups) {
    const hit = g.find((h) => h.id === id);
    if (hit) return { id, start, end: start + g.length, score: hit.score, first: groups[0]!.length, tie };
    start += g.length;
  }
  throw new MemoryMatrixError('INVALID_INPUT', `placementOf: ${id} missing from the oracle's full ranking`); // unreachable: every row is ranked
}

/**
 * The k a query needs for `p`'s whole tie group to fit in its answer: max(`minK`, `p.end`), capped
 * at the contract's `MAX_RECALL_K` (beyond it the group may be cut by k or lie past it entirely;
 * `placementProblem` judges both).
 */
export function reachK(p: Placement, minK: number): number {
  return Math.min(MAX_RECALL_K, Math.max(minK, p.end));
}

/** Ranks of a placement for a message: `rank 3` or `ranks 3–7`. */
export function spanWords(start: number, end: number): string {
  return end - start === 1 ? `rank ${start + 1}` : `ranks ${start + 1}–${end}`;
}

/**
 * Exact-path judgement of `hits` (a backend's answer, rank order, to a top-`k` query) about memory
 * `p.id`, against `expected` = `oracle.topK(query, eps)` of the same query and `p` = `placementOf`
 * it. The answer holds when:
 * - ranks 1 … min(`p.end`, k) follow the tie-group rule (`tieGroupViolations`: each rank holds an
 *   id of the oracle's tie group spanning it, a group cut by k compared as a subset), so a wrong
 *   memory ahead of `p.id` fails even when `p.id` itself is where it belongs;
 * - `p.id` is returned at most once, and with a finite score;
 * - `p.end` ≤ k: `p.id` is returned, at a rank in `p.start + 1 … p.end`;
 *   `p.start` < k < `p.end` (its group cut by k): `p.id` may be absent, and when present lies in that span;
 *   `p.start` ≥ k: `p.id` is not returned (the oracle ranks k memories above it by more than `eps`).
 * Returns a message for the first problem (a repeat, `p.id` missing or out of its span, then the
 * first tie-group violation up to its span), or null when the answer holds. Pure.
 */
export function placementProblem(expected: OracleResult, p: Placement, hits: readonly RecallHit[], k: number, eps: TieTolerance = p.tie): string | null {
  const rank = hits.findIndex((h) => h.id === p.id);
  const times = hits.filter((h) => h.id === p.id).length;
  const where = `the oracle places it at ${spanWords(p.start, p.end)} (score ${p.score}); rank 1 is ${hits[0]?.id ?? 'nothing'}`;
  if (times > 1) return `${p.id} is returned ${times} times (first at rank ${rank + 1}); ${where}`;
  if (rank >= 0 && !Number.isFinite(hits[rank]!.score)) return nonFinite(p, hits, rank);
  if (p.end <= k && rank < 0) return `${p.id} is not returned in the top ${k} (${hits.length} hits); ${where}`;
  if (rank >= 0 && (rank < p.start || rank >= p.end)) return `${p.id} is at rank ${rank + 1}; ${where}`;
  const v = tieGroupViolations(tieGroups(expected.hits, eps), hits.slice(0, Math.min(p.end, k)), k)[0];
  if (!v) return null;
  const ids = v.group.map((h) => h.id);
  const listed = ids.length <= 6 ? ids.join(', ') : `${ids.slice(0, 6).join(', ')} … and ${ids.length - 6} more`;
  return `rank ${v.rank} is ${v.hit.id}, not in the oracle's tie group at ${spanWords(v.start, v.start + ids.length)} (${listed}); ${p.id} is ${rank < 0 ? 'not returned' : `at rank ${rank + 1}`}, as the oracle places it (${spanWords(p.start, p.end)}, score ${p.score})`;
}

/**
 * Index-path (ANN) judgement of a top-`k` answer about memory `p.id`: an approximate index may miss
 * memories, so the rule asks only what a good index finds (a returned `p.id` must have a finite
 * score). `p.start` < k: `p.id` is returned at a
 * rank ≤ min(`p.end`, k) (earlier is allowed: the index may have missed a nearer memory), or its
 * group is cut by k and the whole answer is k members of the oracle's tie groups (`cutByTieWall`'s
 * rule); `p.start` ≥ k (the oracle ranks k memories above it): the rank-1 hit is one of the
 * oracle's rank-1 tie group. Returns a message, or null when it holds. Pure.
 */
export function indexPlacementProblem(expected: OracleResult, p: Placement, hits: readonly RecallHit[], k: number, eps: TieTolerance = p.tie): string | null {
  const rank = hits.findIndex((h) => h.id === p.id);
  const where = `the oracle places it at ${spanWords(p.start, p.end)} (score ${p.score})`;
  const groups = tieGroups(expected.hits, eps);
  if (p.start >= k) {
    const first = groups[0] ?? [];
    if (hits[0] && first.some((h) => h.id === hits[0]!.id)) return null;
    return `rank 1 is ${hits[0]?.id ?? 'nothing'}, not in the oracle's rank-1 tie group (${first.map((h) => h.id).join(', ')}); ${p.id} itself lies beyond the top ${k}: ${where}`;
  }
  if (rank >= 0 && !Number.isFinite(hits[rank]!.score)) return nonFinite(p, hits, rank);
  if (rank >= 0 && rank < Math.min(p.end, k)) return null;
  if (rank < 0 && p.end > k && hits.length === k && tieGroupViolations(groups, [...hits], k).length === 0) return null;
  return `${p.id} is ${rank < 0 ? `not in the top ${k}` : `at rank ${rank + 1}`}; ${where}; rank 1 is ${hits[0]?.id ?? 'nothing'}`;
}

/**
 * Per record of `probes`, the k a recall of its own embedding needs to reach it in a store holding
 * `held` and any of `probes` (disjoint ids; `Float32Array`s of length `dim`, under `metric`):
 * `reachK` of its placement in the exact oracle over both (the most rows that can rank above it),
 * at least `minK`. Same order as `probes`; [] for no probes. Throws what `oracleOver` throws.
 */
export function probeKs(held: readonly MemoryRecord[], probes: readonly MemoryRecord[], dim: number, metric: Metric, eps: number, minK: number): number[] {
  if (probes.length === 0) return [];
  const oracle = oracleOver([...held, ...probes], dim, metric);
  return probes.map((r) => reachK(placementOf(oracle, r.id, r.embedding, eps), minK));
}

/** The message for `p.id` returned at 0-based `rank` with a NaN or ±Infinity score. */
function nonFinite(p: Placement, hits: readonly RecallHit[], rank: number): string {
  return `${p.id} is returned at rank ${rank + 1} with the non-finite score ${hits[rank]!.score}; the oracle scores it ${p.score} at ${spanWords(p.start, p.end)}`;
}
