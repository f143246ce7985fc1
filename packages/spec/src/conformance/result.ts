import type { Comparison, Failure } from '../comparator';
import type { ExpectationEntry } from '../expectation';
import type { QueryRun, ScanMode } from './cell';

/** A figure in a check's result: a number (recall@k, |Δscore|, ms …), a label, or null (n/a). */
export type Figure = number | string | boolean | null;

/** A small table a check reports (e.g. C04's selectivity × k sweep), rendered by every report writer. */
export interface FigureTable {
  title: string;
  columns: string[];
  rows: Figure[][];
}

/**
 * A check's verdict in one cell. `known`: the check failed, and every failure's kind is listed for
 * this target in the catalog's `knownFailures` (report/known.ts in the runner; the only way a
 * failure stops failing the run).
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'known';

/**
 * One catalog `knownFailures` entry of a target (matrix/targets.yaml): a known upstream failure of
 * check `check` (its id, `C15`) on that target. `kinds`: the failure kinds it covers (every kind
 * when absent); `intermittent`: the failure does not show in every run; `link`: the upstream
 * issue or fix (URL).
 */
export interface KnownFailureEntry {
  check: string;
  reason: string;
  link: string;
  kinds?: string[];
  intermittent?: boolean;
}

/**
 * How a check's result met its target's `knownFailures` entry: `known` (failed, every failure's
 * kind listed: status `known`), `stale` (the check passed: remove the entry; for an intermittent
 * entry, not reproduced this run), `not-covered` (failed with kinds the entry does not list, or
 * with an error: status stays `failed`). `message` is the line the reports print.
 */
export interface KnownFailureVerdict extends KnownFailureEntry {
  verdict: 'known' | 'stale' | 'not-covered';
  message: string;
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
