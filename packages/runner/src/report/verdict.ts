import type { MatrixReport } from './model';

/** The summary counts of a settled report (report/settle.ts); the optional ones default to 0 (older reports). */
type Counts = MatrixReport['summary'];

/**
 * Whether no check of the run gave a verdict: none passed, failed, was known or was not run
 * because its cell failed, and no cell failed to start — every check was skipped (a capability,
 * the profile's tier, `--check` of a check the targets lack), or the report has no check at all.
 * Such a run checked nothing and is not a pass: settleReport gives it exit status 1.
 */
export function nothingRan(s: Counts): boolean {
  return s.passed + s.failed + (s.notRun ?? 0) + (s.known ?? 0) === 0 && s.cellErrors === 0;
}

/**
 * The line the console and report.md print for a run where `nothingRan`:
 * `no check ran: every check was skipped (S skipped; exit 1)`, or, for a report without a single
 * check, `no check ran: the report holds no check (exit 1)`.
 */
export function nothingRanLine(s: Counts): string {
  return s.skipped ? `no check ran: every check was skipped (${s.skipped} skipped; exit 1)` : 'no check ran: the report holds no check (exit 1)';
}

/**
 * The verdict of report.md's heading, from the exit status and the counts: exit 2 `⚠️ the run
 * could not be carried out`; exit 1 `❌ no check ran: …` (`nothingRanLine`), `❌ no check failed, but a teardown
 * failed` (only `teardownErrors`) or `❌ checks failed`;
 * exit 0 `✅ all checks passed` only when no check was skipped, else the counts: `✅ no check
 * failed: P passed, K known, S skipped`, and when more checks skipped than ran
 * `✅ no check failed, but most were skipped: …`.
 */
export function verdictHeading(report: Pick<MatrixReport, 'exitCode' | 'summary'>): string {
  const s = report.summary;
  if (report.exitCode === 2) return '⚠️ the run could not be carried out';
  if (report.exitCode === 1) return nothingRan(s) ? `❌ ${nothingRanLine(s)}` : !s.failed && !s.notRun && s.teardownErrors ? '❌ no check failed, but a teardown failed' : '❌ checks failed';
  const ran = s.passed + (s.known ?? 0);
  if (s.skipped === 0) return '✅ all checks passed';
  const counts = `${s.passed} passed${s.known ? `, ${s.known} known` : ''}, ${s.skipped} skipped`;
  return s.skipped > ran ? `✅ no check failed, but most were skipped: ${counts}` : `✅ no check failed: ${counts}`;
}
