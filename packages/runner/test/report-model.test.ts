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
import { renderConsole } from '../src/report/console';
import { renderJUnit } from '../src/report/junit';
import { renderMarkdown, sideBySideMarkdown } from '../src/report/markdown';
import { settleReport } from '../src/report/settle';
import { WHY_MAX_CHARS } from '../src/report/side-by-side';
import { reportView, serverLabel } from '../src/report/view';
import { reportJson } from '../src/report/write';
import { cellReport } from './report-fixtures';

const hit = (id: string, score: number): RecallHit => ({ id, score });

function judged(check: string, scan: 'exact' | 'index', answers: Array<[string, RecallHit[], RecallHit[]]>): JudgedReplay {
  const mode = scan === 'exact' ? 'exact' : 'ann';
  const queries = answers.map(([id, expectedHits, hits]) => {
    const query = { id, k: 2, vector: new Float32Array(2) } as unknown as GoldenQuery;
    const expected = { query: id, k: 2, matching: 10, hits: expectedHits };
    const comparison = compareHits(expected, hits, { dataset: 'd', target: 't@1', queryId: id }, { k: 2, mode, tieEpsilon: 1e-5, scoreTolerance: 1e-5 });
    return { run: { query, scan, hits, ms: 1 }, expected, comparison };
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
  expect(settled.summary).toEqual({ passed: 1, failed: 0, notRun: 0, known: 0, stale: 0, notReproduced: 0, skipped: 1, cellErrors: 0, teardownErrors: 0 });
  expect(settled.durability).toEqual([expect.objectContaining({ target: 'x@1', configuration: 'default', verdict: 'pass' })]);
  expect(settled.capabilityMatrix.targets[0]!.entries.history).toMatchObject({ ok: false, skippedChecks: ['C17'] });
  expect(settled.exitCode).toBe(0);
  // report.json's key order stays what it was: durability before capabilityMatrix; sideBySide, then filterOperators (newer) last.
  expect(Object.keys(settled).slice(-4)).toEqual(['durability', 'capabilityMatrix', 'sideBySide', 'filterOperators']);
  expect(settled.sideBySide).toEqual([]);
  expect(settled.filterOperators).toEqual({ operators: [], targets: [] }); // no cell recorded C31
  expect(settleReport({ ...report, error: { code: 'USAGE', message: 'x' } }).exitCode).toBe(2);
});

test("a target's catalog cannotShow is printed beside that check's verdict in the console and report.md, never for a skipped check", () => {
  const report = emptyReport([], '2026-12-01T00:00:00.000Z');
  const limit = 'an adapter that skips the flush: this server makes every insert visible at once (measured)';
  const skipped: CheckResult = { ...passed('C24'), status: 'skipped', skipReason: 'capability: timeDecay' };
  report.cells = [cell('m@1', [passed('C27'), skipped], { capabilities: capabilities({ vectors: true }), cannotShow: { C27: limit, C24: 'what C24 cannot show here, said at length' } })];
  const view = reportView(settleReport(report));
  const out = renderConsole(view, false);
  expect(out).toContain(`m@1 C27 c27: passed, but cannot show ${limit}`);
  expect(out).toContain('pass (cannot show all: see below)');
  expect(out).not.toContain('C24 c24: passed, but');
  const md = renderMarkdown(view);
  expect(md).toContain(`- **m@1** C27 c27: passed, but cannot show ${limit}`);
  expect(md).toContain('| pass (cannot show all: see below) |');
  expect(settleReport(report).exitCode).toBe(0); // it changes no verdict
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

test('capability matrix: the limits maxDim and maxIndexDim are figures (✓ with the value, null = no limit)', () => {
  const m = capabilityMatrix([
    cell('pg@1', [], { capabilities: capabilities({ vectors: true, maxDim: 16000, maxIndexDim: 2000 }) }),
    cell('x@1', [], { capabilities: capabilities({ vectors: true }) }),
  ]);
  expect(m.capabilities).toEqual(expect.arrayContaining(['maxBatch', 'maxDim', 'maxIndexDim']));
  expect(m.targets.map((t) => [t.entries.maxDim, t.entries.maxIndexDim])).toEqual([
    [
      { ok: true, value: 16000 },
      { ok: true, value: 2000 },
    ],
    [
      { ok: true, value: null },
      { ok: true, value: null },
    ],
  ]);
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
    { target: 'pgvector@pg17', recallMean: 1, recallMin: 1, recallMeanFrom: 'exact, C03', recallMinFrom: 'exact, C03', maxDelta: 2e-7, server: 'postgres 17.12, pgvector 0.8.0' },
    { target: 'toy@1', recallMean: null, recallMin: null, recallMeanFrom: null, recallMinFrom: null, maxDelta: null, server: 'Toy 1.0' },
  ]);
  expect(serverLabel(cell('y@1', []))).toBe('–');
});

test("side by side: a client target next to its server's raw target, each difference explained", () => {
  const failure = (target: string, message: string) => ({ dataset: 'd', target, queryId: 'q1', kind: 'count', message: `d q1 @ ${target}: ${message}` });
  const failed = (id: string, target: string, messages: string[]): CheckResult => ({ ...passed(id), status: 'failed', failures: messages.map((m) => failure(target, m)) });
  const skipped = (id: string, why: string): CheckResult => ({ ...passed(id), status: 'skipped', skipReason: why });
  const client = cell(
    'lc@1',
    [
      passed('C01'),
      skipped('C03', 'capability: exactScan'),
      failed('C04', 'lc@1', ['returned 0 results, expected 1', 'returned 0 results, expected 1']),
      passed('C05', { recallAtKMean: 0.9792, recallAtKMin: 0, maxAbsScoreDelta: 9.8e-7 }),
      passed('C08', { maxAbsScoreDelta: 3e-7 }),
      failed('C12', 'lc@1', ['zero vector accepted']), // listed in the cell's knownFailures: settled as known
      skipped('C21', 'profile p: runs in release'),
      passed('C29'),
      { ...failed('C23', 'lc@1', ['500 of 1000 present']), failures: [{ ...failure('lc@1', '500 of 1000 present'), kind: 'fault-partial' }] },
      failed('C15', 'lc@1', ['lost 3']),
    ],
    {
      server: 'raw@1',
      tolerances: { scoreTolerance: 1e-5 },
      knownFailures: [{ check: 'C12', reason: 'the client accepts zero vectors', link: 'https://example.org/issue/1', scope: [{ kinds: 'any', metrics: 'any', scan: 'any', filtered: 'any' }] }],
    },
  );
  const server = cell('raw@1', [
    passed('C01'),
    passed('C03', { recallAtKMean: 1 }),
    passed('C04'),
    passed('C05', { recallAtKMean: 0.9983, recallAtKMin: 0.9, maxAbsScoreDelta: 1.9e-7 }),
    passed('C08', { maxAbsScoreDelta: 1e-7 }),
    passed('C12'),
    passed('C21'),
    failed('C29', 'raw@1', ['x'.repeat(2 * WHY_MAX_CHARS)]),
    { ...failed('C23', 'raw@1', ['not in flight']), failures: [{ ...failure('raw@1', 'not in flight'), kind: 'fault-inflight' }] },
    failed('C15', 'raw@1', ['lost 5']), // both failed with the same kinds: they agree
  ]);
  const alone = cell('lc@2', [passed('C01')], { server: 'raw@2' }); // its server's target is not in the run: no pair
  const report = emptyReport([], '2026-12-01T00:00:00.000Z');
  report.cells = [server, client, alone];
  const [pair, ...more] = settleReport(report).sideBySide;
  expect(more).toEqual([]);
  const why = Object.fromEntries(pair!.differences.map((d) => [d.id, d.why]));
  expect(Object.keys(why)).toEqual(['C03', 'C04', 'C05', 'C12', 'C21', 'C23', 'C29']); // C01, C08 (|Δscore| both within 1e-5) and C15 (same failure kinds) agree
  expect(pair).toMatchObject({ client: 'lc@1', server: 'raw@1', compared: 10, same: 3 });
  expect(why.C23).toMatchObject({ kind: 'failure', side: 'client', text: expect.stringMatching(/^both failed, lc@1 with \[fault-partial\], raw@1 with \[fault-inflight\]; lc@1 fails it: /) });
  expect(why.C03).toEqual({ kind: 'capability', side: 'client', text: 'lc@1 skips it (capability: exactScan)' });
  expect(why.C04).toMatchObject({ kind: 'failure', side: 'client', text: expect.stringMatching(/^lc@1 fails it \(2 failures\): 2 × \[count\] d q1 @ lc@1: returned 0 results, expected 1/) });
  expect(why.C05).toEqual({ kind: 'figures', side: 'client', text: 'recall@k mean 0.9792 vs 0.9983, recall@k worst 0 vs 0.9000' });
  expect(why.C12).toEqual({ kind: 'known', side: 'client', text: 'lc@1 fails it, a known upstream failure: the client accepts zero vectors', link: 'https://example.org/issue/1' });
  expect(why.C21).toMatchObject({ kind: 'skipped', side: 'client', text: 'lc@1 skips it (profile p: runs in release)' });
  expect(why.C29).toMatchObject({ kind: 'failure', side: 'server' });
  expect(why.C29!.text.length).toBe(WHY_MAX_CHARS);
  const c05 = pair!.differences.find((d) => d.id === 'C05')!;
  expect([c05.client, c05.server]).toEqual([
    { status: 'passed', figures: 'recall@k mean 0.9792, recall@k worst 0, max |Δscore| 9.8e-7' },
    { status: 'passed', figures: 'recall@k mean 0.9983, recall@k worst 0.9000, max |Δscore| 1.9e-7' },
  ]);

  const md = sideBySideMarkdown([pair!]).join('\n');
  expect(md).toContain('**lc@1** next to **raw@1** (the same server without the client): 3 of 10 checks agree, 7 differ.');
  expect(md).toContain('| C03 c03 | skip | pass (recall@k mean 1) | capability: lc@1 skips it (capability: exactScan) |');
  expect(md).toContain('| C12 c12 | KNOWN | pass | known: lc@1 fails it, a known upstream failure: the client accepts zero vectors ([upstream](https://example.org/issue/1)) |');
  expect(sideBySideMarkdown([])).toEqual([]);
});

test('report.json writes a non-finite number as its name in a string, never as null (a C15 failure actual: Infinity)', () => {
  const text = reportJson({ figures: { maxDelta: Infinity, min: -Infinity, nan: NaN, ok: 1.5 }, series: [1, Infinity], failures: [{ actual: Infinity, expected: 'a finite score' }] });
  expect(JSON.parse(text)).toEqual({
    figures: { maxDelta: 'Infinity', min: '-Infinity', nan: 'NaN', ok: 1.5 },
    series: [1, 'Infinity'],
    failures: [{ actual: 'Infinity', expected: 'a finite score' }],
  });
});

test('the console ends with one line naming every failed check just above the counts, so the last lines of a CI log say what failed', () => {
  const report = emptyReport([], '2026-12-01T00:00:00.000Z');
  const failed: CheckResult = { ...passed('C30'), status: 'failed', failures: [{ message: 'lost' } as CheckResult['failures'][number]] };
  const notRun: CheckResult = { ...passed('C05'), status: 'failed', error: { code: 'NOT_RUN', message: 'store stopped answering' } };
  report.cells = [cell('a@1', [passed('C01'), failed]), cell('b@2', [failed, notRun])];
  const lines = renderConsole(reportView(settleReport(report)), false).split('\n');
  const at = lines.findIndex((l) => l.startsWith('failed ('));
  expect(lines[at]).toBe('failed (2): a@1 C30 c30; b@2 C30 c30');
  expect(lines[at + 1]).toMatch(/^\d+ passed, 2 failed/);
  report.cells = [cell('a@1', [passed('C01')])];
  expect(renderConsole(reportView(settleReport(report)), false)).not.toContain('failed (');
});

test('a teardown that failed after the checks: the verdicts stand, the console and junit say so, exit 1 (not 2 "could not run")', () => {
  const report = emptyReport([], '2026-12-01T00:00:00.000Z');
  const message = 'cleanup of a@1 failed: own-memory: drop c09_x: Connection terminated unexpectedly; left behind: collection(s) c09_x (drop failed)';
  report.cells = [{ ...cell('a@1', [passed('C01'), passed('C09')]), teardownError: { code: 'BACKEND_ERROR', message } }];
  const settled = settleReport(report);
  expect(settled.summary).toMatchObject({ passed: 2, failed: 0, cellErrors: 0, teardownErrors: 1 });
  expect(settled.exitCode).toBe(1);
  const out = renderConsole(reportView(settled), false);
  expect(out).toContain(`a@1: teardown failed after its checks (their verdicts stand; exit code at least 1): ${message}`);
  expect(out).toContain('2 passed, 0 failed, 0 known, 0 skipped, 1 teardown(s) failed');
  expect(out).not.toContain('could not run');
  const xml = renderJUnit(settled);
  expect(xml).toContain('<testcase classname="a@1" name="teardown">');
  expect(xml).toMatch(/<failure message="cleanup of a@1 failed: [^"]*" type="TEARDOWN_FAILED">/);
  expect(xml).toMatch(/<testsuites [^>]*tests="3" failures="1"/);
});

test("report.md of a run whose only problem is a teardown: the heading and the cell's line say so", () => {
  const report = emptyReport([], '2026-12-01T00:00:00.000Z');
  report.cells = [{ ...cell('a@1', [passed('C01')]), teardownError: { code: 'BACKEND_ERROR', message: 'cleanup of a@1 failed: x; left behind: 1 client(s) not closed' } }];
  const md = renderMarkdown(reportView(settleReport(report)));
  expect(md).toContain('# memory-matrix report — ❌ no check failed, but a teardown failed');
  expect(md).toContain('- **a@1** teardown failed after its checks (their verdicts stand): cleanup of a@1 failed: x; left behind: 1 client(s) not closed');
});
