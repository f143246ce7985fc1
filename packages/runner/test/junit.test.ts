/**
 * junit.xml agrees with the counts line of the same report (figures.ts countsLine): its totals
 * follow the mapping junit.ts documents (failed and not run → failures, known and skipped →
 * skipped, a cell that could not run → an error testcase) and equal what its testcases hold; a
 * run where no check ran (exit 1) is a failing testcase, so a JUnit-only gate is not green.
 */
import type { Failure, KnownFailureEntry } from '@memory-matrix/spec';
import { countsLine } from '../src/report/figures';
import { renderJUnit } from '../src/report/junit';
import { emptyReport, type CellReport } from '../src/report/model';
import { settleReport, type SettledReport } from '../src/report/settle';
import { cellReport, checkResult } from './report-fixtures';

const failure = (kind: string): Failure => ({ dataset: 'd', target: 't', queryId: '-', kind, message: `[x] ${kind}` });
const result = checkResult;
const LINK = 'https://example.org/issue/1';
const entry = (check: string, intermittent: boolean): KnownFailureEntry => ({
  check,
  scope: [{ kinds: ['x-kind'], metrics: 'any', scan: 'any', filtered: 'any' }],
  intermittent,
  reason: 'upstream',
  link: LINK,
});

function settle(cells: CellReport[], error?: { code: string; message: string }): SettledReport {
  const r = emptyReport([], '2026-12-06T00:00:00.000Z');
  r.cells = cells;
  if (error) r.error = error;
  return settleReport(r);
}

/** The <testsuites> totals, and the testcases counted by what they hold. */
function junitCounts(xml: string): { totals: Record<string, number>; cases: Record<string, number> } {
  const head = /<testsuites ([^>]*)>/.exec(xml)![1]!;
  const totals = Object.fromEntries(['tests', 'failures', 'skipped', 'errors'].map((k) => [k, Number(new RegExp(`\\b${k}="(\\d+)"`).exec(head)![1])]));
  const cases = { tests: 0, failures: 0, skipped: 0, errors: 0 };
  for (const tc of xml.split('<testcase ').slice(1)) {
    const body = tc.slice(0, tc.search(/<\/testcase>|\/>\s*(<testcase|<\/testsuite)/) + 1);
    cases.tests++;
    if (body.includes('<failure')) cases.failures++;
    else if (body.includes('<error')) cases.errors++;
    else if (body.includes('<skipped')) cases.skipped++;
  }
  return { totals, cases };
}

test('every kind of the counts line: the totals follow the documented mapping and equal the testcases', () => {
  const r = settle([
    cellReport(
      'a@1',
      [
        result('C01', 'passed'),
        result('C03', 'failed', { failures: [failure('score')] }),
        result('C15', 'failed', { failures: [failure('x-kind')] }), // known
        result('C16', 'passed'), // stale
        result('C17', 'skipped', { skipReason: 'capability: history' }),
      ],
      { knownFailures: [entry('C15', false), entry('C16', false)] },
    ),
    // A cell that did not start: its checks not run, and the cell error.
    cellReport(
      'b@1',
      [
        result('C01', 'failed', { error: { code: 'NOT_RUN', message: 'not run: b@1 did not start: boom' } }),
        result('C03', 'failed', { error: { code: 'NOT_RUN', message: 'not run: b@1 did not start: boom' } }),
      ],
      {
        status: 'error',
        error: { code: 'TARGET_UNAVAILABLE', message: 'boom' },
      },
    ),
  ]);
  expect(countsLine(r.summary)).toBe('2 passed, 1 failed, 1 known, 1 skipped, 2 not run, 1 stale knownFailures entry, 1 cell(s) could not run');
  const s = r.summary;
  const { totals, cases } = junitCounts(renderJUnit(r));
  expect(totals).toEqual({
    tests: s.passed + s.failed + s.notRun! + s.known! + s.skipped + s.cellErrors,
    failures: s.failed + s.notRun!,
    skipped: s.skipped + s.known!,
    errors: s.cellErrors,
  });
  expect(totals).toEqual({ tests: 8, failures: 3, skipped: 2, errors: 1 });
  expect(cases).toEqual(totals);
  expect(renderJUnit(r)).toContain('<testcase classname="b@1" name="cell">');
});

test('a run where no check ran is a failing testcase naming it; a run error is one error testcase, counted in tests', () => {
  const none = settle([cellReport('a@1', [result('C17', 'skipped', { skipReason: 'capability: history' })])]);
  expect(none.exitCode).toBe(1);
  const xml = renderJUnit(none);
  expect(xml).toContain('<testcase classname="memory-matrix" name="no check ran">');
  expect(xml).toContain('<failure message="no check ran: every check was skipped (1 skipped; exit 1)" type="NO_CHECK_RAN">');
  expect(junitCounts(xml)).toEqual({ totals: { tests: 2, failures: 1, skipped: 1, errors: 0 }, cases: { tests: 2, failures: 1, skipped: 1, errors: 0 } });
  const empty = renderJUnit(settle([]));
  expect(junitCounts(empty).totals).toEqual({ tests: 1, failures: 1, skipped: 0, errors: 0 });
  expect(empty).toContain('no check ran: the report holds no check (exit 1)');

  const failed = settle([], { code: 'USAGE', message: '--check C99: no such check' });
  const xmlErr = renderJUnit(failed);
  expect(xmlErr).not.toContain('no check ran');
  expect(junitCounts(xmlErr)).toEqual({ totals: { tests: 1, failures: 0, skipped: 0, errors: 1 }, cases: { tests: 1, failures: 0, skipped: 0, errors: 1 } });
  // A passing run has no extra testcase.
  expect(junitCounts(renderJUnit(settle([cellReport('a@1', [result('C01', 'passed')])])))).toEqual({
    totals: { tests: 1, failures: 0, skipped: 0, errors: 0 },
    cases: { tests: 1, failures: 0, skipped: 0, errors: 0 },
  });
});
