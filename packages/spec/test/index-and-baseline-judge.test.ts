import type { IndexInEffect } from '../src';
import { compareIndex, pickQueries } from '../src/checks/c28-index-in-effect';
import { describeInEffect } from '../src/checks/c05-ann-recall';
import { judgeAgainstBaseline, type ReleaseBaseline } from '../src/checks/c05-baseline';
import type { LiveCell, QueryRun } from '../src/conformance/cell';

/**
 * The judgements of C28 (declared index vs the one the server reports) and of C05 against a
 * release baseline (c05-baseline.ts), on values; the server side of C28 is tested on real PGlite
 * in adapter-pgvector/test/index-in-effect.test.ts, C29 and the baselines in live matrix runs.
 */
const HNSW = { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 } as const;

describe('C28 compareIndex', () => {
  const inEffect = (over: Partial<IndexInEffect>): IndexInEffect => ({ type: 'hnsw', metric: 'cosine', params: { m: 16, efConstruction: 64, efSearch: 100 }, source: 'test', ...over });

  test('declared == in effect: no problem; unreported parameters are collected, not failed', () => {
    const unreported = new Set<string>();
    expect(compareIndex(HNSW, 'cosine', inEffect({}), unreported)).toEqual([]);
    expect(compareIndex(HNSW, 'cosine', inEffect({ params: { m: 16 } }), unreported)).toEqual([]);
    expect([...unreported]).toEqual(['efConstruction', 'efSearch']);
  });

  test('a sequential scan (type none) fails with the declared index named', () => {
    expect(compareIndex(HNSW, 'cosine', inEffect({ type: 'none', metric: null, params: {} }), new Set())).toEqual([
      'the server answers the index-path recall with index type none, not the declared hnsw(m=16,efc=64,ef=100)',
    ]);
  });

  test('ef_search at the server default 40 and an l2 operator class under cosine both fail', () => {
    expect(compareIndex(HNSW, 'cosine', inEffect({ metric: 'l2', params: { m: 16, efConstruction: 64, efSearch: 40 } }), new Set())).toEqual([
      "the index is built for metric l2, the collection's metric is cosine",
      'efSearch in effect is 40, declared 100',
    ]);
  });

  test('describeInEffect shows the server values and extras', () => {
    expect(describeInEffect(inEffect({ params: { m: 16, efSearch: 40 }, extra: { 'hnsw.iterative_scan': 'strict_order' } }))).toBe('hnsw(m=16,ef=40) cosine [hnsw.iterative_scan=strict_order]');
    expect(describeInEffect(inEffect({ type: 'none', metric: null, params: {} }))).toBe('none (no index used)');
  });

  test('pickQueries: the first unfiltered and the first filtered query without decay', () => {
    const q = (id: string, extra: object = {}) => ({ id, vector: new Float32Array(1), k: 1, ...extra }) as never;
    expect(pickQueries([q('a', { now: 'x' }), q('b', { filter: { namespaces: ['n'] } }), q('c'), q('d')]).map((x: { id: string }) => x.id)).toEqual(['c', 'b']);
  });
});

describe('C05 against a release baseline', () => {
  // Recall@k of a run = the share of its ids in the query's "true" top list (a stand-in for the
  // oracle comparison LiveCell.compare does; the judgement only reads recallAtK).
  const truth: Record<string, string[]> = { q1: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], q2: ['k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't'], q3: ['u', 'v'] };
  const cell = {
    datasetName: 'ds',
    target: 'pgvector@test',
    dataset: { manifest: { metric: 'cosine' }, queries: Object.keys(truth).map((id) => ({ id, k: truth[id]!.length })) },
    compare: (run: QueryRun) => ({ recallAtK: run.hits.filter((h) => truth[run.query.id]!.includes(h.id)).length / run.query.k }),
  } as unknown as LiveCell;
  const baseline = (over: Partial<ReleaseBaseline> = {}): ReleaseBaseline => ({
    file: 'matrix/baselines/pgvector@test.json',
    recordedAt: '2026-01-01T00:00:00Z',
    serverVersion: 'PostgreSQL test',
    queries: new Map(Object.entries(truth).map(([q, ids]) => [q, { ids, scores: ids.map(() => 1) }])),
    meanRecallDrop: 0.004,
    queryRecallDrop: 0.2,
    ...over,
  });

  test('equal recall passes; a drop within both tolerances passes', () => {
    expect(
      judgeAgainstBaseline(
        cell,
        new Map([
          ['q1', 1],
          ['q2', 1],
          ['q3', 1],
        ]),
        baseline(),
        new Set(),
      ).failures,
    ).toEqual([]);
    expect(
      judgeAgainstBaseline(
        cell,
        new Map([
          ['q1', 0.9],
          ['q2', 1],
          ['q3', 1],
        ]),
        baseline({ meanRecallDrop: 0.05 }),
        new Set(),
      ).failures,
    ).toEqual([]);
  });

  test('a drop above the floors but below the baseline fails, naming the queries', () => {
    const v = judgeAgainstBaseline(
      cell,
      new Map([
        ['q1', 0.6],
        ['q2', 0.9],
        ['q3', 1],
      ]),
      baseline(),
      new Set(),
    );
    const msgs = v.failures.map((f) => f.message);
    expect(msgs).toHaveLength(2);
    expect(msgs[0]).toContain('query q1: recall@k 0.600 < release baseline 1.000 by 0.400 > 0.2 (matrix/baselines/pgvector@test.json)');
    expect(msgs[1]).toMatch(/mean recall@k 0\.8333 < release baseline 1\.0000 by 0\.1667 > 0\.004 over 3 queries .*2 queries fell: q1 1\.00→0\.60, q2 1\.00→0\.90/);
    expect(v.figures.baselineQueriesBelow).toBe(2);
  });

  test('a per-query drop exactly at the tolerance passes; excluded (duplicate-cluster) queries are not judged', () => {
    expect(
      judgeAgainstBaseline(
        cell,
        new Map([
          ['q1', 0.8],
          ['q2', 1],
          ['q3', 1],
        ]),
        baseline({ meanRecallDrop: 1 }),
        new Set(),
      ).failures,
    ).toEqual([]);
    expect(
      judgeAgainstBaseline(
        cell,
        new Map([
          ['q1', 1],
          ['q2', 1],
          ['q3', 0],
        ]),
        baseline(),
        new Set(['q3']),
      ).failures,
    ).toEqual([]);
  });

  test('a golden query missing from the baseline fails (stale baseline)', () => {
    const b = baseline({ queries: new Map([['q1', { ids: truth.q1!, scores: truth.q1!.map(() => 1) }]]) });
    const v = judgeAgainstBaseline(
      cell,
      new Map([
        ['q1', 1],
        ['q2', 1],
      ]),
      b,
      new Set(),
    );
    expect(v.failures.map((f) => f.message).join('\n')).toContain('1 golden queries have no line in the release baseline');
  });
});
