/**
 * The report model without a backend: per-query series are drawn from the comparisons a check
 * made (its JudgedReplay), never from a second comparator run; the report is settled once
 * (summary, capability matrix, durability table, exit code); the view names a cell's server by
 * its components, whatever the backend.
 */
import { capabilities, compareHits, durabilityFigures, type CheckResult, type GoldenQuery, type JudgedReplay, type RecallHit } from '@memory-matrix/spec';
import { capabilityGlyph, capabilityMatrix } from '../src/report/capabilities';
import { emptyReport } from '../src/report/model';
import { cellQueries } from '../src/report/queries';
import { settleReport } from '../src/report/settle';
import { reportView, serverLabel } from '../src/report/view';
import { cellReport } from './report-fixtures';

const hit = (id: string, score: number): RecallHit => ({ id, score });

function judged(check: string, scan: 'exact' | 'index', answers: Array<[string, RecallHit[], RecallHit[]]>): JudgedReplay {
  const mode = scan === 'exact' ? 'exact' : 'ann';
  const queries = answers.map(([id, expectedHits, hits]) => {
    const query = { id, k: 2, vector: new Float32Array(2) } as unknown as GoldenQuery;
    const expected = { query: id, k: 2, matching: 10, hits: expectedHits };
    const comparison = compareHits(expected, hits, { dataset: 'd', target: 't@1', queryId: id }, { k: 2, mode, tieEpsilon: 1e-5, scoreTolerance: 1e-5 });
    return { run: { query, hits, ms: 1 }, expected, comparison };
  });
  return { check, scan, mode, queries };
}

const cell = cellReport;

const passed = (id: string, figures: CheckResult['figures'] = {}): CheckResult => ({ id, name: id.toLowerCase(), status: 'passed', figures, failures: [], notes: [], durationMs: 1 });

test('per-query series come from the replays the checks judged: values, order, worst queries', () => {
  const exact = judged('C03', 'exact', [
    ['q1', [hit('a', 0.9), hit('b', 0.8)], [hit('a', 0.9), hit('b', 0.8)]],
    ['q2', [hit('c', 0.7), hit('d', 0.6)], [hit('d', 0.6), hit('e', 0.5)]],
  ]);
  const q = cellQueries([exact])!;
  expect(q.index).toBeUndefined();
  expect(q.exact).toMatchObject({ check: 'C03', scan: 'exact', queryIds: ['q1', 'q2'] });
  expect(q.exact!.recallAtK).toEqual(exact.queries.map((x) => x.comparison.recallAtK));
  expect(q.exact!.maxAbsScoreDelta).toEqual(exact.queries.map((x) => x.comparison.maxAbsScoreDelta));
  expect(q.exact!.firstDifferingRank).toEqual([null, 1]);
  expect(q.exact!.worst.map((w) => w.queryId)).toEqual(['q2']);
  expect(q.exact!.worst[0]).toMatchObject({
    k: 2,
    expected: [
      ['c', 0.7],
      ['d', 0.6],
    ],
    actual: [
      ['d', 0.6],
      ['e', 0.5],
    ],
  });
  const index = judged('C05', 'index', [['q1', [hit('a', 0.9), hit('b', 0.8)], [hit('a', 0.9), hit('b', 0.8)]]]);
  expect(cellQueries([exact, index])!.index).toMatchObject({ check: 'C05', scan: 'index', queryIds: ['q1'], recallAtK: [1] });
  expect(cellQueries([])).toBeUndefined();
});

test('settleReport derives summary, durability rows, capability matrix and exit code once', () => {
  const c15: CheckResult = {
    ...passed('C15'),
    figures: durabilityFigures([
      { configuration: 'default', durable: true, acknowledged: 10, acknowledgedBatches: 1, lost: 0, phantomInFlight: 0, phantomUnknown: 0, duplicated: 0, changed: 0, cycles: 5 },
    ]),
  };
  const skipped: CheckResult = { ...passed('C17'), status: 'skipped', skipReason: 'capability: history' };
  const report = emptyReport([], '2026-12-01T00:00:00.000Z');
  report.cells = [cell('x@1', [c15, skipped], { capabilities: capabilities({ vectors: true }) })];
  const settled = settleReport(report);
  expect(settled).toBe(report);
  expect(settled.summary).toEqual({ passed: 1, failed: 0, known: 0, stale: 0, notReproduced: 0, skipped: 1, cellErrors: 0 });
  expect(settled.durability).toEqual([expect.objectContaining({ target: 'x@1', configuration: 'default', verdict: 'pass' })]);
  expect(settled.capabilityMatrix.targets[0]!.entries.history).toMatchObject({ ok: false, skippedChecks: ['C17'] });
  expect(settled.exitCode).toBe(0);
  // report.json's key order stays what it was: durability before capabilityMatrix.
  expect(Object.keys(settled).slice(-2)).toEqual(['durability', 'capabilityMatrix']);
  expect(settleReport({ ...report, error: { code: 'USAGE', message: 'x' } }).exitCode).toBe(2);
});

test('capability matrix: a readYourWrites level shows as ✓ strong, or ✗ eventual naming C27 skipped for it', () => {
  const skipped: CheckResult = { ...passed('C27'), status: 'skipped', skipReason: 'capability: readYourWrites (eventual)' };
  const m = capabilityMatrix([
    cell('lazy@1', [skipped], { capabilities: capabilities({ vectors: true }) }),
    cell('strict@1', [passed('C27')], { capabilities: capabilities({ vectors: true, readYourWrites: 'strong' }) }),
  ]);
  const [lazy, strict] = m.targets.map((t) => t.entries.readYourWrites!);
  expect(lazy).toEqual({ ok: false, value: ['eventual'], reason: 'skipped C27 (capability: readYourWrites)', skippedChecks: ['C27'] });
  expect([capabilityGlyph(lazy!), capabilityGlyph(strict!)]).toEqual(['✗ eventual', '✓ strong']);
});

test('the view: check rows per cell, headline figures, and a server line built from any components', () => {
  const a = cell('pgvector@pg17', [passed('C03', { recallAtKMean: 1, recallAtKMin: 1, maxAbsScoreDelta: 2e-7 })], {
    components: { postgres: '17.12', pgvector: '0.8.0' },
    serverVersion: 'PostgreSQL 17.12 …',
  });
  const b = cell('toy@1', [passed('C01')], { serverVersion: 'Toy 1.0' });
  const report = emptyReport([], '2026-12-01T00:00:00.000Z');
  report.cells = [a, b];
  const view = reportView(settleReport(report));
  expect(view.checkRows.map((r) => [r.title, r.results.map((x) => x?.status)])).toEqual([
    ['C03 c03', ['passed', undefined]],
    ['C01 c01', [undefined, 'passed']],
  ]);
  expect(view.headlines).toEqual([
    { target: 'pgvector@pg17', recallMean: 1, recallMin: 1, maxDelta: 2e-7, server: 'postgres 17.12, pgvector 0.8.0' },
    { target: 'toy@1', recallMean: null, recallMin: null, maxDelta: null, server: 'Toy 1.0' },
  ]);
  expect(serverLabel(cell('y@1', []))).toBe('–');
});
