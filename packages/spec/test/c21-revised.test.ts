import type { MemoryRecord } from '../src';
import { C21_OLD_METADATA, revised } from '../src/checks/c21-idempotent-upsert';
import { describeDifference } from '../src/checks/helpers/sampling';

const old: MemoryRecord = {
  id: 'm-1',
  namespace: 'n',
  kind: 'fact',
  text: 'old text',
  createdAt: '2024-01-01T00:00:00.000Z',
  metadata: { a: 'x', b: 2, ...C21_OLD_METADATA },
  embedding: Float32Array.from([1, 0]),
};

describe('C21 update (revised)', () => {
  const next = revised(old, 0, Float32Array.from([0, 1]));
  test('removes c21Stale and the first own key, retypes 1 → "1" and false → 0, changes text and embedding', () => {
    expect(next.metadata).toEqual({ b: 2, c21Count: '1', c21Flag: 0, revision: 1 });
    expect(next.text).toBe('old text (revised 0)');
    expect([...next.embedding]).toEqual([0, 1]);
  });
  test('a merged upsert (old keys kept, Chroma-style) or a coerced type is a difference on the re-read', () => {
    expect(describeDifference(next, { ...next, metadata: { ...old.metadata, ...next.metadata } })).toMatch(/^metadata keys expected/);
    expect(describeDifference(next, { ...next, metadata: { ...next.metadata, c21Count: 1 } })).toMatch(/c21Count expected "1" \(string\) got 1 \(number\)/);
    expect(describeDifference(next, { ...next, metadata: { ...next.metadata, c21Flag: false } })).toMatch(/c21Flag expected 0 \(number\) got false \(boolean\)/);
    expect(describeDifference(next, { ...next, text: old.text })).toMatch(/^text expected/);
  });
  test('a memory without own metadata keys loses only c21Stale', () => {
    expect(revised({ ...old, metadata: { ...C21_OLD_METADATA } }, 3, old.embedding).metadata).toEqual({ c21Count: '1', c21Flag: 0, revision: 4 });
  });
});
