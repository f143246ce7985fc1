import type { Failure } from '@memory-matrix/spec';
import { causeOf, failureLines, groupFailures } from '../src/report/failure-groups';

const nan = (q: number, rank: number): Failure => ({
  dataset: 'golden',
  target: 'x@1',
  queryId: `q-${q}`,
  kind: 'nan-score',
  rank,
  id: `m-${q * 10 + rank}`,
  expected: 'a finite score',
  actual: Number.NaN,
  message: `golden q-${q} @ x@1: rank ${rank} id m-${q * 10 + rank} has a non-finite score NaN`,
});
const missing = (id: string): Failure => ({ dataset: 'golden', target: 'x@1', queryId: '-', kind: 'roundtrip', id, message: `golden @ x@1: memory ${id}: missing on read` });

describe('one cause, one line (failure-groups.ts)', () => {
  const nans = Array.from({ length: 236 }, (_, i) => nan(i, (i % 10) + 1));
  test('236 non-finite scores are one group of one cause', () => {
    expect(new Set(nans.map(causeOf))).toEqual(new Set(['rank # id <id> has a non-finite score NaN']));
    const groups = groupFailures(nans);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.failures).toHaveLength(236);
  });
  test('the line: count, kind, the first failure in full, then the first examples', () => {
    expect(failureLines(nans, 5)).toEqual([
      `236 × [nan-score] ${nans[0]!.message} — and 235 more of the same cause, e.g. query q-1 rank 2 id m-12, query q-2 rank 3 id m-23, query q-3 rank 4 id m-34, …`,
    ]);
  });
  test('every id missing: one line; a different cause gets its own line, in order of first appearance', () => {
    const other: Failure = { ...missing('m-9'), kind: 'roundtrip', message: 'golden @ x@1: memory m-9: text expected "a" got "b"' };
    const lines = failureLines([missing('m-1'), other, missing('m-2'), missing('m-3')], 5);
    expect(lines).toEqual(['3 × [roundtrip] golden @ x@1: memory m-1: missing on read — and 2 more of the same cause, e.g. id m-2, id m-3', other.message]);
  });
  test('an example without query, rank or id is its message without the dataset @ target prefix', () => {
    const count = (k: number): Failure => ({
      dataset: 'golden',
      target: 'x@1',
      queryId: '-',
      kind: 'isolation',
      message: `golden @ x@1: recall (k ${k}) filtered to u-1 returned 80 rows, expected 40`,
    });
    expect(failureLines([count(100), count(500)], 5)).toEqual([
      `2 × [isolation] ${count(100).message} — and 1 more of the same cause, e.g. recall (k 500) filtered to u-1 returned 80 rows, expected 40`,
    ]);
  });
  test('a single failure is its message; more groups than `max` end with a pointer to report.json', () => {
    const kinds = Array.from({ length: 7 }, (_, i): Failure => ({ ...missing(`m-${i}`), kind: `k${i}` }));
    const lines = failureLines(kinds, 5);
    expect(lines.slice(0, 5)).toEqual(kinds.slice(0, 5).map((f) => f.message));
    expect(lines[5]).toBe('… 2 more line(s); every failure is in report.json');
  });
});
