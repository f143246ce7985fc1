/**
 * `knownFailures` in matrix/targets.yaml (docs/known-failures.md): the strict schema
 * (an unknown check is USAGE naming file, line and target: exit 2 from the CLI), the verdict of
 * a listed check (listed kind → known, unlisted kind or an error → failed as usual, pass → stale,
 * intermittent pass → not reproduced), the exit status and counts of a settled report, and how
 * console, report.md and junit.xml show them. The stale case also runs for real: C01 on the
 * embedded SQLite target with an entry for it (no Docker needed).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCatalog } from '@memory-matrix/targets';
import { durabilityFigures, type CheckResult, type DurabilityFigures, type Failure, type KnownFailureEntry, type KnownFailureScope } from '@memory-matrix/spec';
import { renderConsole } from '../src/report/console';
import { renderJUnit } from '../src/report/junit';
import { applyKnownFailures, knownVerdict } from '../src/report/known';
import { renderMarkdown } from '../src/report/markdown';
import { emptyReport, type CellReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { catalogEditor, cli, REPO } from './cli-helpers';
import { loadPage } from './page-dom';
import { cellReport } from './report-fixtures';

const CATALOG = path.join(REPO, 'matrix', 'targets.yaml');
const catalogWith = catalogEditor('mm-known-');
const SQLITE_HEAD = '  sqlite@3.53-vec0.1.9:\n    backend: sqlite\n';
/** The SQLite target with `entries` (YAML lines, indented 6) as its knownFailures. */
const sqliteWith = (name: string, entries: string): string => catalogWith(name, (y) => y.replace(SQLITE_HEAD, `${SQLITE_HEAD}    knownFailures:\n${entries}`));
const LINK = 'https://github.com/valkey-io/valkey/pull/4342';
/** A scope item of one kind, every metric, scan path and filter (a finding that is not about a recall). */
const ANY_WHERE = (kind: string): KnownFailureScope => ({ kinds: [kind], metrics: 'any', scan: 'any', filtered: 'any' });
const SCOPE_YAML = 'scope: [{ kinds: any, metrics: any, scan: any, filtered: any }]';

describe('knownFailures schema (strict)', () => {
  test('the repository catalog lists the Redis AOF finding on redis@7.0, 8.0 and 8.0.6 (C15, durability-partial, intermittent), the HNSW inner-product finding on pgvector and Chroma, and the LanceDB, Milvus and Chroma 1.4 findings on their targets', () => {
    const c = loadCatalog(CATALOG);
    const listed = [...c.targets.values()].filter((t) => t.knownFailures?.length).map((t) => t.name);
    // The findings below are on these targets; a new backend's own entries (its folder + catalog entry) need no edit here.
    expect(listed).toEqual(
      expect.arrayContaining([
        'chroma@1.0',
        'chroma@1.4',
        'lancedb@0.37',
        'milvus@lite-1.2',
        'pgvector@pg17',
        'pgvector@pg18',
        'pgvector@pglite-pg16',
        'pgvector@pglite-pg18',
        'redis@7.0',
        'redis@8.0',
        'redis@8.0.6',
      ]),
    );
    // HNSW under inner product (non-unit vectors): C04 count failures on the index path, filtered, ip only, bounded
    const ipHnsw = (maxFailures: number, intermittent: boolean, link: RegExp) => ({
      check: 'C04',
      scope: [{ kinds: ['count'], metrics: ['ip'], scan: ['index'], filtered: true, threshold: false, maxFailures }],
      ...(intermittent ? { intermittent: true } : {}),
      reason: expect.stringContaining('inner product is not a metric'),
      link: expect.stringMatching(link),
    });
    const pgLink = /^https:\/\/github\.com\/pgvector\/pgvector\/issues\//;
    for (const t of ['pgvector@pglite-pg16', 'pgvector@pglite-pg18', 'pgvector@pg17', 'pgvector@pg18']) expect(c.targets.get(t)!.knownFailures).toEqual([ipHnsw(8, true, pgLink)]);
    const chromaIp = ipHnsw(11, true, /^https:\/\/github\.com\/nmslib\/hnswlib/);
    expect(c.targets.get('chroma@1.0')!.knownFailures).toEqual([chromaIp]);
    expect(c.targets.get('chroma@1.4')!.knownFailures).toEqual([
      {
        check: 'C22',
        scope: [{ kinds: ['write-refused'], metrics: 'any', scan: 'any', filtered: 'any' }],
        intermittent: true,
        reason: expect.stringContaining('Error finding id'),
        link: expect.stringMatching(/^https:\/\/github\.com\/chroma-core\/chroma\//),
      },
      chromaIp,
    ]);
    expect(c.targets.get('lancedb@0.37')!.knownFailures!.map((k) => k.check)).toEqual(['C04', 'C05', 'C22']);
    expect(c.targets.get('milvus@lite-1.2')!.knownFailures!.map((k) => k.check)).toEqual(['C22']);
    for (const t of listed.filter((n) => n.startsWith('redis@'))) {
      expect(c.targets.get(t)!.knownFailures).toEqual([{ check: 'C15', scope: [ANY_WHERE('durability-partial')], intermittent: true, reason: expect.stringContaining('MULTI'), link: LINK }]);
    }
  });

  test('a check by name is normalised to its id', () => {
    const f = sqliteWith('by-name.yaml', `      - { check: write-read, reason: r, link: "${LINK}", ${SCOPE_YAML} }\n`);
    expect(loadCatalog(f).targets.get('sqlite@3.53-vec0.1.9')!.knownFailures).toEqual([
      { check: 'C01', reason: 'r', link: LINK, scope: [{ kinds: 'any', metrics: 'any', scan: 'any', filtered: 'any' }] },
    ]);
  });

  test('an unknown check: USAGE naming file:line, the target and the id; the CLI exits 2 before any backend starts', () => {
    const f = sqliteWith('unknown-check.yaml', `      - { check: C99, reason: r, link: "${LINK}", ${SCOPE_YAML} }\n`);
    const line =
      readFileSync(f, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('C99')) + 1;
    expect(() => loadCatalog(f)).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(`${f}:${line}: targets.sqlite@3.53-vec0.1.9.knownFailures.0.check: unknown check "C99"`) }),
    );
    const r = cli(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01'], { env: { MM_CATALOG: f } });
    expect(r.status).toBe(2);
    expect(r.report?.error).toMatchObject({ code: 'USAGE', message: expect.stringContaining('targets.sqlite@3.53-vec0.1.9.knownFailures.0.check: unknown check "C99"') });
    expect(r.report?.cells).toEqual([]);
  }, 120_000);

  test('an entry without a scope is refused at catalog load: USAGE naming file:line, the target and the field', () => {
    const f = sqliteWith('no-scope.yaml', `      - check: C05\n        reason: r\n        link: "${LINK}"\n`);
    const line =
      readFileSync(f, 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('- check: C05')) + 1;
    expect(() => loadCatalog(f)).toThrow(
      expect.objectContaining({
        code: 'USAGE',
        message: expect.stringContaining(`${f}:${line}: targets.sqlite@3.53-vec0.1.9.knownFailures.0.scope: give the scope: a list of items with kinds, metrics, scan and filtered`),
      }),
    );
  });

  test.each([
    ['an unknown key', `      - { check: C01, reason: r, link: "${LINK}", ${SCOPE_YAML}, kind: [x] }\n`, /knownFailures\.0\.kind: unknown key "kind"/],
    ['no link', `      - { check: C01, reason: r, ${SCOPE_YAML} }\n`, /knownFailures\.0\.link: Required/],
    ['a link that is not http(s)', `      - { check: C01, reason: r, link: "javascript:alert(1)", ${SCOPE_YAML} }\n`, /knownFailures\.0\.link: link must be an http\(s\) URL/],
    ['an empty reason', `      - { check: C01, reason: " ", link: "${LINK}", ${SCOPE_YAML} }\n`, /knownFailures\.0\.reason: give the reason/],
    [
      'the same check twice',
      `      - { check: C01, reason: r, link: "${LINK}", ${SCOPE_YAML} }\n      - { check: write-read, reason: r2, link: "${LINK}", ${SCOPE_YAML} }\n`,
      /knownFailures\.1\.check: check C01 is listed twice/,
    ],
    ['no scope', `      - { check: C01, reason: r, link: "${LINK}" }\n`, /knownFailures\.0\.scope: give the scope: a list of items with kinds, metrics, scan and filtered/],
    ['kinds beside the scope (the old form)', `      - { check: C01, reason: r, link: "${LINK}", kinds: [count], ${SCOPE_YAML} }\n`, /knownFailures\.0\.kinds: unknown key "kinds"/],
    ['an empty scope', `      - { check: C01, reason: r, link: "${LINK}", scope: [] }\n`, /knownFailures\.0\.scope: Array must contain at least 1/],
    [
      'a scope item without metrics',
      `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: any, scan: any, filtered: any }] }\n`,
      /knownFailures\.0\.scope\.0\.metrics: state the metrics the defect shows on/,
    ],
    [
      'a scope item without scan',
      `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: any, metrics: [cosine], filtered: any }] }\n`,
      /knownFailures\.0\.scope\.0\.scan: state the scan paths/,
    ],
    [
      'a scope item without filtered',
      `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: any, metrics: any, scan: [index] }] }\n`,
      /knownFailures\.0\.scope\.0\.filtered: state whether the scope covers filtered queries/,
    ],
    ['an unknown metric', `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: any, metrics: [dot], scan: any, filtered: any }] }\n`, /knownFailures\.0\.scope\.0\.metrics/],
    [
      'a kind that is not kebab-case',
      `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: [Durability Partial], metrics: any, scan: any, filtered: any }] }\n`,
      /knownFailures\.0\.scope\.0\.kinds/,
    ],
    [
      'a score bound on an item without kind score',
      `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: [recall], metrics: any, scan: any, filtered: any, maxAbsScoreDelta: 0.5 }] }\n`,
      /scope\.0\.maxAbsScoreDelta: maxAbsScoreDelta bounds score failures/,
    ],
    [
      'maxFailures that is not a positive integer',
      `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: [recall], metrics: any, scan: any, filtered: any, maxFailures: 0 }] }\n`,
      /scope\.0\.maxFailures: Number must be greater than 0/,
    ],
    [
      'an unknown key in a scope item',
      `      - { check: C01, reason: r, link: "${LINK}", scope: [{ kinds: any, metrics: any, scan: any, filtered: any, path: index }] }\n`,
      /knownFailures\.0\.scope\.0\.path: unknown key "path"/,
    ],
  ])('%s: USAGE naming the field', (name, entries, message) => {
    const f = sqliteWith(`bad-${name.replace(/\W+/g, '-')}.yaml`, entries);
    expect(() => loadCatalog(f)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringMatching(message) }));
  });
});

const failure = (kind: string, message = `[x] ${kind}`): Failure => ({ dataset: 'd', target: 'redis@8.0', queryId: '-', kind, message });
const result = (id: string, status: CheckResult['status'], failures: Failure[] = [], extra: Partial<CheckResult> = {}): CheckResult => ({
  id,
  name: id === 'C15' ? 'durability' : id.toLowerCase(),
  status,
  figures: {},
  failures,
  notes: [],
  durationMs: 1,
  ...extra,
});
const ENTRY: KnownFailureEntry = { check: 'C15', scope: [ANY_WHERE('durability-partial')], intermittent: true, reason: 'AOF MULTI truncated inside the block', link: LINK };

describe('knownVerdict: the only thing that turns a failure into known', () => {
  test('every failure of a listed kind → known', () => {
    const v = knownVerdict(result('C15', 'failed', [failure('durability-partial'), failure('durability-partial')]), ENTRY)!;
    expect(v).toMatchObject({ verdict: 'known', check: 'C15', link: LINK, intermittent: true });
    expect(v.matched).toEqual([0, 1].map((failureIndex) => ({ failureIndex, scopeItem: 0, scope: { kind: 'durability-partial' } })));
    expect(v.message).toBe(`KNOWN (intermittent): AOF MULTI truncated inside the block (${LINK})`);
  });
  test('a kind outside the scope (alone or beside listed ones) → not-covered: fails as usual, naming it and what it breaks', () => {
    for (const fs of [[failure('durability-lost')], [failure('durability-partial'), failure('durability-lost'), failure('durability-changed')]]) {
      const v = knownVerdict(result('C15', 'failed', fs), ENTRY)!;
      expect(v.verdict).toBe('not-covered');
      expect(v.message).toMatch(
        /^fails as usual: [12] of [13] failure\(s\) outside the knownFailures scope \(kinds \[durability-partial\] · metrics any · scan any · filtered any\): failure [12] \[durability-lost\]/,
      );
      expect(v.outside!.map((o) => o.kind).sort()).toEqual(
        fs
          .filter((f) => f.kind !== 'durability-partial')
          .map((f) => f.kind)
          .sort(),
      );
      expect(v.outside![0]!.breaks).toEqual([expect.stringMatching(/^kind durability-(lost|changed) not in \[durability-partial\]$/)]);
    }
  });
  test('an error that stopped the check, or a failure without failures → not-covered, even when the entry lists every kind', () => {
    const all: KnownFailureEntry = { check: 'C15', reason: 'r', link: LINK, scope: [{ kinds: 'any', metrics: 'any', scan: 'any', filtered: 'any' }] };
    expect(knownVerdict(result('C15', 'failed', [], { error: { code: 'BACKEND_ERROR', message: 'gone' } }), all)).toMatchObject({
      verdict: 'not-covered',
      message: expect.stringContaining('BACKEND_ERROR'),
    });
    expect(knownVerdict(result('C15', 'failed', []), all)!.verdict).toBe('not-covered');
    expect(knownVerdict(result('C15', 'failed', [failure('anything')]), all)!.verdict).toBe('known'); // kinds any: every kind
  });
  test('a pass → stale ("remove the entry"); an intermittent entry → not reproduced this run', () => {
    const { intermittent: _i, ...steady } = ENTRY;
    expect(knownVerdict(result('C15', 'passed'), steady)).toMatchObject({ verdict: 'stale', message: expect.stringMatching(/^STALE known failure: C15 passed; remove the knownFailures entry/) });
    expect(knownVerdict(result('C15', 'passed'), ENTRY)).toMatchObject({
      verdict: 'stale',
      intermittent: true,
      message: expect.stringMatching(/^known failure not reproduced this run \(intermittent\)/),
    });
  });
  test('no entry, or a skipped check → no verdict', () => {
    expect(knownVerdict(result('C15', 'failed', [failure('durability-partial')]), undefined)).toBeUndefined();
    expect(knownVerdict(result('C15', 'skipped'), ENTRY)).toBeUndefined();
  });
});

function cell(target: string, checks: CheckResult[], knownFailures?: KnownFailureEntry[]): CellReport {
  return cellReport(target, checks, { backend: 'redis', provider: 'container', ...(knownFailures ? { knownFailures } : {}) });
}
const partial = failure('durability-partial', 'd @ redis@8.0: [aof-always (history)] cycle 5 session c15h-s3: append call 4/3/59 is partly present: 1 of its 3 messages');

describe('a settled report', () => {
  const settle = (cells: CellReport[]) => {
    const r = emptyReport(['--backend', 'redis@8.0'], '2026-12-02T00:00:00.000Z');
    r.cells = cells;
    return settleReport(r);
  };

  test('a listed failure is known and does not fail the run; the same failure unlisted on another target does', () => {
    const ok = settle([cell('redis@8.0', [result('C01', 'passed'), result('C15', 'failed', [partial])], [ENTRY])]);
    expect(ok.cells[0]!.checks[1]).toMatchObject({ status: 'known', knownFailure: { verdict: 'known' } });
    expect(ok.summary).toMatchObject({ passed: 1, failed: 0, known: 1, stale: 0, notReproduced: 0, skipped: 0 });
    expect(ok.exitCode).toBe(0);
    const both = settle([cell('redis@8.0', [result('C15', 'failed', [partial])], [ENTRY]), cell('redis@8.0-noquant', [result('C15', 'failed', [partial])])]);
    expect(both.cells.map((c) => c.checks[0]!.status)).toEqual(['known', 'failed']);
    expect(both.exitCode).toBe(1);
  });

  const emptyDurabilityFigures = (configuration: string, durable: boolean): DurabilityFigures => ({
    configuration,
    durable,
    acknowledged: 0,
    acknowledgedBatches: 0,
    lost: 0,
    phantomInFlight: 0,
    phantomUnknown: 0,
    duplicated: 0,
    changed: 0,
    cycles: 0,
  });
  test('the durability table marks the configuration of a known C15 failure KNOWN, and FAIL where C15 is not listed', () => {
    const figures = durabilityFigures([emptyDurabilityFigures('aof-always', true), { ...emptyDurabilityFigures('aof-always (history)', true), acknowledged: 10, cycles: 5 }]);
    const r = settle([cell('redis@8.0', [result('C15', 'failed', [partial], { figures })], [ENTRY]), cell('redis@8.0-noquant', [result('C15', 'failed', [partial], { figures })])]);
    expect(r.durability.map((d) => [d.target, d.configuration, d.verdict])).toEqual([
      ['redis@8.0', 'aof-always', 'pass'],
      ['redis@8.0', 'aof-always (history)', 'known'],
      ['redis@8.0-noquant', 'aof-always', 'pass'],
      ['redis@8.0-noquant', 'aof-always (history)', 'fail'],
    ]);
    expect(renderConsole(reportView(r), false)).toMatch(/│ redis@8\.0 +│ aof-always \(history\) .*│ KNOWN +│/);
  });

  test('an entry for another check suppresses nothing; an unlisted kind fails with the entry named', () => {
    const other = settle([cell('redis@8.0', [result('C23', 'failed', [failure('durability-partial')])], [ENTRY])]);
    expect(other.cells[0]!.checks[0]).toMatchObject({ status: 'failed' });
    expect(other.cells[0]!.checks[0]!.knownFailure).toBeUndefined();
    const unlisted = settle([cell('redis@8.0', [result('C15', 'failed', [partial, failure('durability-lost')])], [ENTRY])]);
    expect(unlisted.cells[0]!.checks[0]).toMatchObject({ status: 'failed', knownFailure: { verdict: 'not-covered' } });
    expect(unlisted.exitCode).toBe(1);
  });

  test('a stale entry is counted and printed but does not change the exit status; settling twice (a merge) gives the same verdicts', () => {
    const r = settle([cell('redis@8.0', [result('C15', 'passed')], [{ ...ENTRY, intermittent: false }]), cell('redis@7.0', [result('C15', 'failed', [partial])], [ENTRY])]);
    expect(r.summary).toMatchObject({ passed: 1, failed: 0, known: 1, stale: 1, notReproduced: 0 });
    expect(r.exitCode).toBe(0);
    const again = settleReport(JSON.parse(JSON.stringify(r)));
    expect(again.cells).toEqual(r.cells);
    expect(again.summary).toEqual(r.summary);
    // A report.json edited to say `known` without a listing is re-judged from its failures: failed.
    const forged = JSON.parse(JSON.stringify(r));
    delete forged.cells[1].knownFailures;
    expect(settleReport(forged).cells[1].checks[0]).toMatchObject({ status: 'failed' });
    expect(applyKnownFailures(forged.cells)[1]!.checks[0]!.knownFailure).toBeUndefined();
  });

  test('console, report.md and junit.xml: KNOWN in amber with reason and link, stale / not reproduced flagged, the counts line', () => {
    const r = settle([
      cell('redis@8.0', [result('C01', 'passed'), result('C15', 'failed', [partial])], [ENTRY]),
      cell('redis@8.0.6', [result('C01', 'passed'), result('C15', 'passed')], [ENTRY]),
      cell('redis@7.0', [result('C01', 'passed'), result('C15', 'passed')], [{ ...ENTRY, intermittent: false }]),
    ]);
    const view = reportView(r);
    const plain = renderConsole(view, false);
    expect(plain).toContain('KNOWN (1)');
    expect(plain).toContain('(known: not reproduced)');
    expect(plain).toContain('(STALE known)');
    expect(plain).toContain(`redis@8.0 C15 durability: 1 failure(s), KNOWN (intermittent): AOF MULTI truncated inside the block (${LINK})`);
    expect(plain).toContain('redis@7.0 C15 durability: STALE known failure: C15 passed; remove the knownFailures entry');
    expect(plain).toContain(`redis@8.0.6 C15 durability: known failure not reproduced this run (intermittent): ${LINK} (its reason: report.md, "Known upstream failures")`);
    expect(plain).not.toContain('redis@8.0.6 C15 durability: known failure not reproduced this run (intermittent): AOF');
    expect(plain.split('\n').at(-1)).toBe('5 passed, 0 failed, 1 known, 0 skipped, 1 stale knownFailures entry, 1 known failure(s) not reproduced (intermittent)');
    const md = renderMarkdown(view);
    expect(md).toContain('# memory-matrix report — ✅ all checks passed');
    expect(md).toContain('**5 passed, 0 failed, 1 known, 0 skipped, 1 stale knownFailures entry, 1 known failure(s) not reproduced (intermittent)**');
    expect(md).toContain(`🟠 KNOWN ([upstream](${LINK}))`);
    expect(md).toContain('### Known upstream failures');
    expect(md).toContain(`| redis@8.0 | C15 durability | 🟠 KNOWN (intermittent) | 1: d @ redis@8.0: [aof-always (history)] cycle 5 session c15h-s3`);
    expect(md).toContain('| redis@7.0 | C15 durability | **STALE: remove the entry** |');
    expect(md).toContain('| redis@8.0.6 | C15 durability | not reproduced this run (intermittent) |');
    const xml = renderJUnit(r);
    expect(xml).toMatch(/<testsuites name="memory-matrix" tests="6" failures="0" skipped="1"/);
    expect(xml).toContain(`<skipped message="KNOWN (intermittent): AOF MULTI truncated inside the block (${LINK})"/>`);
    expect(xml).toContain('<property name="knownFailure" value="known"/>');
    expect(xml).toContain('<property name="knownFailure" value="stale"/>');
    expect(xml).toContain('<property name="knownFailure" value="not-reproduced"/>');
    expect(xml).toContain(`<property name="knownFailureLink" value="${LINK}"/>`);
    expect(xml).toContain('<system-out>d @ redis@8.0: [aof-always (history)] cycle 5');
    expect(xml).not.toContain('<failure');
  });
});

describe('a real run (embedded SQLite, C01) with an entry for a check that passes', () => {
  test('reported as stale in every report; exit 0', () => {
    const f = sqliteWith('stale.yaml', `      - { check: C01, reason: "a made-up upstream failure", link: "https://example.org/issue/1", ${SCOPE_YAML} }\n`);
    const r = cli(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01'], { env: { MM_CATALOG: f } });
    expect(r.status).toBe(0);
    const c01 = r.report!.cells[0]!.checks.find((c) => c.id === 'C01')!;
    expect(c01).toMatchObject({ status: 'passed', knownFailure: { verdict: 'stale', link: 'https://example.org/issue/1' } });
    expect(r.report!.summary).toMatchObject({ passed: 1, failed: 0, known: 0, stale: 1 });
    expect(r.stdout).toContain('STALE known failure: C01 passed; remove the knownFailures entry (a made-up upstream failure; https://example.org/issue/1)');
    expect(r.stdout).toContain('1 passed, 0 failed, 0 known, 0 skipped, 1 stale knownFailures entry');
    expect(readFileSync(path.join(r.reportDir, 'report.md'), 'utf8')).toContain('**STALE: remove the entry**');
    expect(readFileSync(path.join(r.reportDir, 'junit.xml'), 'utf8')).toContain('<property name="knownFailure" value="stale"/>');
    expect(readFileSync(path.join(r.reportDir, 'report.html'), 'utf8')).toContain('"verdict":"stale"');
  }, 240_000);
});

/** report.html's own scripts over a minimal DOM (page-dom.ts): what the page draws for a known, a stale and a not-reproduced check. */
describe('report.html: the page scripts draw KNOWN in amber with reason and link, stale flagged, the known count', () => {
  const MM = loadPage();
  const dir = path.join(__dirname, '..', 'src', 'report', 'html', 'client');

  test('check matrix and counts', () => {
    const r = emptyReport([], '2026-12-02T00:00:00.000Z');
    r.cells = [
      cell('redis@8.0', [result('C15', 'failed', [partial])], [ENTRY]),
      cell('redis@8.0.6', [result('C15', 'passed')], [ENTRY]),
      cell('redis@7.0', [result('C15', 'passed')], [{ ...ENTRY, intermittent: false }]),
    ];
    const settled = JSON.parse(JSON.stringify(settleReport(r))); // the page reads report.json
    const tds = MM.checkMatrix(settled).all((e) => e.tag === 'td' && e.dataset.mm === 'check');
    expect(tds.map((t) => [t.dataset.target, t.dataset.status, t.attrs.class])).toEqual([
      ['redis@8.0', 'known', 'st-known'],
      ['redis@8.0.6', 'passed', 'st-passed'],
      ['redis@7.0', 'passed', 'st-passed'],
    ]);
    expect(tds[0]!.textContent).toContain('KNOWN (1)');
    expect(tds[0]!.textContent).toContain('AOF MULTI truncated inside the block');
    expect(tds[0]!.all((e) => e.tag === 'a').map((a) => a.attrs.href)).toEqual([LINK]);
    expect(tds[0]!.textContent).toContain('[durability-partial] d @ redis@8.0: [aof-always (history)] cycle 5');
    expect(tds[1]!.textContent).toBe('passknown failure not reproduced this run (intermittent)');
    expect(tds[2]!.textContent).toBe('passSTALE knownFailures entry: remove it');
    const head = MM.summary(settled);
    expect(head.all((e) => e.dataset.mm === 'count-known').map((e) => e.textContent)).toEqual(['1']);
    expect(head.all((e) => e.dataset.mm === 'count-stale').map((e) => e.textContent)).toEqual(['1']);
    expect(head.all((e) => e.dataset.mm === 'count-not-reproduced').map((e) => e.textContent)).toEqual(['1']);
    expect(head.all((e) => e.dataset.mm === 'verdict').map((e) => e.textContent)).toEqual(['✔ all checks passed (exit 0)']);
    const css = readFileSync(path.join(dir, '..', 'page.css'), 'utf8');
    expect(css).toMatch(/--known: #d97706;/); // amber
    expect(css).toMatch(/\.st-known \{\n {2}color: var\(--known\);/);
  });
});
