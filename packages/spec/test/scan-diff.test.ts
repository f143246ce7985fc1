import { diffRecords, keysetPage, validateScanOptions, type MemoryRecord } from '../src';
import { cosineDistance, firstByteDifference } from '../src/record-diff';
import { compareIdsBytes } from '../src/scan';

/** Pure helpers of the scan contract (scan.ts) and the row-named record differences (record-diff.ts). */
describe('compareIdsBytes / keysetPage', () => {
  test('UTF-8 byte order (code points), not UTF-16 code units', () => {
    const ids = ['z\u{1F600}', 'z\uFF5E', 'Z', 'a', 'ab', ''];
    expect([...ids].sort(compareIdsBytes)).toEqual(['', 'Z', 'a', 'ab', 'z\uFF5E', 'z\u{1F600}']);
    expect([...ids].sort()).toEqual(['', 'Z', 'a', 'ab', 'z\u{1F600}', 'z\uFF5E']); // JS default differs
    const bytes = [...ids].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...ids].sort(compareIdsBytes)).toEqual(bytes);
  });
  test('pages after an id (stored or not), duplicates once, [] past the end', () => {
    const ids = ['c', 'a', 'b', 'a', 'e'];
    expect(keysetPage(ids, undefined, 2)).toEqual(['a', 'b']);
    expect(keysetPage(ids, 'b', 2)).toEqual(['c', 'e']);
    expect(keysetPage(ids, 'd', 5)).toEqual(['e']);
    expect(keysetPage(ids, 'e', 5)).toEqual([]);
  });
  test('validateScanOptions: INVALID_INPUT naming the place', () => {
    expect(() => validateScanOptions({ limit: 0 }, 'x: table t')).toThrow(/x: table t: scan limit must be an integer 1\.\.10000, got 0/);
    expect(() => validateScanOptions({ limit: 5, after: 3 as unknown as string }, 'x')).toThrow(/after must be an id/);
    expect(validateScanOptions({ limit: 10_000 }, 'x')).toEqual({ after: undefined, limit: 10_000 });
  });
});

describe('diffRecords', () => {
  const r: MemoryRecord = {
    id: 'mem-00042',
    namespace: 'n',
    kind: 'fact',
    text: 'Der Bär 🐻 schläft',
    createdAt: '2024-01-01T00:00:00.000Z',
    metadata: { a: 0 },
    embedding: Float32Array.from([1, 2, 3]),
  };
  test('text: the first differing UTF-8 byte, after multi-byte characters', () => {
    const d = firstByteDifference(r.text, 'Der Bär 🐻 schlaft')!;
    expect(d.byte).toBe(Buffer.byteLength('Der Bär 🐻 schl'));
    expect(diffRecords(r, { ...r, text: 'Der Bär 🐻 schlaft' }).map((x) => x.message)).toEqual([`mem-00042: text differs at byte ${d.byte} ("Der Bär 🐻 schläft" vs "Der Bär 🐻 schlaft")`]);
  });
  test('long text is cut around the difference with …', () => {
    const long = 'x'.repeat(100) + 'A' + 'y'.repeat(100);
    expect(firstByteDifference(long, long.replace('A', 'B'))).toEqual({ byte: 100, expected: `…${'x'.repeat(16)}A${'y'.repeat(15)}…`, actual: `…${'x'.repeat(16)}B${'y'.repeat(15)}…` });
  });
  test('equal records: no difference; cosine mode accepts a quantization-size error only', () => {
    expect(diffRecords(r, { ...r, metadata: { a: 0 }, embedding: Float32Array.from([1, 2, 3]) })).toEqual([]);
    const near = Float32Array.from([1.001, 2, 3]);
    expect(diffRecords(r, { ...r, embedding: near }, { mode: 'cosine', maxCosineDistance: 1e-3 })).toEqual([]);
    expect(cosineDistance(r.embedding, near)).toBeLessThan(1e-5);
    expect(diffRecords(r, { ...r, embedding: Float32Array.from([3, 2, 1]) }, { mode: 'cosine', maxCosineDistance: 1e-3 })[0]!.message).toMatch(
      /^mem-00042: embedding 1 − cos .* > 1\.0e-3 \(declared quantization error\)/,
    );
  });
});
