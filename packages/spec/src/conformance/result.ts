import type { Comparison, Failure } from '../comparator';
import type { ExpectationEntry } from '../expectation';
import type { Figure, FigureTable } from '../figures';
import type { QueryRun, ScanMode } from './types';

export type { Figure, FigureTable };

/**
 * A check's verdict in one cell. `known`: the check failed, and every failure lies inside the
 * scope of this target's catalog `knownFailures` entry for it (report/known.ts in the runner; the
 * only way a failure stops failing the run).
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'known';

/**
 * One scope item of a `knownFailures` entry: the failures the documented defect produces. A
 * failure is inside the item when every field holds (`'any'`: not restricted):
 * - `kinds`: its kind is listed; `metrics`: its `metric` is listed; `scan`: its `scan` is listed;
 *   `filtered` / `threshold`: its `filtered` / `threshold` equals the value (a query with a filter /
 *   with a minScore). A failure without the field (comparator `FailureWhere`) is outside any item
 *   that restricts the field;
 * - `maxAbsScoreDelta` (kind `score` only): |actual − expected| ≤ it (canonical score units);
 * - `scoreDefect` (kind `score` only): the documented wrong formula, |actual − (scale × expected +
 *   offset)| ≤ within — e.g. LanceDB's index path returns 2(1 − cos) as the cosine distance, so
 *   its canonical score is 1 − 2(1 − cos) = 2 × expected − 1: scale 2, offset −1;
 * - `minRecall` (kind `recall` only): the failure's recall ≥ it: `recallWithoutThreshold` when the
 *   failure records it (C05's mean over threshold and non-threshold queries: judged by the mean over
 *   the queries without `minScore`), else `actual`.
 * A failure of a bounded kind without numeric `expected` / `actual` is outside.
 */
export interface KnownFailureScope {
  kinds: string[] | 'any';
  metrics: Array<'cosine' | 'ip' | 'l2'> | 'any';
  scan: Array<'exact' | 'index'> | 'any';
  filtered: boolean | 'any';
  /** Default `any`. */
  threshold?: boolean | 'any';
  maxAbsScoreDelta?: number;
  scoreDefect?: { scale: number; offset: number; within: number };
  minRecall?: number;
  /** At most this many failures of one check result are inside the item; the rest are outside it (runner report/known.ts). */
  maxFailures?: number;
  /** C31: only failures of these golden filter-set cases (`Failure.filterCase`); a failure of another case, or of none, is outside. */
  filterCases?: string[];
}

/**
 * One catalog `knownFailures` entry of a target (matrix/targets.yaml): a known upstream failure of
 * check `check` (its id, `C15`) on that target, absorbed only inside `scope` (one or more items,
 * `KnownFailureScope`); `intermittent`: the failure does not show in every run; `link`: the
 * upstream issue or fix (URL).
 */
export interface KnownFailureEntry {
  check: string;
  reason: string;
  link: string;
  scope: KnownFailureScope[];
  intermittent?: boolean;
}

/**
 * How one absorbed failure met the entry: `failureIndex` in `CheckResult.failures`, `scopeItem`
 * the 0-based index of the scope item it is inside, and `scope` the failure's own values of what
 * that item restricts (`kind`, `metric`, `scan`, `filtered`, `threshold`) and of its bounds
 * (`absScoreDelta` |actual − expected|, `defectResidual` |actual − (scale × expected + offset)|,
 * `recall`).
 */
export interface KnownFailureMatch {
  failureIndex: number;
  scopeItem: number;
  scope: { kind: string; metric?: string; scan?: string; filtered?: boolean; threshold?: boolean; absScoreDelta?: number; defectResidual?: number; recall?: number; filterCase?: string };
}

/** A failure outside every scope item: `failureIndex`, its kind, and per item what it breaks (`scope 1: scan exact not in [index]`). */
export interface KnownFailureMiss {
  failureIndex: number;
  kind: string;
  breaks: string[];
}

/**
 * How a check's result met its target's `knownFailures` entry: `known` (failed, every failure
 * inside the scope: status `known`; `matched` says, per failure, which scope item and values),
 * `stale` (the check passed: remove the entry; for an intermittent entry, not reproduced this run),
 * `not-covered` (a failure outside the scope — `outside` names each with what it breaks — or an
 * error: status stays `failed`). `message` is the line the reports print.
 */
export interface KnownFailureVerdict extends KnownFailureEntry {
  verdict: 'known' | 'stale' | 'not-covered';
  message: string;
  matched?: KnownFailureMatch[];
  outside?: KnownFailureMiss[];
}

/**
 * What one check concluded in one cell. `failures` carries dataset, query id, target, rank,
 * expected vs actual (comparator.ts); `figures` are the numbers the report prints
 * (e.g. `recallAt10`, `maxAbsScoreDelta`, `firstDifferingRank`, `kendallTau`).
 */
export interface CheckResult {
  id: string;
  name: string;
  status: CheckStatus;
  /** Why it was skipped: the missing capability, e.g. `capability: annIndexes`. */
  skipReason?: string;
  figures: Record<string, Figure>;
  failures: Failure[];
  /** Free-text observations (e.g. "iterative index scan used"). */
  notes: string[];
  /** Tables of figures (optional; e.g. C04's selectivity sweep). */
  tables?: FigureTable[];
  /** Wall time of the check, ms. */
  durationMs: number;
  /** An error that stopped the check (not an assertion failure), with its code when known. */
  error?: { code?: string; message: string };
  /** Set when the target's catalog entry lists this check in `knownFailures` (see `KnownFailureVerdict`). */
  knownFailure?: KnownFailureVerdict;
}

/** One golden query as a check judged it: what the target returned, the expectation, and the comparison. */
export interface JudgedQuery {
  run: QueryRun;
  /** The recorded expectation of `run.query` (boundary ties beyond k included). */
  expected: ExpectationEntry;
  /** `LiveCell.compare(run, mode)`: comparator.ts `compareHits` under the target's tolerances. */
  comparison: Comparison;
}

/**
 * A golden replay judged query by query, in dataset query order: C03 on the exact scan
 * (`mode: 'exact'`), C05 on the index scan (its first run, `mode: 'ann'`). The report's per-query
 * figures are drawn from it, so nothing compares a query a second time. Kept in memory only (not a
 * field of `CheckResult`, which is report.json's shape).
 */
export interface JudgedReplay {
  /** The check that judged it, e.g. `C03`. */
  check: string;
  scan: ScanMode;
  mode: 'exact' | 'ann';
  queries: JudgedQuery[];
}

/** A check's result together with the replay it judged, when it judged one (`CheckOutcome.replay`). */
export interface CheckRun {
  result: CheckResult;
  replay?: JudgedReplay;
}

/**
 * Where registered checks deliver their results (the runner's report; a no-op under jest):
 * every check once, skipped ones at registration; `replay` when the check judged a golden replay.
 */
export interface ResultSink {
  record(result: CheckResult, replay?: JudgedReplay): void;
}

/** Thrown by a registered test when its check failed: the message lists the first failures. */
export class CheckFailedError extends Error {
  readonly code = 'CHECK_FAILED';
  constructor(
    readonly result: CheckResult,
    maxListed = 10,
  ) {
    const head = `${result.id} ${result.name}: ${result.failures.length} failure(s)`;
    const lines = result.failures.slice(0, maxListed).map((f) => `  - ${f.message}`);
    const more = result.failures.length > maxListed ? [`  … and ${result.failures.length - maxListed} more`] : [];
    super([head, ...lines, ...more].join('\n'));
    this.name = 'CheckFailedError';
  }
}
