import { create } from 'xmlbuilder2';
import type { SettledReport } from './settle';
import { nothingRan, nothingRanLine } from './verdict';

/**
 * JUnit XML: one <testsuite> per cell (`<target> × <dataset>`), one <testcase> per check named
 * like the jest test (`C03 topk-exact`), so CI dashboards list the same check ids as jest's JUnit.
 * Failures carry the first failure messages; skips carry the missing capability. A known upstream
 * failure (status `known`) is a <skipped> whose message is the reason and link, its failures in
 * <system-out>; a listed check that passed (stale, or not reproduced) says so in <system-out>;
 * both carry the testcase properties `knownFailure` (known | stale | not-reproduced | not-covered)
 * and `knownFailureLink`.
 *
 * How each count of the counts line (figures.ts `countsLine`, `report.summary`) maps, so that a
 * JUnit-only gate fails exactly when the exit status is not 0 and the totals add up to the line:
 * - passed (stale and not-reproduced entries among them): a <testcase> with no child;
 * - failed: a <failure> (type: the check's error code, else CHECK_FAILED);
 * - not run (a check of a cell that could not run): a <failure type="NOT_RUN">;
 * - known: a <skipped> (a listed upstream failure does not fail the run);
 * - skipped: a <skipped> with the skip reason;
 * - cell(s) could not run (a cell error: its start or its stop failed): one more <testcase> of that
 *   cell's suite, `cell`, with an <error> (type: the error's code);
 * - a teardown that failed after the cell's verdicts (`teardownError`, exit 1): one more <testcase>
 *   `teardown` with a <failure type="TEARDOWN_FAILED">;
 * - a run that could not be carried out (`error`): a suite `memory-matrix run`, testcase `run`, <error>;
 * - no check ran (verdict.ts `nothingRan`, exit 1, when there is no run error): a suite
 *   `memory-matrix run`, testcase `no check ran`, <failure type="NO_CHECK_RAN"> naming the line.
 * So <testsuites> `tests` = passed + failed + not run + known + skipped + cell errors + teardown
 * failures + 1 per run error or no-check-ran testcase; `failures` = failed + not run + teardown
 * failures (+ 1 when no check ran);
 * `skipped` = skipped + known; `errors` = cell errors (+ 1 for a run error). Each <testsuite>'s
 * attributes count its own testcases the same way.
 */
export function renderJUnit(report: SettledReport): string {
  const s = report.summary;
  const noneRan = !report.error && nothingRan(s);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', {
    name: 'memory-matrix',
    // A check not run (its cell could not run) is a <failure type="NOT_RUN"> testcase: a JUnit-only gate must not see it as green.
    tests: s.passed + s.failed + (s.notRun ?? 0) + (s.known ?? 0) + s.skipped + s.cellErrors + (s.teardownErrors ?? 0) + (report.error || noneRan ? 1 : 0),
    failures: s.failed + (s.notRun ?? 0) + (s.teardownErrors ?? 0) + (noneRan ? 1 : 0),
    skipped: s.skipped + (s.known ?? 0),
    errors: s.cellErrors + (report.error ? 1 : 0),
    time: (report.durationMs / 1000).toFixed(3),
  });
  const ds = report.dataset?.name ?? 'no-dataset';
  if (report.error) {
    // A run that could not be carried out must not look green to a JUnit-only gate.
    root
      .ele('testsuite', { name: 'memory-matrix run', tests: 1, failures: 0, errors: 1, skipped: 0 })
      .ele('testcase', { classname: 'memory-matrix', name: 'run' })
      .ele('error', { message: report.error.message, type: report.error.code })
      .txt(`${report.error.code}: ${report.error.message}`);
  } else if (noneRan) {
    // Every check skipped (or none in the report): exit 1, so not green to a JUnit-only gate either (each skip is still listed below).
    const line = nothingRanLine(s);
    root
      .ele('testsuite', { name: 'memory-matrix run', tests: 1, failures: 1, errors: 0, skipped: 0 })
      .ele('testcase', { classname: 'memory-matrix', name: 'no check ran' })
      .ele('failure', { message: line, type: 'NO_CHECK_RAN' })
      .txt(line);
  }
  for (const cell of report.cells) {
    // As settleReport counts cellErrors: a cell whose status is `error` (its start or its stop failed).
    const cellError = cell.status === 'error' ? (cell.error ?? { message: 'the cell could not run' }) : undefined;
    const suite = root.ele('testsuite', {
      name: `${cell.target} × ${ds}`,
      tests: cell.checks.length + (cellError ? 1 : 0) + (cell.teardownError ? 1 : 0),
      failures: cell.checks.filter((c) => c.status === 'failed').length + (cell.teardownError ? 1 : 0),
      skipped: cell.checks.filter((c) => c.status === 'skipped' || c.status === 'known').length,
      errors: cellError ? 1 : 0,
    });
    const props = suite.ele('properties');
    for (const [k, v] of Object.entries({ provider: cell.provider, serverVersion: cell.serverVersion ?? '', image: cell.image ?? '', imageId: cell.imageId ?? '', ...cell.components })) {
      props.ele('property', { name: k, value: v });
    }
    if (cell.error) suite.ele('system-err').txt(`${cell.error.code ?? 'ERROR'}: ${cell.error.message}`);
    if (cellError) {
      suite
        .ele('testcase', { classname: cell.target, name: 'cell' })
        .ele('error', { message: cellError.message, type: cellError.code ?? 'CELL_ERROR' })
        .txt(`${cellError.code ?? 'CELL_ERROR'}: ${cellError.message}`);
    }
    if (cell.teardownError) {
      suite
        .ele('testcase', { classname: cell.target, name: 'teardown' })
        .ele('failure', { message: cell.teardownError.message, type: 'TEARDOWN_FAILED' })
        .txt(`${cell.teardownError.code ?? 'TEARDOWN_FAILED'}: ${cell.teardownError.message}`);
    }
    for (const c of cell.checks) {
      const tc = suite.ele('testcase', { classname: cell.target, name: `${c.id} ${c.name}`, time: (c.durationMs / 1000).toFixed(3) });
      if (c.status === 'skipped') tc.ele('skipped', { message: c.skipReason ?? '' });
      const k = c.knownFailure;
      if (k) {
        const tp = tc.ele('properties');
        tp.ele('property', { name: 'knownFailure', value: k.verdict === 'stale' && k.intermittent ? 'not-reproduced' : k.verdict });
        tp.ele('property', { name: 'knownFailureLink', value: k.link });
      }
      if (c.status === 'known' && k) {
        // Listed upstream failure: skipped-with-message (CI dashboards show it, the gate stays green); the failures in system-out.
        tc.ele('skipped', { message: k.message });
        tc.ele('system-out').txt(
          c.failures
            .slice(0, 50)
            .map((f) => f.message)
            .join('\n'),
        );
      }
      if (c.status === 'passed' && k) tc.ele('system-out').txt(k.message);
      if (c.status === 'failed') {
        const msg = c.error ? c.error.message : `${c.failures.length} failure(s)`;
        tc.ele('failure', { message: msg, type: c.error?.code ?? 'CHECK_FAILED' }).txt(
          c.failures
            .slice(0, 50)
            .map((f) => f.message)
            .join('\n') || msg,
        );
      }
    }
  }
  return root.end({ prettyPrint: true });
}
