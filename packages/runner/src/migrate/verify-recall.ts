import {
  compareHits,
  matchesFilter,
  oracleOver,
  recallAtK,
  summarize,
  tieBetween,
  tieGroups,
  toRecallQuery,
  type GoldenQuery,
  type MemoryCollection,
  type MemoryRecord,
  type Metric,
  type OracleResult,
  type RecallHit,
  type TieTolerance,
  type Tolerances,
} from '@memory-matrix/spec';
import { MAX_FAILURE_LINES, type MigrationCheck } from './types';

/** One side of the recall replay: its collection, the scan mode it is asked in, its tolerances. */
export interface RecallSide {
  target: string;
  collection: MemoryCollection;
  mode: 'exact' | 'index';
  tolerances: Tolerances;
}

/** Extra hits asked of A beyond k, so A's tie group at the k boundary is known (as the oracle's expectation carries it). */
export const TIE_PAD = 16;

/** Comparator failure kinds that count on the ANN path (as C05 counts them; recall is judged by floors). */
const ANN_KINDS = ['score', 'duplicate-id', 'nan-score', 'filter', 'unexpected-id', 'order'];

/**
 * Recall and ordering equivalence of B against A: every query is replayed on A (k + TIE_PAD, so
 * A's boundary tie group is known) and on B (k), each in its mode (exact where the target can,
 * else its index), and B's top-k is compared with A's by the spec comparator (`compareHits`):
 * - both exact: tie group by tie group (ids and order), count = min(k, rows A returned);
 * - otherwise (an ANN side): recall@k of B against A ≥ the lower per-query floor of the two
 *   targets, its mean ≥ the lower mean floor; no duplicate, no id outside the filter or the
 *   export; B may miss at most B's declared `annShortfallMax` of the rows under a filter, plus
 *   threshold rows whose float64 score is within the score tolerance of `minScore` (named in a note).
 *   A query whose whole top-k is one tie group of identical vectors is reported, not failed
 *   (HNSW may leave such clusters unreachable; see C05).
 * Scores of B's ids within tolA + tolB of A's score (|sB − sA| ≤ |sB − s*| + |s* − sA|, s* the
 * float64 score) or, for ids A did not return, of the float64 score over A's export.
 * Figures also give each side's recall@k against the exact float64 oracle over A's export.
 */
export async function verifyRecall(
  a: RecallSide,
  b: RecallSide,
  queries: GoldenQuery[],
  exported: MemoryRecord[],
  shape: { dim: number; metric: Metric; dataset: string },
  progress?: (done: number, total: number) => void,
): Promise<MigrationCheck> {
  const oracle = oracleOf(exported, shape.dim, shape.metric);
  const rows = new Map(exported.map((r) => [r.id, r]));
  const eps = Math.max(a.tolerances.tieEpsilon, b.tolerances.tieEpsilon);
  const scoreTolerance = a.tolerances.scoreTolerance + b.tolerances.scoreTolerance;
  const exact = a.mode === 'exact' && b.mode === 'exact';
  const floor = Math.min(a.tolerances.annRecallFloor, b.tolerances.annRecallFloor);
  const floorPerQuery = Math.min(a.tolerances.annRecallFloorPerQuery, b.tolerances.annRecallFloorPerQuery);
  const shortfall = b.mode === 'index' ? b.tolerances.annShortfallMax : 0;
  const c: MigrationCheck = {
    name: 'recall',
    status: 'pass',
    rule: exact
      ? `both exact: B's top-k equals A's tie group by tie group (tieEpsilon ${eps}), scores within ${scoreTolerance.toExponential(1)}`
      : `${a.target} ${a.mode} vs ${b.target} ${b.mode}: recall@k of B against A ≥ ${floorPerQuery} per query and ≥ ${floor} on average, scores within ${scoreTolerance.toExponential(1)}, shortfall ≤ ${shortfall}`,
    figures: {},
    failureCount: 0,
    failures: [],
    notes: [],
  };
  const fail = (line: string): void => {
    c.status = 'fail';
    c.failureCount++;
    if (c.failures.length < MAX_FAILURE_LINES) c.failures.push(line);
  };
  const recalls: Array<[string, number]> = [];
  const taus: number[] = [];
  const oracleA: number[] = [];
  const oracleB: number[] = [];
  let maxDelta = 0;
  let rankChanges = 0;
  for (const [i, q] of queries.entries()) {
    const aHits = await a.collection.recall({ ...toRecallQuery(q, a.mode), k: Math.min(1000, q.k + TIE_PAD) });
    const bHits = await b.collection.recall(toRecallQuery(q, b.mode));
    // Per-row tolerances (spec tolerance.ts) from the export's norms: the sum of both sides' figures, scaled.
    const tolerances = oracle.tolerancesFor(q.vector, { scoreTolerance, tieEpsilon: eps });
    const expected = withBoundaryTies(aHits, q.k, tolerances.tie);
    const cmp = compareHits(
      expected,
      bHits,
      { dataset: shape.dataset, target: b.target, queryId: q.id },
      {
        k: q.k,
        mode: exact ? 'exact' : 'ann',
        tieEpsilon: eps,
        scoreTolerance,
        tolerances,
        scoreOf: (id) => oracle.score(id, q.vector),
        matches: (id) => rows.has(id) && matchesFilter(rows.get(id)!, q.filter),
      },
    );
    maxDelta = Math.max(maxDelta, cmp.maxAbsScoreDelta);
    if (cmp.firstDifferingRank !== null) rankChanges++;
    if (cmp.kendallTau !== null) taus.push(cmp.kendallTau);
    recalls.push([q.id, cmp.recallAtK]);
    const truth = oracle.topK({ vector: q.vector, k: q.k, filter: q.filter, minScore: q.minScore }, eps);
    oracleA.push(recallAtK(truth, aHits.slice(0, q.k), q.k, tolerances.tie));
    oracleB.push(recallAtK(truth, bHits, q.k, tolerances.tie));
    if (exact) {
      for (const f of cmp.failures) fail(`${q.id}: [${f.kind}] ${f.message}`);
    } else {
      for (const f of cmp.failures.filter((x) => ANN_KINDS.includes(x.kind))) fail(`${q.id}: [${f.kind}] ${f.message}`);
      const want = cmp.expectedCount;
      // Under a threshold, a row whose float64 score is within the score tolerance of minScore may
      // be in on one side and out on the other (an int8-quantized score crosses the line): such
      // rows of A that B left out explain a short count; they are named in a note, not failed.
      const inB = new Set(bHits.map((h) => h.id));
      const atThreshold =
        q.minScore === undefined ? [] : aHits.slice(0, want).filter((h) => !inB.has(h.id) && Math.abs((oracle.score(h.id, q.vector) ?? -Infinity) - q.minScore!) <= tolerances.score(h.id));
      if (bHits.length + atThreshold.length < want - Math.floor(shortfall * want))
        fail(`${q.id}: [count] ${b.target} returned ${bHits.length} results, ${a.target} returned ${want} (allowed shortfall ${shortfall})`);
      else if (bHits.length < want && atThreshold.length)
        c.notes.push(
          `${q.id}: ${a.target} returned ${want}, ${b.target} ${bHits.length}: ${atThreshold.map((h) => `${h.id} (float64 score ${oracle.score(h.id, q.vector)!.toFixed(6)}, ${a.target} ${h.score.toFixed(6)})`).join(', ')} at the threshold ${q.minScore} within the score tolerance ${scoreTolerance.toExponential(1)}`,
        );
      else if (bHits.length > want) c.notes.push(`${q.id}: ${b.target} returned ${bHits.length} results, ${a.target} only ${want} (A's index fell short; B has more, not fewer)`);
      if (cmp.recallAtK < floorPerQuery) {
        const cluster = expected.hits.length >= q.k && tieGroups(expected.hits, tolerances.tie)[0]!.length >= q.k;
        if (cluster)
          c.notes.push(
            `${q.id}: recall@${q.k} ${cmp.recallAtK.toFixed(3)} < ${floorPerQuery}, but A's whole top-k is one group of identical vectors (HNSW may not reach such a cluster): reported, not failed`,
          );
        else fail(`${q.id}: [recall] recall@${q.k} of ${b.target} against ${a.target} ${cmp.recallAtK.toFixed(3)} < per-query floor ${floorPerQuery}`);
      }
    }
    progress?.(i + 1, queries.length);
  }
  const s = summarize(recalls.map(([, r]) => r));
  if (!exact && s.count > 0 && s.mean < floor) fail(`mean recall@k of ${b.target} against ${a.target} ${s.mean.toFixed(4)} over ${s.count} queries < floor ${floor}`);
  const worst = recalls.reduce((w, e) => (e[1] < w[1] ? e : w), ['-', 2] as [string, number]);
  c.figures = {
    queries: queries.length,
    comparison: exact ? 'exact' : 'ann',
    recallBvsAMean: s.mean,
    recallBvsAMin: s.min,
    worstQuery: worst[0],
    queriesWithRankChange: rankChanges,
    kendallTauMean: taus.length ? summarize(taus).mean : null,
    maxAbsScoreDelta: maxDelta,
    scoreTolerance,
    tieEpsilon: eps,
    oracleRecallA: summarize(oracleA).mean,
    oracleRecallB: summarize(oracleB).mean,
  };
  return c;
}

/** A's hits as the comparator's expectation: the top k plus the boundary tie group (`eps`: one figure, or per row as `QueryTolerances.tie`); `matching` = how many A returned. */
export function withBoundaryTies(hits: RecallHit[], k: number, eps: TieTolerance): OracleResult {
  if (hits.length <= k) return { hits, matching: hits.length };
  const kth = hits[k - 1]!;
  let end = k;
  while (end < hits.length && Math.abs(hits[end]!.score - kth.score) <= tieBetween(eps, hits[end]!.id, kth.id)) end++;
  return { hits: hits.slice(0, end), matching: hits.length };
}

/** The exact float64 oracle over the exported records (the real store's content, not the golden files): spec's `oracleOver`. */
const oracleOf = oracleOver;
