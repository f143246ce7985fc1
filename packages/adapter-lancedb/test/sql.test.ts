import { column, filterPredicate, inList, metadataToken, quoteString } from '../src';

/** The predicate builder alone (no LanceDB): quoting, identifiers, typed metadata tokens. lancedb.test.ts runs hostile values through real LanceDB. */

test('quoteString doubles single quotes and nothing else', () => {
  expect(quoteString("it's")).toBe("'it''s'");
  expect(quoteString("' OR 1=1 --")).toBe("''' OR 1=1 --'");
  expect(quoteString('back\\slash "dq" \n')).toBe('\'back\\slash "dq" \n\'');
  expect(quoteString('')).toBe("''");
});

test('quoteString refuses a lone surrogate with INVALID_INPUT', () => {
  expect(() => quoteString('a\uD800b')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
});

test('column accepts only lower-case SQL identifiers', () => {
  expect(column('meta_tokens')).toBe('meta_tokens');
  for (const bad of ['id; DROP TABLE x', 'Id', '1a', 'a-b', '', '"id"', 'a'.repeat(64)]) expect(() => column(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
});

test('inList: an empty list matches nothing; values are quoted one by one', () => {
  expect(inList('id', [])).toBe('false');
  expect(inList('id', ["a'", 'b'])).toBe("id IN ('a''', 'b')");
});

test('metadata tokens keep the JSON type: 0, false, "", null differ; a hostile key/value stays inside one literal', () => {
  const tokens = [0, false, '', null, '0'].map((v) => metadataToken('a', v));
  expect(new Set(tokens).size).toBe(5);
  expect(filterPredicate({ metadata: { "k'": "v' OR '1'='1" } })).toBe(`(array_has(meta_tokens, '["k''","v'' OR ''1''=''1"]'))`);
  expect(filterPredicate({ namespaces: ['n'], kinds: [] })).toBe("(namespace IN ('n')) AND (false)");
  expect(filterPredicate(undefined)).toBeUndefined();
});
