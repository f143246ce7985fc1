// The adapter kit's small shared roles: the collection marker (src/kit/collection-marker.ts), the
// SQL filter skeleton (src/kit/sql-filter.ts) and distance → canonical score (src/kit/distance-scores.ts).
import { parseFilter } from '../src/filter-lang/parse';
import { collectionMarkerJson, indexTypeIn, readCollectionMarker, specOfMarker } from '../src/kit/collection-marker';
import { distanceToCanonical } from '../src/kit/distance-scores';
import { compileSqlFilter, type SqlFilterDialect } from '../src/kit/sql-filter';
import type { FilterExpr, FilterField } from '../src/filter-lang/types';
import type { CollectionSpec } from '../src/types';

const spec: CollectionSpec = { name: 'a', dim: 3, metric: 'cosine', index: { type: 'none' } };
const rules = { tag: 't@1', where: 'x: table mm_a', metrics: ['cosine', 'l2'] as const, index: indexTypeIn('none'), foreign: 'ignore' } as const;

describe('collection marker', () => {
  test("JSON in the drivers' key order; read back to the same spec", () => {
    const json = collectionMarkerJson('t@1', { ...spec, embeddingModel: 'm' });
    expect(json).toBe('{"marker":"t@1","name":"a","metric":"cosine","dim":3,"index":{"type":"none"},"embeddingModel":"m"}');
    expect(specOfMarker(readCollectionMarker(json, rules)!)).toEqual({ ...spec, embeddingModel: 'm' });
  });
  test('foreign text: null under ignore, BACKEND_ERROR under malformed', () => {
    for (const text of ['not json', 'null', '[]', '{"marker":"other"}']) {
      expect(readCollectionMarker(text, rules)).toBeNull();
      expect(() => readCollectionMarker(text, { ...rules, foreign: 'malformed' })).toThrow(expect.objectContaining({ code: 'BACKEND_ERROR' }));
    }
  });
  test('our tag with a wrong field: BACKEND_ERROR naming the place', () => {
    const bad = [
      { ...spec, metric: 'ip' },
      { ...spec, dim: 1.5 },
      { ...spec, index: { type: 'hnsw' } },
      { ...spec, index: null },
    ];
    for (const s of bad) {
      expect(() => readCollectionMarker(JSON.stringify({ marker: 't@1', ...s }), rules)).toThrow('x: table mm_a: collection marker is malformed');
    }
    expect(() => readCollectionMarker(collectionMarkerJson('t@1', spec), { ...rules, name: 'b' })).toThrow('malformed');
  });
});

describe('compileSqlFilter', () => {
  const dialect = (params: unknown[]): SqlFilterDialect => ({
    where: 'd: filter',
    true: 'T',
    false: 'F',
    equals: (f, vs) => (params.push(...vs), `${f.root}=${vs.map(() => '?').join('|')}`),
    range: (f, cmp, v) => (params.push(v), `${f.root}${cmp}?`),
    exists: (path, e) => `${path.join('.')}${e ? '?' : '!'}`,
    contains: (path) => `${path.join('.')}[?]`,
  });
  test('joins, negations and leaves in text order, parameters in the same order', () => {
    const params: unknown[] = [];
    const parsed = parseFilter({ $or: [{ 'metadata.a': { $ne: 1 } }, { $not: { 'metadata.b': { $gt: 2 } } }] });
    // record-field $exists / $contains: refused by the parser, constants here (a compiler meets them only from code)
    const ns = { root: 'namespace', path: [] } as unknown as FilterField;
    const expr = { op: '$or', args: [...(parsed as { args: FilterExpr[] }).args, { op: '$exists', field: ns, exists: true }, { op: '$contains', field: ns, value: 'x' }] } as FilterExpr;
    const sql = compileSqlFilter(expr, dialect(params));
    expect(sql).toBe('((NOT metadata=?) OR (NOT metadata>?) OR T OR F)');
    expect(params).toEqual([1, 2]);
  });
  test('$contains without a dialect test: CAPABILITY_MISSING', () => {
    const d = { ...dialect([]), contains: undefined, noContains: 'flat' };
    expect(() => compileSqlFilter(parseFilter({ 'metadata.a': { $contains: 1 } }), d)).toThrow('d: filter $contains is not pushed down (flat)');
  });
});

describe('distanceToCanonical', () => {
  const conv = distanceToCanonical({ cosine: 'one-minus', ip: 'negated', l2: 'negative-sqrt' }, 'conv');
  test('each form', () => {
    expect(conv('cosine', 0.25)).toBe(0.75);
    expect(conv('ip', 2)).toBe(-2);
    expect(conv('l2', 4)).toBe(-2);
    expect(() => conv('l2', -1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
  test('a missing distance: CAPABILITY_MISSING with its message', () => {
    const c = distanceToCanonical({ cosine: 'one-minus', l2: 'negated', ip: { missing: 'no ip' } }, 'c');
    expect(() => c('ip', 0)).toThrow('no ip');
  });
});
