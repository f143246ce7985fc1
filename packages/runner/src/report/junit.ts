import { create } from 'xmlbuilder2';
import type { SettledReport } from './settle';

/**
 * JUnit XML: one <testsuite> per cell (`<target> × <dataset>`), one <testcase> per check named
 * like the jest test (`C03 topk-exact`), so CI dashboards list the same check ids as jest's JUnit.
 * Failures carry the first failure messages; skips carry the missing capability. A known upstream
 * failure (status `known`) is a <skipped> whose message is the reason and link, its failures in
 * <system-out>; a listed check that passed (stale, or not reproduced) says so in <system-out>;
 * both carry the testcase properties `knownFailure` (known | stale | not-reproduced | not-covered)
 * and `knownFailureLink`.
 */
export function renderJUnit(report: SettledReport): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', {
    name: 'memory-matrix',
    // A check not run (its cell could not run) is a <failure type="NOT_RUN"> testcase: a JUnit-only gate must not see it as green.
    tests: report.summary.passed + report.summary.failed + (report.summary.notRun ?? 0) + (report.summary.known ?? 0) + report.summary.skipped,
    failures: report.summary.failed + (report.summary.notRun ?? 0),
    skipped: report.summary.skipped + (report.summary.known ?? 0),
    errors: report.summary.cellErrors + (report.error ? 1 : 0),
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
  }
  for (const cell of report.cells) {
    const suite = root.ele('testsuite', {
      name: `${cell.target} × ${ds}`,
      tests: cell.checks.length,
      failures: cell.checks.filter((c) => c.status === 'failed').length,
      skipped: cell.checks.filter((c) => c.status === 'skipped' || c.status === 'known').length,
      errors: cell.error ? 1 : 0,
    });
    const props = suite.ele('properties');
    for (const [k, v] of Object.entries({ provider: cell.provider, serverVersion: cell.serverVersion ?? '', image: cell.image ?? '', imageId: cell.imageId ?? '', ...cell.components })) {
      props.ele('property', { name: k, value: v });
    }
    if (cell.error) suite.ele('system-err').txt(`${cell.error.code ?? 'ERROR'}: ${cell.error.message}`);
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
