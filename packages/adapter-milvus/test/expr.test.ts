import { parseFilter } from '@memory-matrix/spec';
import { compileFilter, filterExpr, idsExpr, jsonPath, literal, numberLiteral, quoteString, typeTags } from '../src';

/** Expression building is pure: hostile values stay one literal; LF/CR are refused (the server cannot read them). */
describe('quoteString', () => {
  test.each([
    ['plain', '"plain"'],
    ['q"uote', '"q\\"uote"'],
    ['back\\slash', '"back\\\\slash"'],
    ['\\"', '"\\\\\\""'],
    ['x\\', '"x\\\\"'],
    ['" || id != "', '"\\" || id != \\""'],
    ['tab\tnul\u0000del\u007f', '"tab\tnul\u0000del\u007f"'],
    ['记忆 😀', '"记忆 😀"'],
  ])('%j → %s', (value, want) => {
    expect(quoteString(value)).toBe(want);
  });

  test('every hostile value round-trips through an unquote of exactly \\\\ and \\" (what the server does)', () => {
    const unquote = (lit: string) => lit.slice(1, -1).replace(/\\(["\\])/g, '$1');
    for (const v of ['"', '\\', '\\\\"', '"]) or (id != "', "'", '\\u0041', 'a"b\\c"d']) {
      const lit = quoteString(v);
      expect(lit.startsWith('"') && lit.endsWith('"')).toBe(true);
      // no unescaped quote inside: the literal cannot end early
      expect(/(^|[^\\])(\\\\)*"/.test(lit.slice(1, -1))).toBe(false);
      expect(unquote(lit)).toBe(v);
    }
  });

  test.each(['line\nfeed', 'carriage\rreturn'])('%j is INVALID_INPUT naming where', (v) => {
    expect(() => quoteString(v, 'milvus: collection x: filter')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('milvus: collection x: filter') }));
  });
});

describe('filterExpr', () => {
  test('no filter is no condition; empty lists match nothing (null)', () => {
    expect(filterExpr(undefined)).toBe('');
    expect(filterExpr({})).toBe('');
    expect(filterExpr({ namespaces: [] })).toBeNull();
    expect(filterExpr({ kinds: [] })).toBeNull();
  });

  test('parts are ANDed, typed literals (numbers as doubles), nulls through the type tags', () => {
    expect(filterExpr({ namespaces: ['a', 'b"'], kinds: ['fact'], metadata: { s: 'x', n: 0, f: 1.5, b: false, z: null } })).toBe(
      '(namespace in ["a", "b\\""]) and (kind == "fact") and (metadata["s"] == "x") and (metadata["n"] == 0.0) and (metadata["f"] == 1.5) and (metadata["b"] == false) and (meta_types["z"] == "z")',
    );
  });

  test('hostile metadata keys are quoted in the JSON path', () => {
    expect(jsonPath('metadata', 'k"] == 1 or metadata["x')).toBe('metadata["k\\"] == 1 or metadata[\\"x"]');
  });

  test.each(['tab\tkey', 'nul\u0000key'])('a metadata key with a control character (%j) is INVALID_INPUT (the server matches nothing for it)', (k) => {
    expect(() => filterExpr({ metadata: { [k]: 1 } })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  test('literal: numbers as JS writes them, booleans bare', () => {
    expect(literal(1e-7)).toBe('1e-7');
    expect(literal(-3)).toBe('-3');
    expect(literal(true)).toBe('true');
    expect(() => literal(Number.NaN)).toThrow();
  });

  test('typeTags: one tag per metadata key', () => {
    expect(typeTags({ s: '', n: 0, b: false, z: null })).toEqual({ s: 's', n: 'n', b: 'b', z: 'z' });
  });

  test('idsExpr', () => {
    expect(idsExpr(['a', 'b\\'])).toBe('id in ["a", "b\\\\"]');
  });
});

/** The compiler's output for the shapes the server cannot take: no `not`, no empty or mixed `in` lists, no `exists`. */
describe('compileFilter', () => {
  const c = (f: unknown) => compileFilter(parseFilter(f, 'test'));

  test('$not is pushed to the leaves: no `not (` reaches the server', () => {
    expect(c({ $not: { 'metadata.x': { $gt: 5 } } })).toBe('(meta_types["x"] != "n") or (metadata["x"] <= 5.0)');
    expect(c({ $not: { $or: [{ 'metadata.x': 1 }, { kind: { $in: ['fact', 'episode'] } }] } })).toBe('(metadata["x"] != 1.0) and (kind not in ["fact", "episode"])');
    expect(c({ $not: { 'metadata.x': { $exists: true } } })).toBe('meta_types["x"] not in ["s", "n", "b", "z"]');
  });

  test('a mixed $in is split per type; $nin is the AND of the complements', () => {
    expect(c({ 'metadata.x': { $in: ['a', 1, 2.5, true, null] } })).toBe('(metadata["x"] == "a") or (metadata["x"] == true) or (metadata["x"] in [1.0, 2.5]) or (meta_types["x"] == "z")');
    expect(c({ 'metadata.x': { $nin: ['a', 'b', null] } })).toBe('(metadata["x"] not in ["a", "b"]) and (meta_types["x"] != "z")');
  });

  test('constants are folded: empty lists, nested paths, operands of another type', () => {
    expect(c({ 'metadata.x': { $in: [] } })).toBe(false);
    expect(c({ 'metadata.x': { $nin: [] } })).toBe(true);
    expect(c({ 'metadata.a.b': 1 })).toBe(false);
    expect(c({ 'metadata.a.b': { $exists: false } })).toBe(true);
    expect(c({ $or: [{ 'metadata.x': { $in: [] } }, { namespace: 'u' }] })).toBe('namespace == "u"');
    expect(filterExpr({ where: parseFilter({ 'metadata.x': { $in: [] } }, 'test') })).toBeNull();
    expect(filterExpr({ where: parseFilter({ 'metadata.x': { $nin: [] } }, 'test') })).toBe('');
  });

  test('createdAt compares epoch ms, then µs', () => {
    expect(c({ createdAt: { $gte: { $date: '2024-05-01T11:30:00.007100+02:00' } } })).toBe(
      `(created_ms > ${Date.UTC(2024, 4, 1, 9, 30, 0, 7)}) or ((created_ms == ${Date.UTC(2024, 4, 1, 9, 30, 0, 7)}) and (created_us >= 100))`,
    );
  });

  test('$contains is CAPABILITY_MISSING', () => {
    expect(() => c({ 'metadata.x': { $contains: 1 } })).toThrow(expect.objectContaining({ code: 'CAPABILITY_MISSING' }));
  });

  test('numberLiteral: doubles only', () => {
    expect([7, -3, 0, 2.5, 1e21, 1e-7].map(numberLiteral)).toEqual(['7.0', '-3.0', '0.0', '2.5', '1e+21', '1e-7']);
  });
});
