/**
 * What a reader of the console and report.md takes from the target × check table, the same in
 * both: a failed check shows its failure count, `FAIL (n)`, not a bare FAIL.
 */
import type { CheckResult } from '@memory-matrix/spec';
import { renderConsole } from '../src/report/console';
import { renderMarkdown } from '../src/report/markdown';
import { emptyReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { cellReport } from './report-fixtures';

const result = (id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({
  id,
  name: `check-${id}`,
  status,
  figures: {},
  failures: [],
  notes: [],
  durationMs: 1,
  ...extra,
});
const failure = (message: string): CheckResult['failures'][number] => ({ message }) as CheckResult['failures'][number];

test('a failed check reads FAIL (n) in the console and in report.md; FAIL (error) for an error without failures; NOT RUN for a check not run', () => {
  const report = emptyReport([], '2026-12-06T00:00:00.000Z');
  report.cells = [
    cellReport('a@1', [
      result('C03', 'failed', { failures: [failure('q1 rank 1'), failure('q2 rank 3'), failure('q3 rank 2')] }),
      result('C05', 'failed', { error: { code: 'TIMEOUT', message: 'took too long' } }),
    ]),
    cellReport('b@1', [result('C03', 'failed', { error: { code: 'NOT_RUN', message: 'not run: b@1 did not start' } }), result('C05', 'passed')]),
  ];
  const view = reportView(settleReport(report));
  const row = (text: string, id: string): string => text.split('\n').find((l) => l.includes(`${id} check-${id}`))!;
  const md = renderMarkdown(view);
  expect(row(md, 'C03')).toBe('| C03 check-C03 | FAIL (3) | NOT RUN |');
  expect(row(md, 'C05')).toBe('| C05 check-C05 | FAIL (error) | pass |');
  const out = renderConsole(view, false);
  expect(row(out, 'C03')).toMatch(/C03 check-C03 +│ FAIL \(3\) +│ NOT RUN +│/);
  expect(row(out, 'C05')).toMatch(/C05 check-C05 +│ FAIL \(error\) +│ pass +│/);
});
