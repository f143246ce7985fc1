/**
 * C05's duplicates rule (checks/c05-duplicates.ts): a per-query shortfall made only of memories
 * with bit-identical embeddings among the expected top-k is reported, not failed; a miss of any
 * other expected memory is not excused. Shaped on agent-memories q-0246 (8 identical memories in
 * its top 10). No backend.
 */
import { duplicateMembers, duplicateOnlyShortfall } from '../src/checks/c05-duplicates';
import type { MemoryRecord } from '../src/types';

const rec = (id: string, v: number[]): MemoryRecord =>
  ({ id, namespace: 'n', kind: 'fact', text: id, createdAt: '2024-01-01T00:00:00.000Z', metadata: {}, embedding: Float32Array.from(v) }) as MemoryRecord;
const dup = [0.6, 0.8, 0];
const memories = new Map<string, MemoryRecord>([
  ...Array.from({ length: 8 }, (_, i) => [`d${i}`, rec(`d${i}`, dup)] as const),
  ['a', rec('a', [0.6, 0.79, 0.1])],
  ['b', rec('b', [0.5, 0.8, 0.3])],
  // The same direction, another norm: not bit-identical, so not a duplicate.
  ['s', rec('s', [1.2, 1.6, 0])],
]);
const expected = ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'a', 'b'];

test('the members of groups of identical embeddings among the expected ids', () => {
  expect([...duplicateMembers(expected, memories)].sort()).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7']);
  expect(duplicateMembers(['d0', 'a', 's'], memories).size).toBe(0); // one member alone is no group
});

test('missing only duplicates (recall 0.4: d0, d1, a, b returned) is a duplicates-only shortfall', () => {
  expect(duplicateOnlyShortfall(expected, [new Set(['d0', 'd1', 'a', 'b'])], memories)).toBe(true);
  // Even the whole group unreachable in a build.
  expect(duplicateOnlyShortfall(expected, [new Set(['a', 'b', 'x', 'y'])], memories)).toBe(true);
});

test('a miss of any other expected memory, in any run, is not excused', () => {
  expect(duplicateOnlyShortfall(expected, [new Set(['d0', 'd1', 'd2', 'a'])], memories)).toBe(false);
  expect(duplicateOnlyShortfall(expected, [new Set(['d0', 'a', 'b']), new Set(['d0', 'd1', 'a'])], memories)).toBe(false);
  expect(duplicateOnlyShortfall(['s', 'a'], [new Set(['a'])], memories)).toBe(false);
});

test('nothing missed is no shortfall', () => {
  expect(duplicateOnlyShortfall(expected, [new Set(expected)], memories)).toBe(false);
});
