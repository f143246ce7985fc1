import { filterExpr, idsExpr, jsonPath, literal, quoteString } from '../src';

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

  test('parts are ANDed, typed literals, nulls through meta_nulls', () => {
    expect(filterExpr({ namespaces: ['a', 'b"'], kinds: ['fact'], metadata: { s: 'x', n: 0, f: 1.5, b: false, z: null } })).toBe(
      '(namespace in ["a", "b\\""]) and (kind in ["fact"]) and (metadata["s"] == "x") and (metadata["n"] == 0) and (metadata["f"] == 1.5) and (metadata["b"] == false) and (meta_nulls["z"] == true)',
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

  test('idsExpr', () => {
    expect(idsExpr(['a', 'b\\'])).toBe('id in ["a", "b\\\\"]');
  });
});
