import type { CellReport } from './types';

/** Where a headline recall figure comes from: C05's replay over the ANN index, or C03's exact scan (when C05 did not run). */
export type RecallSource = 'ANN, C05' | 'exact, C03';

/** The check each headline recall is taken from, in order of preference, with the path it measures. */
const RECALL_SOURCES: ReadonlyArray<[string, RecallSource]> = [
  ['C05', 'ANN, C05'],
  ['C03', 'exact, C03'],
];

/**
 * Figure `key` (`recallAtKMean` / `recallAtKMin`) of the first check of `RECALL_SOURCES` that ran
 * in `cell` (not skipped) and reports it, with where it comes from; null when neither does. C03
 * scans exactly, so its recall is 1 on any store that returns the right rows: it is never ANN recall.
 */
export function headlineRecallOf(cell: CellReport, key: 'recallAtKMean' | 'recallAtKMin'): { value: number; from: RecallSource } | null {
  for (const [id, from] of RECALL_SOURCES) {
    const v = cell.checks.find((c) => c.id === id && c.status !== 'skipped')?.figures[key];
    if (typeof v === 'number') return { value: v, from };
  }
  return null;
}

/** The figure shown in the console/markdown row `recall@k (mean)`: C05's mean (ANN), else C03's (exact; `headlineRecallOf` says which). */
export function headlineRecall(cell: CellReport): number | null {
  return headlineRecallOf(cell, 'recallAtKMean')?.value ?? null;
}

/** The worst single query's recall@k of the same check as `headlineRecall`. */
export function headlineRecallMin(cell: CellReport): number | null {
  return headlineRecallOf(cell, 'recallAtKMin')?.value ?? null;
}

/**
 * A recall figure as the console, report.md and report.html (format.js `MM.recallText`) show it:
 * `fmt(value)` and where it comes from, `0.9812 (ANN, C05)` or `1 (exact, C03)`, so an exact-scan
 * figure is never read as ANN recall; `–` when there is none.
 */
export function recallText(value: number | null, from: RecallSource | null): string {
  return value === null || from === null ? fmt(value) : `${fmt(value)} (${from})`;
}

/** Max |Δscore| over the checks that measure it (C03, C05, C08). */
export function headlineMaxDelta(cell: CellReport): number | null {
  let max: number | null = null;
  for (const c of cell.checks) {
    for (const k of ['maxAbsScoreDelta', 'goldenMaxAbsDelta']) {
      const v = c.figures[k];
      if (typeof v === 'number') max = Math.max(max ?? 0, v);
    }
  }
  return max;
}

/** A number for a report cell: 4 decimals, exponent below 1e-3, `–` for null. */
export function fmt(v: number | null | undefined): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (v !== 0 && Math.abs(v) < 1e-3) return v.toExponential(1);
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
}

/**
 * A check of a cell that could not run (status failed, error NOT_RUN): the tables say `NOT RUN`, as
 * the summary counts it ("n not run"), not `FAIL`; JUnit still fails it (junit.ts).
 */
export function isNotRun(r: { status: string; error?: { code?: string } | null }): boolean {
  return r.status === 'failed' && r.error?.code === 'NOT_RUN';
}

/**
 * The table text of a failed check, the same in the console, report.md and report.html (tables.js):
 * `NOT RUN` (`isNotRun`), else `FAIL (n)` with its number of failures, or `FAIL (error)` when it
 * failed on an error of its own without a failure list.
 */
export function failedText(r: { status: string; failures: readonly unknown[]; error?: { code?: string } | null }): string {
  return isNotRun(r) ? 'NOT RUN' : `FAIL (${r.failures.length || 'error'})`;
}

/** Status glyph used by the console and markdown tables (`KNOWN`: a failure listed in the target's knownFailures). */
export function glyph(status: string): string {
  return status === 'passed' ? 'pass' : status === 'failed' ? 'FAIL' : status === 'skipped' ? 'skip' : status === 'known' ? 'KNOWN' : status;
}

/**
 * The counts line of every report: `N passed, M failed, K known, S skipped`, then `, R not run`
 * when a cell could not run (its checks), then `, X stale
 * knownFailures entries` when a check a steady entry lists passed, `, Y known failures not
 * reproduced (intermittent)` when one an intermittent entry lists passed, then the cells that
 * could not run, then `, T teardown(s) failed` (report/types.ts `teardownError`). `summary` as settled (report/settle.ts); the known counts default to 0 (older reports).
 */
export function countsLine(s: {
  passed: number;
  failed: number;
  notRun?: number;
  known?: number;
  stale?: number;
  notReproduced?: number;
  skipped: number;
  cellErrors: number;
  teardownErrors?: number;
}): string {
  const stale = s.stale ? `, ${s.stale} stale knownFailures entr${s.stale === 1 ? 'y' : 'ies'}` : '';
  const notReproduced = s.notReproduced ? `, ${s.notReproduced} known failure(s) not reproduced (intermittent)` : '';
  const notRun = s.notRun ? `, ${s.notRun} not run` : '';
  return (
    `${s.passed} passed, ${s.failed} failed, ${s.known ?? 0} known, ${s.skipped} skipped${notRun}${stale}${notReproduced}` +
    (s.cellErrors ? `, ${s.cellErrors} cell(s) could not run` : '') +
    (s.teardownErrors ? `, ${s.teardownErrors} teardown(s) failed` : '')
  );
}
