/**
 * What a reader of the console and report.md takes from the target × check table, the same in
 * both (and in report.html where it shows the same row): a failed check shows its failure count,
 * `FAIL (n)`, not a bare FAIL; a recall figure says whether it is C05's ANN recall or C03's exact
 * scan, so an exact 1 is not read as ANN recall.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type { CheckResult } from '@memory-matrix/spec';
import { headlineRecallOf, recallText } from '../src/report/figures';
import { renderConsole } from '../src/report/console';
import { renderMarkdown } from '../src/report/markdown';
import { emptyReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { cellReport, checkResult } from './report-fixtures';

const result = checkResult;
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

test('recall@k rows say where each figure comes from: C05 over the ANN index, else C03 exact (C05 skipped or absent), – when neither ran', () => {
  const report = emptyReport([], '2026-12-06T00:00:00.000Z');
  const exact = result('C03', 'passed', { figures: { recallAtKMean: 1, recallAtKMin: 1 } });
  report.cells = [
    cellReport('ann@1', [exact, result('C05', 'passed', { figures: { recallAtKMean: 0.98, recallAtKMin: 0.7 } })]),
    cellReport('skipped-ann@1', [exact, result('C05', 'skipped', { skipReason: 'capability: annIndex', figures: { recallAtKMean: 0.5 } })]),
    cellReport('exact-only@1', [exact]),
    cellReport('none@1', [result('C01', 'passed')]),
  ];
  const view = reportView(settleReport(report));
  const md = renderMarkdown(view);
  expect(md).toContain('| recall@k (mean) | 0.9800 (ANN, C05) | 1 (exact, C03) | 1 (exact, C03) | – |');
  expect(md).toContain('| recall@k (worst query) | 0.7000 (ANN, C05) | 1 (exact, C03) | 1 (exact, C03) | – |');
  const out = renderConsole(view, false);
  expect(out).toMatch(/recall@k \(mean\) +│ 0\.9800 \(ANN, C05\) +│ 1 \(exact, C03\) +│ 1 \(exact, C03\) +│ – +│/);
  expect(out).toMatch(/recall@k \(worst query\) +│ 0\.7000 \(ANN, C05\) +│ 1 \(exact, C03\) +│ 1 \(exact, C03\) +│ – +│/);

  // report.html's page script (format.js) gives the same text for every cell (the browser test, html.test.ts, reads the page).
  const ctx = vm.createContext({ console });
  vm.runInContext(`(() => {\n${readFileSync(path.join(__dirname, '..', 'src', 'report', 'html', 'client', 'format.js'), 'utf8')}\n})();`, ctx);
  const MM = (ctx as unknown as { MM: { headlineOf(c: unknown, k: string): unknown; recallText(r: unknown): string } }).MM;
  for (const cell of view.report.cells) {
    for (const key of ['recallAtKMean', 'recallAtKMin'] as const) {
      const r = headlineRecallOf(cell, key);
      expect(MM.recallText(MM.headlineOf(JSON.parse(JSON.stringify(cell)), key))).toBe(recallText(r?.value ?? null, r?.from ?? null));
    }
  }
});

test('targets of the profile left out (no Docker engine: its fallbackTargets) are named in report.md as on the console, under the counts', () => {
  const report = emptyReport([], '2026-12-06T00:00:00.000Z');
  report.cells = [cellReport('sqlite@3.53-vec0.1.9', [result('C01', 'passed')])];
  const reason = 'no Docker engine answers: profile tiny runs its fallbackTargets (sqlite@3.53-vec0.1.9) instead of its targets';
  report.skippedTargets = [{ target: 'pgvector@pg17', reason }];
  const view = reportView(settleReport(report));
  expect(renderConsole(view, false)).toContain(`skipped target pgvector@pg17: ${reason}`);
  const md = renderMarkdown(view).split('\n');
  const at = md.indexOf(`- skipped target **pgvector@pg17**: ${reason}`);
  expect(at).toBeGreaterThan(md.indexOf('**1 passed, 0 failed, 0 known, 0 skipped**'));
  expect(at).toBeLessThan(md.findIndex((l) => l.startsWith('| check |')));
});
