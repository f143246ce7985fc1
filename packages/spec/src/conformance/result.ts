import type { Failure } from '../comparator';

/** A figure in a check's result: a number (recall@k, |Δscore|, ms …), a label, or null (n/a). */
export type Figure = number | string | boolean | null;

/** A small table a check reports (e.g. C04's selectivity × k sweep), rendered by every report writer. */
export interface FigureTable {
  title: string;
  columns: string[];
  rows: Figure[][];
}

export type CheckStatus = 'passed' | 'failed' | 'skipped';

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
  /** Free-text observations (e.g. "pgvector iterative scan strict_order used"). */
  notes: string[];
  /** Tables of figures (optional; e.g. C04's selectivity sweep). */
  tables?: FigureTable[];
  /** Wall time of the check, ms. */
  durationMs: number;
  /** An error that stopped the check (not an assertion failure), with its code when known. */
  error?: { code?: string; message: string };
}

/** Where registered checks deliver their results (the runner's report; a no-op under jest). */
export interface ResultSink {
  record(result: CheckResult): void;
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
    const more =
      result.failures.length > maxListed ? [`  … and ${result.failures.length - maxListed} more`] : [];
    super([head, ...lines, ...more].join('\n'));
    this.name = 'CheckFailedError';
  }
}
