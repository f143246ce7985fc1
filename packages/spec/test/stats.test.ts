import type { OracleResult } from '../src/oracle';
import { firstDifferingRank, kendallTau, recallAtK, summarize } from '../src/stats';

const hits = (pairs: Array<[string, number]>) => pairs.map(([id, score]) => ({ id, score }));

describe('recallAtK', () => {
  // k = 3: c, d and e tie at the boundary (e is within ε = 1e-5 of c's 0.7).
  const expected: OracleResult = {
    hits: hits([
      ['a', 0.9],
      ['b', 0.8],
      ['c', 0.7],
      ['d', 0.7],
      ['e', 0.699995],
    ]),
    matching: 40,
  };
  test('any member of the tie group cut by k counts', () => {
    expect(
      recallAtK(
        expected,
        hits([
          ['a', 0.9],
          ['b', 0.8],
          ['c', 0.7],
        ]),
        3,
        1e-5,
      ),
    ).toBe(1);
    expect(
      recallAtK(
        expected,
        hits([
          ['a', 0.9],
          ['b', 0.8],
          ['d', 0.7],
        ]),
        3,
        1e-5,
      ),
    ).toBe(1);
    expect(
      recallAtK(
        expected,
        hits([
          ['a', 0.9],
          ['b', 0.8],
          ['e', 0.699995],
        ]),
        3,
        1e-5,
      ),
    ).toBe(1);
  });
  test('with ε = 0, only exact ties count', () => {
    expect(
      recallAtK(
        expected,
        hits([
          ['a', 0.9],
          ['b', 0.8],
          ['e', 0.699995],
        ]),
        3,
        0,
      ),
    ).toBe(2 / 3);
    expect(
      recallAtK(
        expected,
        hits([
          ['a', 0.9],
          ['b', 0.8],
          ['d', 0.7],
        ]),
        3,
        0,
      ),
    ).toBe(1);
  });
  test('a lower row does not count; a duplicate counts once; hits past k are ignored', () => {
    expect(
      recallAtK(
        expected,
        hits([
          ['a', 0.9],
          ['b', 0.8],
          ['x', 0.5],
        ]),
        3,
        1e-5,
      ),
    ).toBe(2 / 3);
    expect(
      recallAtK(
        expected,
        hits([
          ['a', 0.9],
          ['a', 0.9],
          ['b', 0.8],
        ]),
        3,
        1e-5,
      ),
    ).toBe(2 / 3);
    expect(
      recallAtK(
        expected,
        hits([
          ['x', 0.5],
          ['y', 0.4],
          ['z', 0.3],
          ['a', 0.9],
        ]),
        3,
        1e-5,
      ),
    ).toBe(0);
  });
  test('the denominator is min(k, matching)', () => {
    const few: OracleResult = {
      hits: hits([
        ['a', 0.9],
        ['b', 0.8],
      ]),
      matching: 2,
    };
    expect(
      recallAtK(
        few,
        hits([
          ['a', 0.9],
          ['b', 0.8],
        ]),
        10,
        1e-5,
      ),
    ).toBe(1);
    expect(recallAtK(few, hits([['a', 0.9]]), 10, 1e-5)).toBe(0.5);
  });
  test('nothing qualifies: recall 1 for an empty result, 0 otherwise', () => {
    const none: OracleResult = { hits: [], matching: 0 };
    expect(recallAtK(none, [], 10, 1e-5)).toBe(1);
    expect(recallAtK(none, hits([['a', 0.9]]), 10, 1e-5)).toBe(0);
  });
});

describe('kendallTau', () => {
  test('one swapped pair of 4: (5 − 1)/6 = 2/3', () => {
    expect(kendallTau(['A', 'B', 'C', 'D'], ['A', 'C', 'B', 'D'])).toBeCloseTo(0.6666666666666666, 15);
  });
  test('hand example: [1..5] vs [3,4,1,2,5] → (6 − 4)/10 = 0.2', () => {
    expect(kendallTau(['1', '2', '3', '4', '5'], ['3', '4', '1', '2', '5'])).toBeCloseTo(0.2, 15);
  });
  test('identical → 1, reversed over the common ids → −1', () => {
    expect(kendallTau(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(kendallTau(['a', 'b', 'c', 'x'], ['c', 'b', 'a', 'y'])).toBe(-1);
  });
  test('fewer than 2 common ids → null', () => {
    expect(kendallTau(['a', 'b'], ['a', 'c'])).toBeNull();
    expect(kendallTau([], [])).toBeNull();
  });
});

describe('firstDifferingRank', () => {
  test('first position that differs, 1-based', () => {
    expect(firstDifferingRank(['a', 'b', 'c'], ['a', 'c', 'b'])).toBe(2);
    expect(firstDifferingRank(['x'], ['y'])).toBe(1);
  });
  test('a strict prefix differs right after it; equal lists → null', () => {
    expect(firstDifferingRank(['a', 'b'], ['a', 'b', 'c'])).toBe(3);
    expect(firstDifferingRank(['a', 'b'], ['a', 'b'])).toBeNull();
    expect(firstDifferingRank([], [])).toBeNull();
  });
});

describe('summarize', () => {
  test('[1, 2, 3, 4]: mean 2.5, median 2.5, population stdev √1.25', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ count: 4, mean: 2.5, min: 1, max: 4, p50: 2.5, stdev: 1.118033988749895 });
  });
  test('odd count median; a single value has stdev 0', () => {
    expect(summarize([3, 1, 2]).p50).toBe(2);
    expect(summarize([5])).toEqual({ count: 1, mean: 5, min: 5, max: 5, p50: 5, stdev: 0 });
  });
  test('empty → count 0 and NaN figures', () => {
    const s = summarize([]);
    expect(s.count).toBe(0);
    expect(s.mean).toBeNaN();
    expect(s.p50).toBeNaN();
  });
});
