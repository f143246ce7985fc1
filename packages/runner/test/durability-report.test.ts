/**
 * The durability table without Docker: C15's per-configuration figures survive the flattening
 * into check figures, and the report model, console and markdown turn them into one row per
 * target × configuration with the right verdict.
 */
import { durabilityFigures, readDurabilityFigures, type CheckResult, type DurabilityFigures } from '@memory-matrix/spec';
import { renderConsole } from '../src/report/console';
import { renderMarkdown } from '../src/report/markdown';
import { durabilityRows, type CellReport, type MatrixReport } from '../src/report/model';

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
  return { target, backend: 'pgvector', provider: 'container', serverVersion: null, components: {}, image: null, imageId: null, index: { type: 'none' }, tolerances: {}, timings: { startMs: null, loadMs: null, indexMs: null }, status: 'ran', checks: [c15] };
}

test('figures round-trip through the flat check figures (names with "=" and "_" included)', () => {
  const rows = [fig('default', true, 0), fig('synchronous_commit=off', false, 130)];
  expect(readDurabilityFigures(durabilityFigures(rows))).toEqual(rows);
  expect(readDurabilityFigures({ recallAtKMean: 1 })).toEqual([]);
});

test('verdicts: durable + lost → fail; not durable + lost → reported; unknown phantoms fail anywhere', () => {
  const cells = [
    cell('pgvector@pg17', [fig('default', true, 0), fig('synchronous_commit=off', false, 130)]),
    cell('x@1', [fig('default', true, 2), fig('fast', false, 0, { phantomUnknown: 1 })], ['agent-memories @ x@1: [default] cycle 2: acknowledged write of m-1 is missing']),
  ];
  expect(durabilityRows(cells).map((r) => [r.target, r.configuration, r.verdict])).toEqual([
    ['pgvector@pg17', 'default', 'pass'],
    ['pgvector@pg17', 'synchronous_commit=off', 'reported'],
    ['x@1', 'default', 'fail'],
    ['x@1', 'fast', 'fail'],
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
  const md = renderMarkdown(report);
  expect(md).toContain('| pgvector@pg17 | default | durable | 2300 | 0 | 10 | 0 | 0 | 0 | 5 | pass |');
  expect(md).toContain('| pgvector@pg17 | synchronous_commit=off | not durable | 2300 | 130 | 10 | 0 | 0 | 0 | 5 | lost (not promised) |');
  const text = renderConsole(report, false);
  expect(text).toMatch(/pgvector@pg17 +│ synchronous_commit=off +│ not durable +│ 2300 +│ 130 /);
});
