import { checkMetadata, hasCode, refuseMetadataShapes, MAX_METADATA_DEPTH, metadataValueEqual, sortedMetadataValue } from '../src';
import { metadataDifferences } from '../src/record-diff';

/** The error `fn` throws (fails the test when it returns). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}
import { BAD_SHAPED_METADATA, SHAPED_METADATA } from './metadata-shapes-cases';

const SHAPES = { adapter: 't', metadataShapes: ['nested', 'array'] as const };

describe('metadata values (metadata-value.ts)', () => {
  it('accepts every shaped edge when the shapes are declared', () => {
    for (const m of Object.values(SHAPED_METADATA)) expect(() => checkMetadata(m, 'r', SHAPES)).not.toThrow();
  });

  it('refuses an undeclared shape with CAPABILITY_MISSING naming the field, never flattening it', () => {
    const e = thrown(() => checkMetadata({ a: 1, tags: ['x'] }, 'table t: record "r"', { adapter: 't' }));
    expect(hasCode(e, 'CAPABILITY_MISSING')).toBe(true);
    expect(String(e)).toContain('metadata.tags');
    expect(
      hasCode(
        thrown(() => checkMetadata({ src: { a: 1 } }, 'r', { adapter: 't', metadataShapes: ['array'] })),
        'CAPABILITY_MISSING',
      ),
    ).toBe(true);
  });

  it.each(BAD_SHAPED_METADATA)('refuses $path with INVALID_INPUT naming it', ({ metadata, path }) => {
    const e = thrown(() => checkMetadata(metadata, 'r', SHAPES));
    expect(hasCode(e, 'INVALID_INPUT')).toBe(true);
    expect(String(e)).toContain(path);
  });

  it('refuseMetadataShapes (client adapters): an undeclared array or object is CAPABILITY_MISSING naming the field; scalars pass', () => {
    expect(() => refuseMetadataShapes({ a: 0, b: null, c: '' }, 'mem0: records[0] (id m)')).not.toThrow();
    const e = thrown(() => refuseMetadataShapes({ a: 0, tags: [] }, 'mem0: records[0] (id m)'));
    expect(hasCode(e, 'CAPABILITY_MISSING')).toBe(true);
    expect(String(e)).toContain('mem0: records[0] (id m): metadata.tags is an array');
    expect(() => refuseMetadataShapes({ o: {} }, 'x', ['nested'])).not.toThrow();
  });

  it(`allows ${MAX_METADATA_DEPTH} levels of nesting and refuses one more`, () => {
    const deep = (n: number): unknown => (n === 0 ? 0 : { d: deep(n - 1) });
    expect(() => checkMetadata({ o: deep(MAX_METADATA_DEPTH) }, 'r', SHAPES)).not.toThrow();
    expect(
      hasCode(
        thrown(() => checkMetadata({ o: deep(MAX_METADATA_DEPTH + 1) }, 'r', SHAPES)),
        'INVALID_INPUT',
      ),
    ).toBe(true);
  });

  it('never takes a nested value in the equality filter', () => {
    expect(
      hasCode(
        thrown(() => checkMetadata({ o: { a: 1 } }, 'filter', SHAPES, true)),
        'INVALID_INPUT',
      ),
    ).toBe(true);
  });

  it('compares type-strictly and deeply: 0, false, "", null, [] and {} differ; key order does not count; array order does', () => {
    const vals = [0, false, '', null, [], {}];
    for (const a of vals) for (const b of vals) expect(metadataValueEqual(a, b)).toBe(a === b);
    expect(metadataValueEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(metadataValueEqual([1, 2], [2, 1])).toBe(false);
    expect(metadataValueEqual({ a: [0] }, { a: [false] })).toBe(false);
    expect(metadataValueEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
  });

  it('names the first differing path in a record difference', () => {
    const d = metadataDifferences('m1', { src: { doc: { year: 1851 }, tags: ['a'] } }, { src: { doc: { year: '1851' }, tags: ['a'] } });
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toBe('m1: metadata.src.doc.year differs (1851 (number) vs "1851" (string))');
    expect(metadataDifferences('m1', { t: ['a', 'b'] }, { t: ['a'] })[0]!.message).toBe('m1: metadata.t differs (["a","b"] (array) vs ["a"] (array))');
    expect(metadataDifferences('m1', { o: { a: 1 } }, { o: {} })[0]!.message).toBe('m1: metadata.o.a differs (1 (number) vs absent)');
  });

  it('sorts object keys at every level for the canonical form, arrays in order', () => {
    expect(JSON.stringify(sortedMetadataValue({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 0 } }))).toBe('{"a":{"c":0,"d":[{"y":2,"z":1}]},"b":1}');
  });
});
