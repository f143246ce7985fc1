import type { JudgedReplay, RecallHit, ScanMode } from '@memory-matrix/spec';

/** How many of the worst queries keep their full expected and actual id lists. */
export const WORST_QUERIES_KEPT = 5;

/** One of the worst queries of a replay, with both rankings (ids and canonical scores, best first). */
export interface WorstQuery {
  queryId: string;
  k: number;
  recallAtK: number;
  kendallTau: number | null;
  firstDifferingRank: number | null;
  maxAbsScoreDelta: number;
  /** The recorded oracle expectation: `[id, score]`, its first k hits (boundary ties beyond k dropped). */
  expected: Array<[string, number]>;
  /** What the target returned: `[id, score]`. */
  actual: Array<[string, number]>;
}

/**
 * Per-query figures of one golden replay, column-wise (index i of every array is query `queryIds[i]`,
 * in dataset order). Each value is the comparison the check itself made of that query (its
 * `JudgedReplay`: spec comparator.ts `compareHits` under the target's tolerances, in the mode the
 * check used), so `max(maxAbsScoreDelta)` equals the check's `maxAbsScoreDelta` figure
 * and `min(recallAtK)` its `recallAtKMin`. Scores are canonical (higher = more similar); deltas are
 * absolute score units.
 */
export interface QuerySeries {
  /** The check whose replay this is: C03 (exact scan) or C05 (ANN index scan). */
  check: 'C03' | 'C05';
  scan: ScanMode;
  queryIds: string[];
  recallAtK: number[];
  /** Largest |actual − expected score| over the query's returned ids. */
  maxAbsScoreDelta: number[];
  /** Tie-aware first 1-based rank that differs from the oracle; null when none. */
  firstDifferingRank: Array<number | null>;
  /** Kendall τ of actual vs expected ids (common ids); null when fewer than 2 are common. */
  kendallTau: Array<number | null>;
  /** Up to `WORST_QUERIES_KEPT` queries that differ from the oracle, worst first. */
  worst: WorstQuery[];
}

/** `CellReport.queries`: a series per replay that ran in the cell. */
export interface CellQueries {
  exact?: QuerySeries;
  index?: QuerySeries;
}

/**
 * Per-query figures of the replays the cell's checks judged (`CheckOutcome.replay`, delivered to
 * the result sink): `exact` from C03's exact-scan replay, `index` from C05's index-scan replay
 * (its first run; C05 judges none when the cell builds no ANN index). Nothing is compared or
 * queried again. A check that stopped with an error judged no replay, so its series is left out
 * (the check's own error says why). Returns undefined when no replay was judged.
 */
export function cellQueries(replays: readonly JudgedReplay[]): CellQueries | undefined {
  const out: CellQueries = {};
  const exact = replays.find((r) => r.check === 'C03' && r.scan === 'exact');
  const index = replays.find((r) => r.check === 'C05' && r.scan === 'index');
  if (exact) out.exact = series(exact, 'C03');
  if (index) out.index = series(index, 'C05');
  return out.exact || out.index ? out : undefined;
}

function series(replay: JudgedReplay, check: 'C03' | 'C05'): QuerySeries {
  const s: QuerySeries = { check, scan: replay.scan, queryIds: [], recallAtK: [], maxAbsScoreDelta: [], firstDifferingRank: [], kendallTau: [], worst: [] };
  const candidates: WorstQuery[] = [];
  for (const { run, expected: exp, comparison: c } of replay.queries) {
    const qid = run.query.id;
    s.queryIds.push(qid);
    s.recallAtK.push(c.recallAtK);
    s.maxAbsScoreDelta.push(c.maxAbsScoreDelta);
    s.firstDifferingRank.push(c.firstDifferingRank);
    s.kendallTau.push(c.kendallTau);
    if (c.recallAtK < 1 || c.firstDifferingRank !== null || (c.kendallTau !== null && c.kendallTau < 1)) {
      candidates.push({
        queryId: qid,
        k: run.query.k,
        recallAtK: c.recallAtK,
        kendallTau: c.kendallTau,
        firstDifferingRank: c.firstDifferingRank,
        maxAbsScoreDelta: c.maxAbsScoreDelta,
        expected: pairs(exp.hits.slice(0, run.query.k)),
        actual: pairs(run.hits),
      });
    }
  }
  s.worst = candidates.sort(worstFirst).slice(0, WORST_QUERIES_KEPT);
  return s;
}

const pairs = (hits: RecallHit[]): Array<[string, number]> => hits.map((h) => [h.id, h.score]);

/** Lowest recall first, then lowest Kendall τ, then earliest differing rank, then largest |Δscore|. */
export function worstFirst(a: WorstQuery, b: WorstQuery): number {
  const nullLast = (x: number | null, y: number | null): number => (x ?? Infinity) - (y ?? Infinity);
  return (
    a.recallAtK - b.recallAtK ||
    nullLast(a.kendallTau, b.kendallTau) ||
    nullLast(a.firstDifferingRank, b.firstDifferingRank) ||
    b.maxAbsScoreDelta - a.maxAbsScoreDelta ||
    a.queryId.localeCompare(b.queryId)
  );
}
