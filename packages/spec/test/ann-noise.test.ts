import { judgeRepeats } from '../src/checks/c05-repeat';

/** The C05 gate with repeats (c05-repeat.ts): noise vs regression. */
const run = (values: Record<string, number>) => new Map(Object.entries(values));

describe('judgeRepeats', () => {
  test('one run below the floor whose mean over runs is above it is noise, not a regression', () => {
    const v = judgeRepeats([run({ a: 1, b: 0.9 }), run({ a: 1, b: 0.8 }), run({ a: 1, b: 1 })], 0.92, 0.5);
    expect(v.runMeans).toEqual([0.95, 0.9, 1]);
    expect(v.spread.mean).toBeCloseTo(0.95, 12);
    expect(v.spread.min).toBe(0.9);
    expect(v.spread.max).toBe(1);
    expect(v.spread.stdev).toBeCloseTo(Math.sqrt(((0.95 - 0.95) ** 2 + 0.05 ** 2 + 0.05 ** 2) / 3), 12);
    expect(v.regression).toBe(false);
    expect(v.noiseRuns).toEqual([2]);
  });

  test('a mean over runs below the floor is a regression, and no run is called noise', () => {
    const v = judgeRepeats([run({ a: 0.9 }), run({ a: 0.95 })], 0.95, 0.5);
    expect(v.regression).toBe(true);
    expect(v.noiseRuns).toEqual([]);
  });

  test('per query: the average decides; a dip in one run is counted as noise', () => {
    const v = judgeRepeats([run({ a: 0.4, b: 0.3 }), run({ a: 0.8, b: 0.4 })], 0.1, 0.5);
    expect(v.perQuery.get('a')).toBeCloseTo(0.6, 12);
    expect(v.failingQueries).toEqual(['b']);
    expect(v.noiseQueries).toEqual(['a']);
  });

  test('a single run is judged exactly as before (no noise possible)', () => {
    const low = judgeRepeats([run({ a: 0.94 })], 0.95, 0.5);
    expect([low.regression, low.noiseRuns, low.spread.stdev]).toEqual([true, [], 0]);
    const ok = judgeRepeats([run({ a: 0.96, b: 0.4 })], 0.5, 0.5);
    expect([ok.regression, ok.failingQueries, ok.noiseQueries]).toEqual([false, ['b'], []]);
  });
});
