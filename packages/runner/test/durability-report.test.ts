/**
 * The durability table without Docker: C15's per-configuration figures survive the flattening
 * into check figures, and the report model, console and markdown turn them into one row per
 * target × configuration with the right verdict.
 */
import { durabilityFigures, readDurabilityFigures, type CheckResult, type DurabilityFigures } from '@memory-matrix/spec';
import { renderConsole } from '../src/report/console';
import { renderHtml } from '../src/report/html';
import { renderMarkdown } from '../src/report/markdown';
import { durabilityRows, type CellReport, type MatrixReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { cellReport } from './report-fixtures';

const fig = (configuration: string, durable: boolean, lost: number, extra: Partial<DurabilityFigures> = {}): DurabilityFigures => ({
  configuration,
  durable,
  acknowledged: 2300,
  acknowledgedBatches: 230,
  lost,
  phantomInFlight: 10,
  phantomUnknown: 0,
  duplicated: 0,
  changed: 0,
  cycles: 5,
  ...extra,
});

function cell(target: string, rows: DurabilityFigures[], failures: string[] = []): CellReport {
  const c15: CheckResult = {
    id: 'C15',
    name: 'durability',
    status: failures.length ? 'failed' : 'passed',
    figures: { configurations: rows.length, ...durabilityFigures(rows), 'durability/default/restartMsMax': 2100 },
    failures: failures.map((message) => ({ dataset: 'd', target, queryId: '-', kind: 'durability-lost', message })),
    notes: [],
    durationMs: 1,
  };
  return cellReport(target, [c15], { backend: 'pgvector', provider: 'container' });
}

test('figures round-trip through the flat check figures (names with "=" and "_" included)', () => {
  const rows = [fig('default', true, 0), fig('synchronous_commit=off', false, 130)];
  expect(readDurabilityFigures(durabilityFigures(rows))).toEqual(rows);
  expect(readDurabilityFigures({ recallAtKMean: 1 })).toEqual([]);
});

test('verdicts: durable + lost → fail; not durable + lost → reported; unknown phantoms fail a durable configuration, are reported otherwise', () => {
  const cells = [
    cell('pgvector@pg17', [fig('default', true, 0), fig('synchronous_commit=off', false, 130)]),
    cell('x@1', [fig('default', true, 2), fig('fast', false, 0, { phantomUnknown: 1 })], ['agent-memories @ x@1: [default] cycle 2: acknowledged write of m-1 is missing']),
    cell('y@1', [fig('default', true, 0, { phantomUnknown: 1 }), fig('fast', false, 0, { duplicated: 1 })]),
  ];
  expect(durabilityRows(cells).map((r) => [r.target, r.configuration, r.verdict])).toEqual([
    ['pgvector@pg17', 'default', 'pass'],
    ['pgvector@pg17', 'synchronous_commit=off', 'reported'],
    ['x@1', 'default', 'fail'],
    ['x@1', 'fast', 'reported'],
    ['y@1', 'default', 'fail'],
    ['y@1', 'fast', 'fail'],
  ]);
});

test('console and markdown print the table', () => {
  const report = {
    format: 'memory-matrix-report',
    version: 1,
    tool: { name: 'memory-matrix', version: '0', node: process.version },
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:01.000Z',
    durationMs: 1000,
    argv: [],
    profile: null,
    shard: null,
    host: { docker: true, dockerReason: '' },
    dataset: null,
    expectation: null,
    cells: [cell('pgvector@pg17', [fig('default', true, 0), fig('synchronous_commit=off', false, 130)])],
    skippedTargets: [],
    summary: { passed: 1, failed: 0, skipped: 0, cellErrors: 0 },
    exitCode: 0,
  } as MatrixReport;
  const view = reportView(settleReport(report));
  const md = renderMarkdown(view);
  expect(md).toContain('| pgvector@pg17 | default | durable | 2300 | 0 | 10 | 0 | 0 | 0 | 5 | pass |');
  expect(md).toContain('| pgvector@pg17 | synchronous_commit=off | not durable | 2300 | 130 | 10 | 0 | 0 | 0 | 5 | lost (not promised) |');
  const text = renderConsole(view, false);
  expect(text).toMatch(/pgvector@pg17 +│ synchronous_commit=off +│ not durable +│ 2300 +│ 130 /);
});

test('chat-history rows (C15 history part, "<configuration> (history)") read back, get their own verdicts and print with the same columns', () => {
  const rows = [
    fig('aof-always', true, 0),
    fig('aof-always (history)', true, 0, { acknowledged: 2088, phantomInFlight: 18 }),
    fig('rdb (history)', false, 2466, { acknowledged: 2466, phantomInFlight: 0 }),
  ];
  const figures = { ...durabilityFigures(rows), 'durability/aof-always (history)/reordered': 0, 'durability/aof-always (history)/unit': 'chat messages' };
  expect(readDurabilityFigures(figures)).toEqual(rows);
  // A failure of the history part names its row only: "[aof-always (history)]" is not "[aof-always]".
  const failed = cell('redis@8.0', rows, [
    'agent-memories @ redis@8.0: [aof-always (history)] cycle 2 session c15h-s1: message c15h-s1#7 (sent as #8) is at position 9, after #9 which was sent later',
  ]);
  // (the helper's extra `durability/default/restartMsMax` makes a row "default" of its own: left out here)
  expect(
    durabilityRows([failed])
      .filter((r) => r.configuration !== 'default')
      .map((r) => [r.configuration, r.verdict]),
  ).toEqual([
    ['aof-always', 'pass'],
    ['aof-always (history)', 'fail'],
    ['rdb (history)', 'reported'],
  ]);
  const report = {
    format: 'memory-matrix-report',
    version: 1,
    tool: { name: 'memory-matrix', version: '0', node: process.version },
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:01.000Z',
    durationMs: 1000,
    argv: [],
    profile: null,
    shard: null,
    host: { docker: true, dockerReason: '' },
    dataset: null,
    expectation: null,
    cells: [cell('redis@7.0', rows.slice(1))],
    skippedTargets: [],
    summary: { passed: 1, failed: 0, skipped: 0, cellErrors: 0 },
    exitCode: 0,
  } as MatrixReport;
  const settled = settleReport(report);
  expect(settled.durability).toEqual(durabilityRows(report.cells));
  const view = reportView(settled);
  expect(renderMarkdown(view)).toContain('| redis@7.0 | aof-always (history) | durable | 2088 | 0 | 18 | 0 | 0 | 0 | 5 | pass |');
  expect(renderConsole(view, false)).toMatch(/redis@7\.0 +│ rdb \(history\) +│ not durable +│ 2466 +│ 2466 +│ 0 \/ 0 /);
  // report.html embeds the rows and its client draws them (html.test.ts renders such a page in Chromium).
  const html = renderHtml(settled);
  expect(html).toContain('"configuration":"aof-always (history)"');
  expect(html).toContain('MM.durabilityTable');
});
