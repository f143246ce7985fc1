/**
 * `knownFailures` scopes (issue 31, kind 7; docs/known-failures.md): an entry absorbs a
 * failed check only when every failure lies inside one of its scope items (kind, metric, scan
 * path, filtered, threshold, score / recall bounds). Pure tests of `knownVerdict`, then real runs
 * through the CLI of a store with injected defects (fixtures/defect-driver: the toy store with an
 * index path) under an entry scoped to LanceDB's documented index-path cosine defect: what is
 * outside the scope fails as usual, and `--check X` alone gives the verdict of the run with more
 * checks.
 */
import path from 'node:path';
import type { CheckResult, Failure, KnownFailureEntry } from '@memory-matrix/spec';
import { knownVerdict } from '../src/report/known';
import { cli, type CliResult } from './cli-helpers';

const result = (id: string, status: CheckResult['status'], failures: Failure[] = []): CheckResult => ({ id, name: id.toLowerCase(), status, figures: {}, failures, notes: [], durationMs: 1 });

/**
 * The scope of an entry (issue 31, kind 7): LanceDB's index-path cosine score scale, scoped to
 * what it produces. A failure anywhere else — the exact path, an l2 or ip collection, a filtered
 * shortfall, another score defect, a failure that records no scan path — fails as usual.
 */
describe('knownVerdict: a scope absorbs only what it describes', () => {
  const where = (over: Partial<Failure>): Failure => ({
    dataset: 'd',
    target: 'lancedb@0.37',
    queryId: 'q-0001',
    kind: 'score',
    message: 'm',
    metric: 'cosine',
    scan: 'index',
    filtered: false,
    threshold: false,
    ...over,
  });
  /** A score failure of the documented defect: actual = 2 × expected − 1 (|residual| 1e-3). */
  const scaled = (expected: number, over: Partial<Failure> = {}): Failure => where({ expected, actual: 2 * expected - 1 + 1e-3, ...over });
  const INDEX_COSINE: KnownFailureEntry = {
    check: 'C05',
    reason: 'IVF_HNSW_SQ returns 2 (1 - cos) as the cosine distance',
    link: 'https://github.com/lancedb/lancedb/issues/3530',
    scope: [
      { kinds: ['score'], metrics: ['cosine'], scan: ['index'], filtered: 'any', threshold: 'any', scoreDefect: { scale: 2, offset: -1, within: 1e-2 } },
      { kinds: ['recall'], metrics: ['cosine'], scan: ['index'], filtered: 'any', threshold: true },
    ],
  };
  const C04: KnownFailureEntry = { ...INDEX_COSINE, check: 'C04', scope: [{ kinds: ['count'], metrics: ['cosine'], scan: ['index'], filtered: true, threshold: true }] };
  const judge = (entry: KnownFailureEntry, ...fs: Failure[]) => knownVerdict(result(entry.check, 'failed', fs), entry)!;

  test('the documented defect (index path, cosine, the 2 × expected − 1 score; threshold queries at recall 0) → known, each failure with its scope item and values', () => {
    const v = judge(INDEX_COSINE, scaled(0.6), scaled(0.3, { filtered: true }), where({ kind: 'recall', queryId: 'q-0333', threshold: true, expected: 0.5, actual: 0 }));
    expect(v.verdict).toBe('known');
    expect(v.matched).toEqual([
      { failureIndex: 0, scopeItem: 0, scope: { kind: 'score', metric: 'cosine', scan: 'index', defectResidual: expect.closeTo(1e-3, 9) } },
      { failureIndex: 1, scopeItem: 0, scope: { kind: 'score', metric: 'cosine', scan: 'index', defectResidual: expect.closeTo(1e-3, 9) } },
      { failureIndex: 2, scopeItem: 1, scope: { kind: 'recall', metric: 'cosine', scan: 'index', threshold: true } },
    ]);
  });

  test.each([
    ['an exact-path failure', scaled(0.6, { scan: 'exact' }), 'scan exact not in [index]'],
    ['an l2 failure', scaled(0.6, { metric: 'l2' }), 'metric l2 not in [cosine]'],
    ['an ip failure', scaled(0.6, { metric: 'ip' }), 'metric ip not in [cosine]'],
    ['a failure that records no scan path', scaled(0.6, { scan: undefined }), 'scan (none recorded) not in [index]'],
    ['another score defect on the index path (scores off by 0.1)', where({ expected: 0.6, actual: 0.5 }), '|actual − (2 × expected − 1)| 3.00e-1 > within 0.01 (not the documented defect)'],
    ['a recall failure of a query without minScore', where({ kind: 'recall', expected: 0.5, actual: 0.2 }), 'threshold false, the scope says true'],
  ])('%s beside the known ones → not-covered, naming it and what it breaks', (_name, outsider, broken) => {
    const v = judge(INDEX_COSINE, scaled(0.6), outsider, scaled(0.4));
    expect(v.verdict).toBe('not-covered');
    expect(v.outside).toEqual([{ failureIndex: 1, kind: outsider.kind, breaks: expect.arrayContaining([expect.stringContaining(broken)]) }]);
    expect(v.message).toMatch(
      /^fails as usual: 1 of 3 failure\(s\) outside the knownFailures scope \(1: kinds \[score\] · metrics \[cosine\] · scan \[index\] · filtered any · scoreDefect 2 × expected − 1 ± 0\.01; 2: kinds \[recall\]/,
    );
    expect(v.message).toContain(broken);
    expect(v.matched).toBeUndefined();
  });

  test('C04: a filtered index-path shortfall of a query without minScore, or on the exact path, or on l2 / ip, is not the threshold defect', () => {
    const count = (over: Partial<Failure>): Failure => where({ kind: 'count', filtered: true, threshold: true, expected: 7, actual: 0, ...over });
    expect(judge(C04, count({}), count({ queryId: 'q-0350' })).verdict).toBe('known');
    for (const [outsider, broken] of [
      [count({ threshold: false, actual: 6 }), 'threshold false, the scope says true'],
      [count({ scan: 'exact' }), 'scan exact not in [index]'],
      [count({ metric: 'l2' }), 'metric l2 not in [cosine]'],
      [count({ metric: 'ip' }), 'metric ip not in [cosine]'],
      [count({ filtered: undefined }), 'filtered (none recorded), the scope says true'],
    ] as const) {
      const v = judge(C04, count({}), outsider);
      expect([v.verdict, v.outside]).toEqual(['not-covered', [{ failureIndex: 1, kind: 'count', breaks: [broken] }]]);
    }
  });

  test('a pass on a dataset in a metric no scope item admits is not stale (a cosine entry on an l2 dataset); on cosine it is', () => {
    const passed = result('C05', 'passed', []);
    expect(knownVerdict(passed, INDEX_COSINE, 'l2')).toBeUndefined();
    expect(knownVerdict(passed, INDEX_COSINE, 'ip')).toBeUndefined();
    expect(knownVerdict(passed, INDEX_COSINE, 'cosine')).toMatchObject({ verdict: 'stale' });
    expect(knownVerdict(passed, INDEX_COSINE)).toMatchObject({ verdict: 'stale' });
  });

  test('an entry without a scope (a report.json written before scopes, settled again) absorbs nothing', () => {
    const old = { check: 'C05', reason: 'r', link: 'https://example.org/1' } as unknown as KnownFailureEntry;
    expect(judge(old, scaled(0.6))).toMatchObject({ verdict: 'not-covered', message: expect.stringContaining('states no scope') });
  });

  test('bounds: maxAbsScoreDelta and minRecall; a bounded kind without numeric figures is outside', () => {
    const bounded: KnownFailureEntry = { ...INDEX_COSINE, scope: [{ kinds: ['score', 'recall'], metrics: 'any', scan: 'any', filtered: 'any', maxAbsScoreDelta: 0.5, minRecall: 0.9 }] };
    expect(judge(bounded, where({ expected: 0.6, actual: 0.2 }), where({ kind: 'recall', expected: 0.95, actual: 0.93 })).matched!.map((m) => m.scope)).toEqual([
      { kind: 'score', absScoreDelta: expect.closeTo(0.4, 9) },
      { kind: 'recall', recall: 0.93 },
    ]);
    expect(judge(bounded, where({ expected: 0.9, actual: 0.2 })).outside![0]!.breaks).toEqual(['|actual − expected| 7.00e-1 > maxAbsScoreDelta 0.5']);
    expect(judge(bounded, where({ kind: 'recall', expected: 0.95, actual: 0.5 })).outside![0]!.breaks).toEqual(['recall 0.5 < minRecall 0.9']);
    expect(judge(bounded, where({ expected: 0.9, actual: 'NaN' })).outside![0]!.breaks).toEqual(['a score bound is set and the failure has no finite expected and actual score']);
  });

  test('minRecall on a mean over threshold and non-threshold queries judges the mean without minScore (recallWithoutThreshold)', () => {
    // C05's mean-recall failure: the documented defect empties the minScore queries, so the mean over every
    // query depends on the dataset's share of them (4 of 40: 0.90); the bound is the floor over the others.
    const mean: KnownFailureEntry = { ...INDEX_COSINE, scope: [{ kinds: ['recall'], metrics: ['cosine'], scan: ['index'], filtered: 'any', threshold: 'any', minRecall: 0.95 }] };
    const meanFailure = (actual: number, recallWithoutThreshold?: number): Failure =>
      where({ kind: 'recall', expected: 0.95, actual, filtered: undefined, threshold: undefined, ...(recallWithoutThreshold === undefined ? {} : { recallWithoutThreshold }) });
    // odd-strings: 0.90 over 40 queries, 1.000 over the 36 without minScore: absorbed, the figure judged recorded.
    expect(judge(mean, meanFailure(0.9, 1)).matched!.map((m) => m.scope)).toEqual([{ kind: 'recall', metric: 'cosine', scan: 'index', recall: 1 }]);
    // a real drop among the queries without minScore: outside, named.
    expect(judge(mean, meanFailure(0.85, 0.944)).outside![0]!.breaks).toEqual(['recall without minScore 0.944 < minRecall 0.95']);
    // no query with minScore in the dataset (no recallWithoutThreshold recorded): the mean itself is judged, 0.9016 no longer passes.
    expect(judge(mean, meanFailure(0.9016)).outside![0]!.breaks).toEqual(['recall 0.9016 < minRecall 0.95']);
  });

  test('maxFailures: the item absorbs the first N failures that fit it; one more is outside (named), and failures it does not fit stay outside', () => {
    // LanceDB 0.37.1's stranded HNSW nodes: a few unfiltered index-path queries per run at recall 0.
    const stranded: KnownFailureEntry = {
      ...INDEX_COSINE,
      scope: [...INDEX_COSINE.scope, { kinds: ['recall'], metrics: ['cosine'], scan: ['index'], filtered: 'any', threshold: false, maxFailures: 2 }],
    };
    const miss = (queryId: string, over: Partial<Failure> = {}): Failure => where({ kind: 'recall', queryId, expected: 0.5, actual: 0, ...over });
    const two = judge(stranded, scaled(0.6), miss('q-0240'), miss('q-0001', { filtered: true }));
    expect(two.verdict).toBe('known');
    expect(two.matched!.map((m) => m.scopeItem)).toEqual([0, 2, 2]);
    const three = judge(stranded, scaled(0.6), miss('q-0240'), miss('q-0001'), miss('q-0002'));
    expect(three.verdict).toBe('not-covered');
    expect(three.outside).toEqual([{ failureIndex: 3, kind: 'recall', breaks: expect.arrayContaining(['scope item 3: the item already absorbed maxFailures 2 failure(s) of this check']) }]);
    expect(three.message).toMatch(/maxFailures 2/);
    // Outside the item whatever the count: the exact path, l2, a failure that records no scan path, a score failure.
    for (const f of [miss('q-0240', { scan: 'exact' }), miss('q-0240', { metric: 'l2' }), miss('q-0240', { scan: undefined }), where({ expected: 0.6, actual: 0.5 })]) {
      expect(judge(stranded, f).verdict).toBe('not-covered');
    }
    // Failures the other items absorb do not use up its count: 18 threshold queries, then 2 misses.
    const thresholds = Array.from({ length: 18 }, (_, i) => miss(`q-03${33 + i}`, { threshold: true }));
    expect(judge(stranded, ...thresholds, miss('q-0240'), miss('q-0001')).verdict).toBe('known');
  });

  test('filterCases (C31): only the named golden filter-set cases; another case, or a failure naming none, is outside', () => {
    // mem0's JS range coercion (matrix/targets.yaml): the two cases whose ranges meet a boolean or a string.
    const coercion: KnownFailureEntry = {
      check: 'C31',
      reason: 'JS >= converts false and "" to 0',
      link: 'https://github.com/mem0ai/mem0/blob/main/mem0-ts/src/oss/src/vector_stores/memory.ts',
      scope: [{ kinds: ['tie-group', 'filter'], metrics: ['cosine'], scan: ['exact'], filtered: true, filterCases: ['range-never-boolean', 'range-never-string'] }],
    };
    const wrong = (filterCase: string | undefined): Failure => where({ kind: 'tie-group', scan: 'exact', filtered: true, filterCase });
    const v = judge(coercion, wrong('range-never-boolean'), wrong('range-never-string'));
    expect(v.verdict).toBe('known');
    expect(v.matched![0]!.scope).toEqual({ kind: 'tie-group', metric: 'cosine', scan: 'exact', filtered: true, filterCase: 'range-never-boolean' });
    const other = judge(coercion, wrong('range-never-boolean'), wrong('ne-null'));
    expect(other.verdict).toBe('not-covered');
    expect(other.outside).toEqual([{ failureIndex: 1, kind: 'tie-group', breaks: ['filter case ne-null not in [range-never-boolean, range-never-string]'] }]);
    expect(judge(coercion, wrong(undefined)).outside![0]!.breaks).toEqual(['filter case (none recorded) not in [range-never-boolean, range-never-string]']);
  });
});

const DEFECT = path.join(__dirname, 'fixtures', 'defect-driver');
/** A CLI run of defect@1 (fixtures/defect-driver) with `MM_DEFECT` = `defects`. */
const run = (checks: string, defects: string): CliResult =>
  cli(['--backend', 'defect@1', '--check', checks], { env: { MM_DRIVERS: path.join(DEFECT, 'index.ts'), MM_CATALOG: path.join(DEFECT, 'targets.yaml'), MM_DEFECT: defects } });
const checkOf = (r: CliResult, id: string) => r.report!.cells[0]!.checks.find((c) => c.id === id)!;
/** How many failures each scope item absorbed, e.g. `{ 0: 2 }`. */
const perItem = (r: CliResult, id: string): Record<number, number> => {
  const out: Record<number, number> = {};
  for (const m of checkOf(r, id).knownFailure?.matched ?? []) out[m.scopeItem] = (out[m.scopeItem] ?? 0) + 1;
  return out;
};

describe("real runs: a store with LanceDB's index-path cosine defect, under entries scoped to it", () => {
  test('the documented defect alone: C04 and C05 KNOWN (exit 0), every failure with its scope item; --check C05 / C04 alone: the same verdicts and matches', () => {
    const both = run('C04,C05', 'index-cosine-scale');
    expect(both.status).toBe(0);
    expect([checkOf(both, 'C04').status, checkOf(both, 'C05').status]).toEqual(['known', 'known']);
    const c05 = checkOf(both, 'C05');
    expect(c05.failures.every((f) => f.scan === 'index' && f.metric === 'cosine')).toBe(true);
    expect(Object.keys(perItem(both, 'C05')).sort()).toEqual(['0', '1', '2']); // scores, threshold queries, the mean
    for (const id of ['C05', 'C04']) {
      const alone = run(id, 'index-cosine-scale');
      expect([alone.status, checkOf(alone, id).status]).toEqual([0, 'known']);
      expect(perItem(alone, id)).toEqual(perItem(both, id));
      expect(checkOf(alone, id).failures.map((f) => f.message)).toEqual(checkOf(both, id).failures.map((f) => f.message));
    }
  }, 600_000);

  test.each([
    // C05 judges the index path only: the exact-path defect leaves it inside its scope; the dropped
    // row is a recall loss of filtered queries without minScore (k = 1: recall 0), outside it too.
    ['an exact-path failure (the same wrong score on the exact path)', 'index-cosine-scale,exact-scale', /scan exact not in \[index\]/, 'known'],
    ['a filtered index-path shortfall of queries without minScore', 'index-cosine-scale,index-filter-drop', /threshold false, the scope says true/, 'failed'],
  ])(
    '%s beside the documented defect: C04 fails as usual (exit 1), alone and with C05, naming what it breaks',
    (_name, defects, broken, c05) => {
      for (const checks of ['C04,C05', 'C04']) {
        const r = run(checks, defects);
        expect(r.status).toBe(1);
        const c04 = checkOf(r, 'C04');
        expect(c04).toMatchObject({ status: 'failed', knownFailure: { verdict: 'not-covered' } });
        expect(c04.knownFailure!.message).toMatch(broken);
        expect(c04.knownFailure!.outside!.length).toBeGreaterThan(0);
        if (checks === 'C04,C05') expect(checkOf(r, 'C05').status).toBe(c05);
      }
    },
    600_000,
  );
});
