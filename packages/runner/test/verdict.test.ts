/**
 * A run where no check ran (every check skipped) is not a pass: exit 1, "no check ran" said loudly
 * on the console and in report.md, with the host factor, time zone and CPU lines any run prints;
 * report.md says "all checks passed" only when no check was skipped, and words the counts otherwise.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type { CheckResult } from '@memory-matrix/spec';
import { renderConsole } from '../src/report/console';
import { renderMarkdown } from '../src/report/markdown';
import { emptyReport, type MatrixReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { nothingRan, verdictHeading } from '../src/report/verdict';
import { reportView } from '../src/report/view';
import { cellReport } from './report-fixtures';

const result = (id: string, status: CheckResult['status'], skipReason?: string): CheckResult => ({
  id,
  name: `check-${id}`,
  status,
  ...(skipReason ? { skipReason } : {}),
  figures: {},
  failures: [],
  notes: [],
  durationMs: 1,
});

/** A report of one sqlite cell with these checks, host calibration, zone and CPU as a run records them. */
function report(checks: CheckResult[]): MatrixReport {
  const r = emptyReport(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C17'], '2026-12-06T00:00:00.000Z');
  r.cells = [cellReport('sqlite@3.53-vec0.1.9', checks)];
  r.host = {
    docker: false,
    dockerReason: 'no engine',
    calibration: { factor: 1.2, contention: 1.2, speed: 0.9, source: 'measured', loadAverage: 1.5, cpus: 2, at: '2026-12-06T00:00:00.000Z' },
    timeZone: { name: 'Australia/Adelaide', offsets: ['+09:30', '+10:30'] },
  };
  r.cpu = { totalS: 1, runnerS: 1, childProcessesS: 0, containersS: 0, containerSegmentsUnread: 0, coresBusy: 0.5 };
  r.durationMs = 2000;
  return r;
}

describe('a run where every check was skipped', () => {
  const settled = settleReport(report([result('C17', 'skipped', 'capability: history'), result('C18', 'skipped', 'capability: ttl')]));

  test('exit 1, not a pass', () => {
    expect(nothingRan(settled.summary)).toBe(true);
    expect(settled.exitCode).toBe(1);
  });

  test('the console prints the host factor, zone and CPU lines, the counts, then says no check ran', () => {
    const lines = renderConsole(reportView(settled), false).split('\n');
    expect(lines.some((l) => l.startsWith('host factor 1.2 at the start'))).toBe(true);
    expect(lines.some((l) => l.startsWith('time zone Australia/Adelaide (UTC+09:30, +10:30)'))).toBe(true);
    expect(lines.some((l) => l.startsWith('CPU '))).toBe(true);
    expect(lines.slice(-2)).toEqual(['0 passed, 0 failed, 0 known, 2 skipped', 'memory-matrix: no check ran: every check was skipped (2 skipped; exit 1)']);
    expect(lines.join('\n')).toContain('skip: capability: history');
  });

  test('report.md: the heading and a quote say no check ran; the host, zone and CPU lines are there', () => {
    const md = renderMarkdown(reportView(settled));
    expect(md).toContain('# memory-matrix report — ❌ no check ran: every check was skipped (2 skipped; exit 1)');
    expect(md).not.toContain('all checks passed');
    expect(md).toContain('> **no check ran: every check was skipped (2 skipped; exit 1)**');
    expect(md).toMatch(/^host factor 1\.2 at the start/m);
    expect(md).toMatch(/^time zone Australia\/Adelaide/m);
  });

  test('a report without a check (an empty merge) is not a pass either; an error stays exit 2', () => {
    const empty = settleReport(emptyReport(['merge'], '2026-12-06T00:00:00.000Z'));
    expect(empty.exitCode).toBe(1);
    expect(verdictHeading(empty)).toBe('❌ no check ran: the report holds no check (exit 1)');
    expect(settleReport({ ...report([result('C17', 'skipped', 'x')]), error: { code: 'USAGE', message: 'x' } }).exitCode).toBe(2);
  });
});

describe('report.md verdict words', () => {
  test('all checks passed only when none was skipped; the counts when some were; "most were skipped" when more skipped than ran', () => {
    expect(verdictHeading(settleReport(report([result('C01', 'passed'), result('C02', 'passed')])))).toBe('✅ all checks passed');
    expect(verdictHeading(settleReport(report([result('C01', 'passed'), result('C02', 'passed'), result('C17', 'skipped', 'x')])))).toBe('✅ no check failed: 2 passed, 1 skipped');
    const most = settleReport(report([result('C01', 'passed'), result('C17', 'skipped', 'x'), result('C18', 'skipped', 'y')]));
    expect(most.exitCode).toBe(0);
    expect(verdictHeading(most)).toBe('✅ no check failed, but most were skipped: 1 passed, 2 skipped');
    expect(verdictHeading(settleReport(report([result('C01', 'failed'), result('C17', 'skipped', 'x')])))).toBe('❌ checks failed');
  });

  test('a fixed MM_HOST_FACTOR is not said to be measured by each cell', () => {
    const r = report([result('C01', 'passed')]);
    r.host.calibration = { ...r.host.calibration!, factor: 2, contention: null, speed: null, source: 'MM_HOST_FACTOR' };
    const text = renderConsole(reportView(settleReport(r)), false);
    expect(text).toContain('host factor 2 (set by MM_HOST_FACTOR, not measured; load average 1.5 on 2 CPUs): every time limit of every cell is multiplied by this fixed factor');
    expect(text).not.toContain('each cell measures');
  });
});

test('report.html words the verdict as report.md does (its page script, report/html/client/tables.js)', () => {
  const dir = path.join(__dirname, '..', 'src', 'report', 'html', 'client');
  const ctx = vm.createContext({ console });
  for (const f of ['format.js', 'tables.js']) vm.runInContext(`(() => {\n${readFileSync(path.join(dir, f), 'utf8')}\n})();`, ctx);
  const words = (ctx as unknown as { MM: { verdictWords(r: unknown): string } }).MM.verdictWords;
  const cases = [
    [result('C17', 'skipped', 'x')],
    [result('C01', 'passed')],
    [result('C01', 'passed'), result('C17', 'skipped', 'x')],
    [result('C01', 'passed'), result('C17', 'skipped', 'x'), result('C18', 'skipped', 'y')],
    [result('C01', 'failed')],
  ];
  for (const checks of cases) {
    const settled = JSON.parse(JSON.stringify(settleReport(report(checks))));
    expect(words(settled)).toBe(verdictHeading(settled).replace(/^\S+ /, '').replace('; exit 1)', ')'));
  }
  expect(words(JSON.parse(JSON.stringify(settleReport(emptyReport([], '2026-12-06T00:00:00.000Z')))))).toBe('no check ran: the report holds no check');
});
