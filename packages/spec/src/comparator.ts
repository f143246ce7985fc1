import type { OracleResult } from './oracle';
import { kendallTau, recallAtK } from './stats';
import { tieAwareFirstDifference, tieGroups, tieGroupViolations } from './tie-groups';
import type { QueryTolerances, TieTolerance } from './tolerance';
import type { Metric, RecallHit } from './types';

export { tieGroups, tieGroupViolations, type TieGroupViolation } from './tie-groups';

/** The failure kinds `compareHits` emits. */
export type ComparisonFailureKind =
  | 'count' // returned ≠ min(k, matching)
  | 'duplicate-id' // an id returned twice
  | 'nan-score' // NaN or ±Infinity score
  | 'order' // a score higher than the one before it
  | 'tie-group' // exact mode: an id outside the expected tie group spanning its rank
  | 'score' // |score − expected| > the pair's score tolerance (tolerance.ts)
  | 'filter' // an id outside the query's filter
  | 'unexpected-id'; // an id that is not a memory of the dataset

/**
 * A failure kind: one of the comparator's, or a check-level kind a check names itself
 * (e.g. `recall`, `roundtrip`, `self-recall`, `determinism`).
 */
export type FailureKind = ComparisonFailureKind | (string & {});

/**
 * One failed assertion about one query on one target. `message` is a full line a user can act
 * on: it names the dataset, query, target, rank, id, expected and actual values.
 */
export interface Failure {
  dataset: string;
  target: string;
  queryId: string;
  kind: FailureKind;
  /** 1-based rank in the actual result, when the failure is about one rank. */
  rank?: number;
  id?: string;
  expected?: unknown;
  actual?: unknown;
  message: string;
  /**
   * Where the failure happened, for `knownFailures` scopes (runner report/known.ts): the scan path
   * of the recall (`exact` | `index`), the metric of the collection it ran on, whether the query
   * had a filter (`filtered`) or a `minScore` (`threshold`). Absent when the check does not know it
   * or the failure is about no one recall (a durability audit, a write); a failure without a field
   * is outside every known-failure scope that restricts that field.
   */
  scan?: 'exact' | 'index';
  metric?: Metric;
  filtered?: boolean;
  threshold?: boolean;
  /**
   * C31 only: the name of the golden filter-set case the failed recall ran (golden-data/FORMAT.md
   * "Filter sets"), for a `knownFailures` scope's `filterCases`. Absent on every other check and on
   * C31's path-level index shortfall (about no one case).
   */
  filterCase?: string;
  /**
   * C05's mean-recall failure only (a mean over threshold and non-threshold queries alike): the mean
   * recall@k in [0, 1] over the queries without `minScore`, absent when there are none. A known-failure
   * scope's `minRecall` judges this figure instead of `actual` when it is present (runner
   * report/known-scope.ts), so a defect that empties the threshold queries is judged by what it leaves.
   */
  recallWithoutThreshold?: number;
}

/** The where-fields of a `Failure` (`scan`, `metric`, `filtered`, `threshold`): what a `CompareContext` may carry into every failure it emits. */
export type FailureWhere = Pick<Failure, 'scan' | 'metric' | 'filtered' | 'threshold'>;

/** Figures and failures of one query's actual result against its expectation. */
export interface Comparison {
  /** `stats.recallAtK` of the actual hits (ties at the k boundary count). */
  recallAtK: number;
  /** Largest |actual − expected score| over the returned ids whose expected score is known; 0 when none. */
  maxAbsScoreDelta: number;
  /** First 1-based rank where the actual id is not in the expected tie group spanning that rank (or is a repeat, or one list ends); null when none. */
  firstDifferingRank: number | null;
  /** `stats.kendallTau` of actual ids vs expected ids (common ids only); null when < 2 common. */
  kendallTau: number | null;
  /** Number of hits returned. */
  returned: number;
  /** min(k, expected.matching): the number a correct backend returns. */
  expectedCount: number;
  failures: Failure[];
}

/**
 * Where a comparison happens: dataset name, `backend@version`, query id (for messages), and the
 * where-fields (`FailureWhere`: scan path, metric, filtered, threshold) copied into every failure.
 */
export interface CompareContext extends FailureWhere {
  dataset: string;
  target: string;
  queryId: string;
}

/**
 * How to compare.
 * - `mode: 'exact'`: ids must match the expectation tie group by tie group (C03).
 *   `mode: 'ann'`: no tie-group rule; recall is judged by the caller against a floor (C05).
 * - `tieEpsilon`: neighbouring expected scores within this form one tie group.
 * - `scoreTolerance`: max |actual − expected| canonical score (absolute).
 * - `tolerances`: per-row tolerances of this query (tolerance.ts, e.g.
 *   `ExactOracle.tolerancesFor(query.vector, target tolerances)`); when given they replace the
 *   two uniform figures above: row id's score must be within `tolerances.score(id)` and rows a, b
 *   tie when their expected scores differ by ≤ max(tie(a), tie(b)) (tie groups, recall@k).
 * - `scoreOf(id)`: float64 expected score of any dataset row (e.g. `ExactOracle.score`), used for
 *   ids outside `expected.hits`; `undefined` means the id is not in the dataset (`unexpected-id`).
 *   Without it, ids outside `expected.hits` are not score-checked.
 * - `matches(id)`: whether the row passes the query's filter; without it no filter check.
 */
export interface CompareOptions {
  k: number;
  mode: 'exact' | 'ann';
  tieEpsilon: number;
  scoreTolerance: number;
  tolerances?: QueryTolerances;
  scoreOf?: (id: string) => number | undefined;
  matches?: (id: string) => boolean;
}

/** Slack allowed when checking that scores are non-increasing (absolute). */
export const ORDER_SLACK = 1e-12;

/**
 * Compare one query's `actual` hits with its `expected` oracle result (an `OracleResult` or an
 * expectation entry). Rules, each failure naming dataset, query, target, rank and id:
 * - count: `actual.length` = min(k, expected.matching);
 * - no duplicate ids; every score finite; scores non-increasing (slack `ORDER_SLACK`);
 * - exact mode only: expected tie groups (`tieGroups(expected.hits, tie)`, tie = `tolerances.tie`
 *   or `tieEpsilon`) occupy their rank spans in order; the actual ids in a span must be exactly
 *   that group's ids, the group cut by k (or by a short result) compared as a subset;
 * - every returned id's |score − expected score| ≤ its tolerance (`tolerances.score(id)`, else
 *   `scoreTolerance`; expected score from `expected.hits`, else `scoreOf`);
 * - `matches`, when given, must hold for every returned id.
 * Pure; never throws for bad results (they become failures).
 */
export function compareHits(expected: OracleResult, actual: RecallHit[], ctx: CompareContext, opts: CompareOptions): Comparison {
  const { k } = opts;
  const tie: TieTolerance = opts.tolerances ? (id) => opts.tolerances!.tie(id) : opts.tieEpsilon;
  const toleranceOf = (id: string): number => (opts.tolerances ? opts.tolerances.score(id) : opts.scoreTolerance);
  const failures: Failure[] = [];
  const fail = (f: Omit<Failure, 'dataset' | 'target' | 'queryId' | 'message'>, detail: string): void => {
    failures.push({ ...ctx, ...f, message: `${ctx.dataset} ${ctx.queryId} @ ${ctx.target}: ${detail}` });
  };
  const expectedCount = Math.min(k, expected.matching);
  const expectedById = new Map<string, { score: number; rank: number }>();
  expected.hits.forEach((h, i) => {
    if (!expectedById.has(h.id)) expectedById.set(h.id, { score: h.score, rank: i + 1 });
  });

  if (actual.length !== expectedCount) {
    fail(
      { kind: 'count', expected: expectedCount, actual: actual.length },
      `returned ${actual.length} results, expected ${expectedCount} (the smaller of k ${k} and ${expected.matching} rows that qualify)`,
    );
  }

  const firstRank = new Map<string, number>(); // id → first 1-based rank
  actual.forEach((h, i) => {
    const r = i + 1;
    const before = firstRank.get(h.id);
    if (before === undefined) firstRank.set(h.id, r);
    else fail({ kind: 'duplicate-id', rank: r, id: h.id, expected: 'unique ids', actual: h.id }, `rank ${r} id ${h.id} repeats the id already returned at rank ${before}`);
    if (!Number.isFinite(h.score)) {
      fail({ kind: 'nan-score', rank: r, id: h.id, expected: 'a finite score', actual: h.score }, `rank ${r} id ${h.id} has a non-finite score ${h.score}`);
    }
    const prev = actual[i - 1];
    if (prev !== undefined && Number.isFinite(prev.score) && Number.isFinite(h.score) && h.score > prev.score + ORDER_SLACK) {
      fail(
        { kind: 'order', rank: r, id: h.id, expected: `≤ ${prev.score}`, actual: h.score },
        `rank ${r} id ${h.id} score ${h.score} is higher than rank ${r - 1} id ${prev.id} score ${prev.score}; scores must be non-increasing`,
      );
    }
  });

  const groups = tieGroups(expected.hits, tie);
  if (opts.mode === 'exact') {
    for (const v of tieGroupViolations(groups, actual, k)) {
      const { rank, hit: h, group: g, start } = v;
      const ids = g.map((x) => x.id);
      const where = expectedById.get(h.id);
      const span = g.length === 1 ? `rank ${start + 1}` : `ranks ${start + 1}–${start + g.length}`;
      const known = where ? `the expectation ranks it ${where.rank} with score ${where.score}` : `it is not among the expected top ${k} (boundary ties included)`;
      fail({ kind: 'tie-group', rank, id: h.id, expected: ids, actual: h.id }, `rank ${rank} id ${h.id} is not in the expected tie group at ${span} (${listIds(ids)}); ${known}`);
    }
  }

  let maxAbsScoreDelta = 0;
  actual.forEach((h, i) => {
    const r = i + 1;
    if (!Number.isFinite(h.score)) return;
    const exp = expectedById.get(h.id)?.score ?? opts.scoreOf?.(h.id);
    if (exp === undefined) {
      if (opts.scoreOf) fail({ kind: 'unexpected-id', rank: r, id: h.id, expected: 'an id of the dataset', actual: h.id }, `rank ${r} id ${h.id} is not a memory of dataset ${ctx.dataset}`);
      return;
    }
    const delta = Math.abs(h.score - exp);
    maxAbsScoreDelta = Math.max(maxAbsScoreDelta, delta);
    const tol = toleranceOf(h.id);
    if (!(delta <= tol)) {
      fail(
        { kind: 'score', rank: r, id: h.id, expected: exp, actual: h.score },
        `rank ${r} id ${h.id} score ${fmtScore(h.score, tol)} expected ${fmtScore(exp, tol)} (|Δ| ${delta.toExponential(1)} > ${fmtTolerance(tol)})`,
      );
    }
  });

  const matches = opts.matches;
  if (matches) {
    actual.forEach((h, i) => {
      if (matches(h.id)) return;
      fail({ kind: 'filter', rank: i + 1, id: h.id, expected: 'a row passing the filter', actual: h.id }, `rank ${i + 1} id ${h.id} does not pass the query's filter`);
    });
  }

  return {
    recallAtK: recallAtK(expected, actual, k, tie),
    maxAbsScoreDelta,
    firstDifferingRank: tieAwareFirstDifference(groups, actual, expectedCount),
    kendallTau: kendallTau(
      actual.map((h) => h.id),
      expected.hits.map((h) => h.id),
    ),
    returned: actual.length,
    expectedCount,
    failures,
  };
}

/** One line for a report: `[kind] message`. */
export function formatFailure(f: Failure): string {
  return `[${f.kind}] ${f.message}`;
}

function listIds(ids: string[], max = 8): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} … and ${ids.length - max} more`;
}

/** A tolerance in a message: `1e-5` as before for the catalog's round figures, 3 significant digits otherwise. */
function fmtTolerance(t: number): string {
  const short = t.toExponential();
  return short.length <= 8 ? short : t.toExponential(2);
}

/** A score with enough decimals to show differences at the tolerance's scale (≥ 5). */
function fmtScore(x: number, tolerance: number): string {
  if (Math.abs(x) >= 1e6) return x.toPrecision(12);
  const scale = tolerance > 0 ? Math.ceil(-Math.log10(tolerance)) : 15;
  const decimals = Math.min(15, Math.max(5, scale));
  return x.toFixed(decimals);
}
