// The surface syntax → AST (filter-lang/parse.ts): every malformed filter is INVALID_INPUT naming
// the path inside the filter; the canonical surface form round-trips; adapters that do not declare
// an operator refuse a `where` that uses it.
import { DEFAULT_CAPABILITIES, capabilitiesSchema } from '../src/capabilities';
import { filterFields, filterOperators, filterToSurface, unsupportedFilterOperators, validateFilterExpr } from '../src/filter-lang/describe';
import { parseFilter } from '../src/filter-lang/parse';
import type { FilterExpr } from '../src/filter-lang/types';
import { validateRecallFilter } from '../src/record-validation';
import { failure } from './thrown';

describe('a malformed filter is INVALID_INPUT naming the path inside it', () => {
  test.each([
    [{ $and: [{ kind: 'fact' }, { kind: 'fact' }, { 'metadata.importance': { $gte: 'high' } }] }, 'filter: $and[2].metadata.importance.$gte: expected a number or instant, got "high"'],
    [{ $or: [] }, 'filter: $or: expected a non-empty list of filters, got an array'],
    [{ $and: {} }, 'filter: $and: expected a non-empty list of filters, got an object'],
    [{}, 'filter: (filter): an empty filter object matches everything'],
    [[], 'filter: (filter): expected a filter object, got an array'],
    [{ importance: 1 }, 'filter: importance: unknown field "importance": the record fields are namespace, kind and createdAt; a metadata key is written metadata.importance'],
    [{ 'metadata.a': { $regex: 'x' } }, 'filter: metadata.a.$regex: unknown operator "$regex"'],
    [{ 'metadata.a': { $nee: 1 } }, 'unknown operator "$nee" (did you mean $ne?)'],
    [{ $nor: [] }, 'filter: $nor: unknown operator "$nor" at filter level'],
    [{ 'metadata.a': {} }, 'filter: metadata.a: expected an operand or an operator object, got an empty object'],
    [{ 'metadata.a': { $in: 'x' } }, 'filter: metadata.a.$in: expected a list of values, got "x"'],
    [{ 'metadata.a': { $nin: [1, [2]] } }, 'filter: metadata.a.$nin[1]: $nin expects a string, number, boolean, null, got an array'],
    [{ 'metadata.a': { $exists: 1 } }, 'filter: metadata.a.$exists: expected true or false, got 1'],
    [{ 'metadata.a': { $eq: NaN } }, 'filter: metadata.a.$eq: expected a finite number, got NaN'],
    [{ 'metadata.a': { $gt: Infinity } }, 'filter: metadata.a.$gt: expected a number or instant, got Infinity'],
    [{ 'metadata.a': { $lt: true } }, 'expected a number or instant, got true'],
    [{ 'metadata.a': { $lte: null } }, 'expected a number or instant, got null'],
    [{ 'metadata.a': { $gt: { $date: '2024-01-01T00:00:00Z' } } }, 'filter: metadata.a.$gt: an instant compares with createdAt only'],
    [{ createdAt: '2024-01-01T00:00:00Z' }, 'filter: createdAt: createdAt takes an instant { "$date": "2026-01-02T03:04:05Z" }, got "2024-01-01T00:00:00Z" (a string is never taken for a date)'],
    [{ createdAt: { $gt: 1704067200000 } }, 'filter: createdAt.$gt: createdAt takes an instant'],
    [{ createdAt: { $gte: { $date: '2024-02-30T00:00:00Z' } } }, 'filter: createdAt.$gte.$date: "2024-02-30T00:00:00Z" is not a calendar date and time'],
    [{ createdAt: { $gte: { $date: '2024-01-01' } } }, 'filter: createdAt.$gte.$date: expected an RFC 3339 instant'],
    [{ createdAt: { $gte: { $date: '2024-01-01T00:00:00Z', tz: 'x' } } }, 'unexpected "tz"'],
    [{ createdAt: { $exists: true } }, 'filter: createdAt.$exists: createdAt is present on every record'],
    [{ kind: 'note' }, 'filter: kind: unknown kind "note"; kinds are fact, preference, episode, summary'],
    [{ kind: { $gt: 'a' } }, 'filter: kind.$gt: $gt compares numbers and instants; kind is a string'],
    [{ namespace: 3 }, 'filter: namespace: namespace is a string; expected a string, got 3'],
    [{ namespace: { $contains: 'u' } }, 'filter: namespace.$contains: $contains tests an array in metadata'],
    [{ 'metadata.a': { $contains: { $date: '2024-01-01T00:00:00Z' } } }, 'an instant compares with createdAt only'],
    [{ 'metadata.$a': 1 }, 'key "$a" begins with "$"'],
    [{ 'metadata.a..b': 1 }, 'key "" is empty'],
    [{ 'metadata.a\\x': 1 }, '"\\" must be followed by "." or "\\"'],
    [{ metadata: 1 }, 'unknown field "metadata"'],
    [{ 'metadata.a': { $not: 1 } }, 'filter: metadata.a.$not: expected an operator object such as { "$gt": 1 }, got 1'],
    [{ $not: [] }, 'filter: $not: expected a filter object, got an array'],
    [{ 'metadata.a': 'x\u0000' }, 'filter: metadata.a: string contains U+0000'],
    [{ 'metadata.a': { b: 1 } }, 'filter: metadata.a.b: unknown operator "b"'],
  ])('%j', (filter, message) => {
    const e = failure(() => parseFilter(filter));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain(message);
  });

  test('the caller names where the filter comes from', () => {
    expect(failure(() => parseFilter({ kind: 1 }, 'cases.jsonl:7: case "x": filter')).message).toBe('cases.jsonl:7: case "x": filter: kind: kind is a string; expected a string, got 1');
  });
});

describe('surface form', () => {
  test.each([
    [{ 'metadata.a': 1 }, { 'metadata.a': { $eq: 1 } }],
    [{ 'metadata.a': -0 }, { 'metadata.a': { $eq: 0 } }],
    [{ kind: 'fact', 'metadata.a': { $gte: 1, $lt: 2 } }, { $and: [{ kind: { $eq: 'fact' } }, { $and: [{ 'metadata.a': { $gte: 1 } }, { 'metadata.a': { $lt: 2 } }] }] }],
    [{ createdAt: { $date: '2024-01-01T02:00:00.5+02:00' } }, { createdAt: { $eq: { $date: '2024-01-01T00:00:00.500Z' } } }],
    [{ createdAt: { $lt: { $date: '2024-01-01T00:00:00.000001Z' } } }, { createdAt: { $lt: { $date: '2024-01-01T00:00:00.000001Z' } } }],
    [{ 'metadata.a\\.b.c': { $not: { $in: [1, 'x', null] } } }, { $not: { 'metadata.a\\.b.c': { $in: [1, 'x', null] } } }],
    [{ $or: [{ 'metadata.t': { $contains: 'x' } }, { $not: { 'metadata.t': { $exists: false } } }] }, { $or: [{ 'metadata.t': { $contains: 'x' } }, { $not: { 'metadata.t': { $exists: false } } }] }],
  ])('%j → %j, and parses back to the same tree', (input, surface) => {
    const expr = parseFilter(input);
    expect(filterToSurface(expr)).toEqual(surface);
    expect(parseFilter(filterToSurface(expr))).toEqual(expr);
  });

  test('operators and fields used', () => {
    const e = parseFilter({ $or: [{ 'metadata.src.doc.year': { $gte: 1 } }, { $not: { namespace: { $in: ['a'] } } }], kind: 'fact' });
    expect(filterOperators(e)).toEqual(['$eq', '$gte', '$in', '$and', '$or', '$not']);
    expect(filterFields(e)).toEqual(['kind', 'metadata.src.doc.year', 'namespace']);
    expect(unsupportedFilterOperators(e, ['$eq', '$in', '$and', '$or'])).toEqual(['$gte', '$not']);
  });

  test('validateFilterExpr checks a tree built in code with the parser rules', () => {
    const bad = { op: '$gt', field: { root: 'metadata', path: ['a'] }, value: 'high' } as unknown as FilterExpr;
    expect(failure(() => validateFilterExpr(bad, 'x')).message).toBe('x: metadata.a.$gt: expected a number or instant, got "high"');
    expect(failure(() => validateFilterExpr({ op: '$like' } as unknown as FilterExpr)).code).toBe('INVALID_INPUT');
    expect(failure(() => validateFilterExpr({ op: '$eq', field: { root: 'metadata' }, value: 1 } as unknown as FilterExpr)).code).toBe('INVALID_INPUT');
  });
});

describe('capability filterOperators', () => {
  test('defaults to none and accepts only the language operators', () => {
    expect(DEFAULT_CAPABILITIES.filterOperators).toEqual([]);
    expect(capabilitiesSchema.safeParse({ ...DEFAULT_CAPABILITIES, filterOperators: ['$eq', '$regex'] }).success).toBe(false);
  });
  test('an adapter that declares no operator refuses a where (CAPABILITY_MISSING), never ignores it', () => {
    const where = parseFilter({ 'metadata.a': { $gte: 1 } });
    const e = failure(() => validateRecallFilter({ where }, 'collection c: recall', { adapter: 'old' }));
    expect(e.code).toBe('CAPABILITY_MISSING');
    expect(e.message).toBe('old: collection c: recall: filter.where uses $gte, which this adapter does not push down (capability filterOperators)');
    expect(() => validateRecallFilter({ where }, 'w', { adapter: 'new', filterOperators: ['$gte'] })).not.toThrow();
    expect(() => validateRecallFilter({ namespaces: ['a'] }, 'w', { adapter: 'old' })).not.toThrow();
  });
  test('a malformed where is INVALID_INPUT naming the adapter and the path', () => {
    const where = { op: '$in', field: { root: 'kind' }, values: ['note'] } as unknown as FilterExpr;
    const e = failure(() => validateRecallFilter({ where }, 'w', { adapter: 'a', filterOperators: ['$in'] }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('a: w: filter.where: kind.$in[0]: unknown kind "note"');
  });
});
