// The reference semantics (filter-lang/evaluate.ts, docs/filters.md) against hand-written truth
// tables: each row names a filter and exactly the documents it must select.
import { hasCode } from '../src/errors';
import { type FilterableRecord, matchesFilter } from '../src/filter';
import { recallFilterExpr } from '../src/filter-lang/describe';
import { evaluateFilter } from '../src/filter-lang/evaluate';
import { parseFilter } from '../src/filter-lang/parse';
import type { FilterDocument, FilterJson } from '../src/filter-lang/types';
import type { MemoryKind, RecallFilter } from '../src/types';
import { ExactOracle } from '../src/oracle';

/** One document per kind of value of metadata key `v` (and `missing` without it). */
const VALUES: Record<string, FilterJson | undefined> = {
  zero: 0,
  false: false,
  empty: '',
  null: null,
  missing: undefined,
  one: 1,
  neg: -2.5,
  str: 'a',
  zeroStr: '0',
  arr: [0, 'a', null],
  emptyArr: [],
  obj: { a: 0 },
  nan: NaN,
};
const NAMES = Object.keys(VALUES);

function doc(name: string): FilterDocument {
  const v = VALUES[name];
  return { namespace: 'u1', kind: 'fact', createdAt: '2024-01-01T00:00:00.000Z', metadata: v === undefined ? { other: 1 } : { v, other: 1 } };
}

function selected(filter: unknown): string {
  const expr = parseFilter(filter);
  return NAMES.filter((n) => evaluateFilter(expr, doc(n))).join(' ');
}

const ALL_BUT = (...out: string[]): string => NAMES.filter((n) => !out.includes(n)).join(' ');

describe('five falsy-ish values are five different things', () => {
  test.each([
    [{ 'metadata.v': 0 }, 'zero'],
    [{ 'metadata.v': false }, 'false'],
    [{ 'metadata.v': '' }, 'empty'],
    [{ 'metadata.v': null }, 'null'],
    [{ 'metadata.v': { $exists: false } }, 'missing'],
    [{ 'metadata.v': '0' }, 'zeroStr'],
    [{ 'metadata.v': { $eq: -0 } }, 'zero'],
    [{ 'metadata.v': { $in: [0, null] } }, 'zero null'],
    [{ 'metadata.v': { $in: [false, ''] } }, 'false empty'],
  ])('%j selects %s', (filter, want) => expect(selected(filter)).toBe(want));
});

describe('$ne, $nin and $not match a missing key (MongoDB), arrays and objects never equal a scalar', () => {
  test.each([
    [{ 'metadata.v': { $ne: 0 } }, ALL_BUT('zero')],
    [{ 'metadata.v': { $ne: null } }, ALL_BUT('null')],
    [{ 'metadata.v': { $ne: '' } }, ALL_BUT('empty')],
    [{ 'metadata.v': { $nin: [0, false] } }, ALL_BUT('zero', 'false')],
    [{ 'metadata.v': { $nin: [] } }, NAMES.join(' ')],
    [{ 'metadata.v': { $in: [] } }, ''],
    [{ 'metadata.v': { $not: { $eq: 1 } } }, ALL_BUT('one')],
    [{ 'metadata.v': { $not: { $gt: 0 } } }, ALL_BUT('one')],
    [{ $not: { 'metadata.v': { $exists: true } } }, 'missing'],
    [{ 'metadata.v': { $exists: true } }, ALL_BUT('missing')],
  ])('%j selects %s', (filter, want) => expect(selected(filter)).toBe(want));
});

describe('ranges: numbers with numbers only; NaN, strings, booleans, null, arrays and missing keys never in range', () => {
  test.each([
    [{ 'metadata.v': { $gt: 0 } }, 'one'],
    [{ 'metadata.v': { $gte: 0 } }, 'zero one'],
    [{ 'metadata.v': { $lt: 0 } }, 'neg'],
    [{ 'metadata.v': { $lte: 0 } }, 'zero neg'],
    [{ 'metadata.v': { $gte: -1e308 } }, 'zero one neg'],
    [{ 'metadata.v': { $gt: -3, $lt: 1 } }, 'zero neg'],
    [{ 'metadata.v': { $gte: 1, $lte: 1 } }, 'one'],
  ])('%j selects %s', (filter, want) => expect(selected(filter)).toBe(want));
});

describe('arrays: $contains looks inside an array with strict element equality; $eq and $in never do', () => {
  test.each([
    [{ 'metadata.v': { $contains: 0 } }, 'arr'],
    [{ 'metadata.v': { $contains: null } }, 'arr'],
    [{ 'metadata.v': { $contains: 'a' } }, 'arr'],
    [{ 'metadata.v': { $contains: false } }, ''],
    [{ 'metadata.v': { $contains: '0' } }, ''],
    [{ 'metadata.v': 'a' }, 'str'],
    [{ 'metadata.v': { $in: ['a', 0] } }, 'zero str'],
    [{ $not: { 'metadata.v': { $contains: 0 } } }, ALL_BUT('arr')],
  ])('%j selects %s', (filter, want) => expect(selected(filter)).toBe(want));
});

describe('nested paths: own keys only, a step into a scalar, array or missing key is missing', () => {
  const d: FilterDocument = { namespace: 'n', kind: 'fact', metadata: { src: { doc: { year: 1851, speaker: null } }, list: [{ a: 1 }], n: 3, 'a.b': 'dotted', a: { b: 'nested' } } };
  test.each([
    [{ 'metadata.src.doc.year': 1851 }, true],
    [{ 'metadata.src.doc.year': { $gte: 1851 } }, true],
    [{ 'metadata.src.doc.speaker': null }, true],
    [{ 'metadata.src.doc.speaker': { $exists: true } }, true],
    [{ 'metadata.src.doc.chapter': { $exists: true } }, false],
    [{ 'metadata.src.doc.chapter': { $ne: 1 } }, true],
    [{ 'metadata.src': 'x' }, false],
    [{ 'metadata.src': { $ne: 'x' } }, true],
    [{ 'metadata.n.x': { $exists: true } }, false],
    [{ 'metadata.list.0.a': 1 }, false],
    [{ 'metadata.src.toString': { $exists: true } }, false],
    [{ 'metadata.a\\.b': 'dotted' }, true],
    [{ 'metadata.a.b': 'nested' }, true],
    [{ 'metadata.a.b': 'dotted' }, false],
  ])('%j → %s', (filter, want) => expect(evaluateFilter(parseFilter(filter), d)).toBe(want));
});

describe('logic: $and, $or, $not and implicit AND, nested', () => {
  const d: FilterDocument = { namespace: 'u1', kind: 'episode', metadata: { a: 1, b: 'x' } };
  test.each([
    [{ $and: [{ 'metadata.a': 1 }, { 'metadata.b': 'x' }] }, true],
    [{ $and: [{ 'metadata.a': 1 }, { 'metadata.b': 'y' }] }, false],
    [{ $or: [{ 'metadata.a': 2 }, { 'metadata.b': 'x' }] }, true],
    [{ $or: [{ 'metadata.a': 2 }, { 'metadata.c': { $exists: true } }] }, false],
    [{ $not: { $or: [{ 'metadata.a': 2 }, { 'metadata.b': 'y' }] } }, true],
    [{ $not: { $and: [{ 'metadata.a': 1 }, { 'metadata.b': 'x' }] } }, false],
    [{ $not: { $not: { kind: 'episode' } } }, true],
    [{ namespace: 'u1', kind: { $in: ['fact', 'episode'] }, 'metadata.a': { $gte: 1, $lt: 2 } }, true],
    [{ namespace: 'u1', kind: 'fact' }, false],
    [{ $or: [{ $and: [{ namespace: 'u2' }, { 'metadata.a': 1 }] }, { $and: [{ kind: { $ne: 'fact' } }, { $not: { 'metadata.b': { $in: ['y', 'z'] } } }] }] }, true],
  ])('%j → %s', (filter, want) => expect(evaluateFilter(parseFilter(filter), d)).toBe(want));
});

describe('instants: createdAt compared in UTC, to the microsecond', () => {
  const at = (createdAt: string): FilterDocument => ({ namespace: 'n', kind: 'fact', createdAt, metadata: {} });
  const t = '2024-05-01T09:30:00.123Z';
  test.each([
    [{ createdAt: { $date: t } }, t, true],
    [{ createdAt: { $date: '2024-05-01T11:30:00.123+02:00' } }, t, true],
    [{ createdAt: { $gt: { $date: t } } }, t, false],
    [{ createdAt: { $gte: { $date: t } } }, t, true],
    [{ createdAt: { $lt: { $date: '2024-05-01T09:30:00.123001Z' } } }, t, true],
    [{ createdAt: { $gt: { $date: '2024-05-01T09:30:00.122999Z' } } }, t, true],
    [{ createdAt: { $lt: { $date: '2024-05-01T09:30:00.123Z' } } }, '2024-05-01T09:30:00.122999Z', true],
    [{ createdAt: { $gt: { $date: '2024-05-01T09:30:00.123Z' } } }, '2024-05-01T09:30:00.123001Z', true],
    [{ createdAt: { $ne: { $date: '2024-05-01T09:30:00Z' } } }, t, true],
    [{ createdAt: { $in: [{ $date: '2024-05-01T09:30:00.1230Z' }] } }, t, true],
    [{ createdAt: { $gte: { $date: '2024-05-01T00:00:00-09:30' } } }, t, true],
    [{ createdAt: { $gte: { $date: '2024-05-01T00:00:01-09:30' } } }, t, false],
  ])('%j on %s → %s', (filter, createdAt, want) => expect(evaluateFilter(parseFilter(filter), at(createdAt))).toBe(want));

  test('a filter reading createdAt of a record without one is INVALID_INPUT, never false', () => {
    const e = (() => {
      try {
        evaluateFilter(parseFilter({ createdAt: { $gt: { $date: t } } }), { namespace: 'n', kind: 'fact', metadata: {} });
      } catch (err) {
        return err;
      }
    })();
    expect(hasCode(e, 'INVALID_INPUT')).toBe(true);
  });
});

describe('RecallFilter.where is ANDed with the old parts; recallFilterExpr means the same', () => {
  const recs: FilterableRecord[] = [
    { namespace: 'u1', kind: 'fact' as const, metadata: { lang: 'en', n: 0 } },
    { namespace: 'u1', kind: 'episode' as const, metadata: { lang: 'de', n: 1 } },
    { namespace: 'u2', kind: 'fact' as const, metadata: { lang: 'en', n: 2 } },
    { namespace: 'u2', kind: 'summary' as const, metadata: { n: false } },
  ];
  const filters: RecallFilter[] = [
    { namespaces: ['u1'], where: parseFilter({ 'metadata.n': { $gte: 1 } }) },
    { kinds: ['fact' as const], metadata: { lang: 'en' }, where: parseFilter({ namespace: { $ne: 'u1' } }) },
    { where: parseFilter({ 'metadata.lang': { $ne: 'en' } }) },
    { namespaces: [], where: parseFilter({ kind: 'fact' }) },
    { metadata: { n: false } },
  ];
  test.each(filters.map((f, i) => [i, f] as const))('filter %i', (_i, f) => {
    const expr = recallFilterExpr(f);
    for (const r of recs) {
      const direct =
        (f.namespaces === undefined || f.namespaces.includes(r.namespace)) &&
        (f.kinds === undefined || f.kinds.includes(r.kind as MemoryKind)) &&
        Object.entries(f.metadata ?? {}).every(([k, v]) => k in r.metadata && (r.metadata as Record<string, unknown>)[k] === v) &&
        (f.where === undefined || evaluateFilter(f.where, r));
      expect(matchesFilter(r, f)).toBe(direct);
      expect(expr === undefined ? true : evaluateFilter(expr, r)).toBe(direct);
    }
  });
  test('the oracle filters on createdAt when given it, and refuses a createdAt filter without it', () => {
    const base = { ids: ['a', 'b'], namespaces: ['n', 'n'], kinds: ['fact', 'fact'] as Array<'fact'>, metadata: [{}, {}], vectors: Float32Array.of(1, 0, 0, 1), dim: 2, metric: 'cosine' as const };
    const where = parseFilter({ createdAt: { $gte: { $date: '2024-01-01T00:00:00Z' } } });
    const o = new ExactOracle({ ...base, createdAt: ['2023-12-31T23:59:59.999Z', '2024-01-01T00:00:00.000Z'] });
    expect(o.topK({ vector: Float32Array.of(1, 0), k: 2, filter: { where } }, 0)).toMatchObject({ matching: 1, hits: [{ id: 'b' }] });
    const bare = new ExactOracle(base);
    expect(() => bare.topK({ vector: Float32Array.of(1, 0), k: 2, filter: { where } }, 0)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
