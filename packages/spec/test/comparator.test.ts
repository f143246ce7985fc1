import { compareHits, formatFailure, tieGroups, type CompareOptions } from '../src/comparator';
import type { OracleResult } from '../src/oracle';

const hits = (pairs: Array<[string, number]>) => pairs.map(([id, score]) => ({ id, score }));
const ctx = { dataset: 'agent-memories', target: 'pgvector@pglite-pg18', queryId: 'q0042' };

// k = 4: m3, m4, m5 tie at 0.7 and the group is cut by k (ranks 3–5, only 3–4 returned).
const expected: OracleResult = {
  hits: hits([
    ['m1', 0.9],
    ['m2', 0.8],
    ['m3', 0.7],
    ['m4', 0.7],
    ['m5', 0.7],
  ]),
  matching: 50,
};
const belowK: Record<string, number> = { m6: 0.6, m7: 0.5 };
const exact: CompareOptions = {
  k: 4,
  mode: 'exact',
  tieEpsilon: 1e-5,
  scoreTolerance: 1e-5,
  scoreOf: (id) => belowK[id],
};
const ann: CompareOptions = { ...exact, mode: 'ann' };
const kinds = (c: { failures: Array<{ kind: string }> }) => c.failures.map((f) => f.kind);

describe('tieGroups', () => {
  test('neighbours within ε chain into one group', () => {
    const g = tieGroups(
      hits([
        ['a', 0.500016],
        ['b', 0.500008],
        ['c', 0.5],
        ['d', 0.4],
      ]),
      1e-5,
    );
    expect(g.map((x) => x.map((h) => h.id))).toEqual([['a', 'b', 'c'], ['d']]);
  });
  test('a NaN score never joins a group; empty input → []', () => {
    expect(
      tieGroups(
        hits([
          ['a', 1],
          ['b', NaN],
          ['c', NaN],
        ]),
        1,
      ).map((x) => x.length),
    ).toEqual([1, 1, 1]);
    expect(tieGroups([], 1e-5)).toEqual([]);
  });
});

describe('compareHits, exact mode', () => {
  test('the expected order passes with full figures', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m4', 0.7],
      ]),
      ctx,
      exact,
    );
    expect(c).toEqual({
      recallAtK: 1,
      maxAbsScoreDelta: 0,
      firstDifferingRank: null,
      kendallTau: 1,
      returned: 4,
      expectedCount: 4,
      failures: [],
    });
  });
  test('ties crossing k: any members of the cut group, in any order, pass', () => {
    for (const picked of [
      ['m5', 'm3'],
      ['m4', 'm3'],
      ['m4', 'm5'],
    ]) {
      const actual = hits([
        ['m1', 0.9],
        ['m2', 0.8],
        [picked[0]!, 0.7],
        [picked[1]!, 0.7],
      ]);
      const c = compareHits(expected, actual, ctx, exact);
      expect(c.failures).toEqual([]);
      expect(c.firstDifferingRank).toBeNull();
      expect(c.recallAtK).toBe(1);
    }
  });
  test('picking a row below the cut group fails at its rank', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m6', 0.6],
      ]),
      ctx,
      exact,
    );
    expect(kinds(c)).toEqual(['tie-group']);
    expect(c.failures[0]).toMatchObject({ rank: 4, id: 'm6', expected: ['m3', 'm4', 'm5'], actual: 'm6' });
    expect(c.failures[0]!.message).toBe(
      'agent-memories q0042 @ pgvector@pglite-pg18: rank 4 id m6 is not in the expected tie group at ranks 3–5 (m3, m4, m5); it is not among the expected top 4 (boundary ties included)',
    );
    expect(c.recallAtK).toBe(0.75);
    expect(c.firstDifferingRank).toBe(4);
  });
  test('swapping two distinct scores fails order and tie-group rules', () => {
    const c = compareHits(
      expected,
      hits([
        ['m2', 0.8],
        ['m1', 0.9],
        ['m3', 0.7],
        ['m4', 0.7],
      ]),
      ctx,
      exact,
    );
    expect(kinds(c).sort()).toEqual(['order', 'tie-group', 'tie-group']);
    const order = c.failures.find((f) => f.kind === 'order')!;
    expect(order).toMatchObject({ rank: 2, id: 'm1', actual: 0.9 });
    expect(order.message).toContain('rank 2 id m1 score 0.9 is higher than rank 1 id m2 score 0.8');
    const misplaced = c.failures.find((f) => f.kind === 'tie-group' && f.id === 'm1')!;
    expect(misplaced.message).toContain('rank 2 id m1 is not in the expected tie group at rank 2 (m2); the expectation ranks it 1 with score 0.9');
    expect(c.firstDifferingRank).toBe(1);
    expect(c.kendallTau).toBeCloseTo(4 / 6, 15); // one discordant pair of 6
  });
  test('order violation inside a tie group (within score tolerance) fails only order', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m4', 0.700005],
      ]),
      ctx,
      exact,
    );
    expect(kinds(c)).toEqual(['order']);
    expect(c.failures[0]).toMatchObject({ rank: 4, id: 'm4' });
  });
  test('duplicate ids are reported at the repeat', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
      ]),
      ctx,
      exact,
    );
    const dup = c.failures.filter((f) => f.kind === 'duplicate-id');
    expect(dup).toHaveLength(1);
    expect(dup[0]).toMatchObject({ rank: 2, id: 'm1' });
    expect(dup[0]!.message).toContain('rank 2 id m1 repeats the id already returned at rank 1');
    expect(c.firstDifferingRank).toBe(2);
  });
  test('a duplicate inside a tie group is caught too', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m3', 0.7],
      ]),
      ctx,
      exact,
    );
    expect(kinds(c)).toEqual(['duplicate-id']);
    expect(c.firstDifferingRank).toBe(4);
  });
  test('empty result: passes when nothing matches, count failure otherwise', () => {
    const none = compareHits({ hits: [], matching: 0 }, [], ctx, exact);
    expect(none.failures).toEqual([]);
    expect(none.expectedCount).toBe(0);
    expect(none.recallAtK).toBe(1);
    const c = compareHits(expected, [], ctx, exact);
    expect(kinds(c)).toEqual(['count']);
    expect(c.failures[0]).toMatchObject({ expected: 4, actual: 0 });
    expect(c.failures[0]!.message).toBe('agent-memories q0042 @ pgvector@pglite-pg18: returned 0 results, expected 4 (the smaller of k 4 and 50 rows that qualify)');
    expect(c.recallAtK).toBe(0);
    expect(c.firstDifferingRank).toBe(1);
  });
  test('count = min(k, matching): a short filter result of 2 passes when 2 rows match', () => {
    const two: OracleResult = {
      hits: hits([
        ['m1', 0.9],
        ['m2', 0.8],
      ]),
      matching: 2,
    };
    expect(
      compareHits(
        two,
        hits([
          ['m1', 0.9],
          ['m2', 0.8],
        ]),
        ctx,
        exact,
      ).failures,
    ).toEqual([]);
    expect(kinds(compareHits(two, hits([['m1', 0.9]]), ctx, exact))).toEqual(['count']);
  });
  test('NaN and infinite scores fail', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', NaN],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m4', -Infinity],
      ]),
      ctx,
      exact,
    );
    expect(kinds(c)).toEqual(['nan-score', 'nan-score']);
    expect(c.failures.map((f) => f.rank)).toEqual([1, 4]);
    expect(c.failures[0]!.message).toContain('rank 1 id m1 has a non-finite score NaN');
  });
  test('a score off by more than the tolerance names rank, id, expected, actual', () => {
    const exp: OracleResult = {
      hits: hits([
        ['m00001', 0.9],
        ['m00002', 0.85],
        ['m01234', 0.8124],
        ['m00003', 0.8],
      ]),
      matching: 4,
    };
    const actual = hits([
      ['m00001', 0.9],
      ['m00002', 0.85],
      ['m01234', 0.81234],
      ['m00003', 0.800004],
    ]);
    const c = compareHits(exp, actual, ctx, exact);
    expect(kinds(c)).toEqual(['score']);
    expect(c.failures[0]).toMatchObject({ kind: 'score', rank: 3, id: 'm01234', expected: 0.8124, actual: 0.81234 });
    expect(c.failures[0]!.message).toBe('agent-memories q0042 @ pgvector@pglite-pg18: rank 3 id m01234 score 0.81234 expected 0.81240 (|Δ| 6.0e-5 > 1e-5)');
    expect(c.maxAbsScoreDelta).toBeCloseTo(6e-5, 12);
    expect(formatFailure(c.failures[0]!)).toBe(`[score] ${c.failures[0]!.message}`);
  });
  test('a row outside the filter fails', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m4', 0.7],
      ]),
      ctx,
      {
        ...exact,
        matches: (id) => id !== 'm2',
      },
    );
    expect(kinds(c)).toEqual(['filter']);
    expect(c.failures[0]).toMatchObject({ rank: 2, id: 'm2' });
    expect(c.failures[0]!.message).toContain("rank 2 id m2 does not pass the query's filter");
  });
});

describe('compareHits, ann mode', () => {
  test('a lower row is no failure, but recall drops; its score is checked via scoreOf', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m6', 0.6],
      ]),
      ctx,
      ann,
    );
    expect(c.failures).toEqual([]);
    expect(c.recallAtK).toBe(0.75);
    const off = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m6', 0.61],
      ]),
      ctx,
      ann,
    );
    expect(kinds(off)).toEqual(['score']);
    expect(off.failures[0]).toMatchObject({ rank: 4, id: 'm6', expected: 0.6, actual: 0.61 });
  });
  test('an id that is not in the dataset is unexpected', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m2', 0.8],
        ['m3', 0.7],
        ['zz', 0.65],
      ]),
      ctx,
      ann,
    );
    expect(kinds(c)).toEqual(['unexpected-id']);
    expect(c.failures[0]!.message).toContain('rank 4 id zz is not a memory of dataset agent-memories');
  });
  test('count, duplicate, order and filter rules still apply', () => {
    const c = compareHits(
      expected,
      hits([
        ['m1', 0.9],
        ['m3', 0.7],
        ['m2', 0.8],
        ['m3', 0.7],
        ['m4', 0.7],
      ]),
      ctx,
      {
        ...ann,
        matches: (id) => id !== 'm4',
      },
    );
    expect(kinds(c).sort()).toEqual(['count', 'duplicate-id', 'filter', 'order']);
  });
});
