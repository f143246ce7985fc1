/**
 * The filter-language mutants (src/selftest/mutants/filter-where.ts): each rewrites
 * `RecallFilter.where` exactly as its docstring says and nothing else. The rewrites are compared
 * with filters parsed by the spec's own parser (seen by a spy collection through recall and count),
 * and their effect is the reference evaluation (evaluateFilter) of both filters over small
 * memories. No server.
 */
import { capabilities, evaluateFilter, FILTER_OPERATORS, parseFilter, type FilterExpr, type MemoryCollection, type RecallFilter } from '@memory-matrix/spec';
import { MUTANTS } from '../src/selftest/mutants';
import { coercedValues, FILTER_WHERE_MUTANTS, mapWhere } from '../src/selftest/mutants/filter-where';
import { byName, rec, setup, v } from './fixtures/mutant-helpers';
import { TOY_CAPABILITIES } from './fixtures/toy-driver';

const ALL_OPS = capabilities({ ...TOY_CAPABILITIES, filterOperators: [...FILTER_OPERATORS] });

/** What the mutant `name` hands the store for the surface filter `surface`, through recall and through count (read back by a spy collection). */
async function rewrittenBoth(name: string, surface: unknown): Promise<{ recall: FilterExpr; count: FilterExpr }> {
  const seen: Array<FilterExpr | undefined> = [];
  const fault = byName(name).fault(ALL_OPS);
  const spy = {
    recall: async (q: { filter?: RecallFilter }) => (seen.push(q.filter?.where), []),
    count: async (f?: RecallFilter) => (seen.push(f?.where), 0),
  } as unknown as MemoryCollection;
  const filter = { where: parseFilter(surface), namespaces: ['ns1'] };
  const faulty = fault.collection!(spy);
  await faulty.recall!({ vector: v(1, 0), k: 1, filter });
  await faulty.count!(filter);
  return { recall: seen[0]!, count: seen[1]! };
}

/** The rewritten filter (the same through recall and count: asserted here). */
async function rewritten(name: string, surface: unknown): Promise<FilterExpr> {
  const both = await rewrittenBoth(name, surface);
  expect(both.count).toEqual(both.recall);
  return both.recall;
}

/** Memories with metadata `m` each (ids m0, m1, …). */
const rows = (...ms: Array<Record<string, unknown>>) => ms.map((m, i) => rec(`m${i}`, 'ns1', v(1, 0), { metadata: m as never }));

/** The ids of ROWS the filter matches by the reference semantics, before (`real`) and after (`faulty`) the mutant's rewrite. */
async function idsBoth(name: string, surface: unknown): Promise<{ real: string[]; faulty: string[] }> {
  const after = await rewritten(name, surface);
  const ids = (e: FilterExpr) => ROWS.filter((r) => evaluateFilter(e, r)).map((r) => r.id);
  return { real: ids(parseFilter(surface)), faulty: ids(after) };
}

const ROWS = rows({ x: 0 }, { x: false }, { x: '' }, { x: null }, {}, { x: 1 }, { x: '1' }, { x: true }, { x: 2 }, { x: 3 });

describe('filter-language mutants', () => {
  test('registered in family filter, after filter-dropped / filter-after-topk', () => {
    const names = MUTANTS.map((m) => m.name);
    expect(FILTER_WHERE_MUTANTS.map((m) => m.name)).toEqual(['filter-op-flip', 'filter-ne-missing', 'filter-coercion', 'filter-or-as-and', 'filter-bound-exclusive']);
    expect(FILTER_WHERE_MUTANTS.every((m) => m.family === 'filter')).toBe(true);
    expect(names.indexOf('filter-op-flip')).toBe(names.indexOf('filter-after-topk') + 1);
  });

  test('mapWhere rebuilds the tree bottom-up and leaves the input unchanged', () => {
    const e = parseFilter({ $or: [{ 'metadata.a': { $gt: 1 } }, { $not: { 'metadata.b': { $lte: 2 } } }] });
    const copy = JSON.parse(JSON.stringify(e));
    const out = mapWhere(e, (n) => (n.op === '$gt' ? { ...n, op: '$lt' } : n));
    expect(out).toEqual(parseFilter({ $or: [{ 'metadata.a': { $lt: 1 } }, { $not: { 'metadata.b': { $lte: 2 } } }] }));
    expect(e).toEqual(copy);
  });

  test('filter-op-flip: $gt↔$lt and $gte↔$lte, everywhere in the tree, createdAt too; the rest of the filter kept', async () => {
    expect(await rewritten('filter-op-flip', { $and: [{ 'metadata.a': { $gt: 1, $lte: 5 } }, { createdAt: { $gte: { $date: '2024-01-01T00:00:00Z' } } }] })).toEqual(
      parseFilter({ $and: [{ 'metadata.a': { $lt: 1, $gte: 5 } }, { createdAt: { $lte: { $date: '2024-01-01T00:00:00Z' } } }] }),
    );
    const r = await idsBoth('filter-op-flip', { 'metadata.x': { $gt: 1 } });
    expect(r.real).toEqual(['m8', 'm9']);
    expect(r.faulty).toEqual(['m0']);
  });

  test('filter-ne-missing: $ne / $nin on metadata require the key; namespace, kind and createdAt untouched', async () => {
    expect(await rewritten('filter-ne-missing', { 'metadata.a': { $ne: 1 }, namespace: { $ne: 'x' } })).toEqual(
      parseFilter({ $and: [{ $and: [{ 'metadata.a': { $exists: true } }, { 'metadata.a': { $ne: 1 } }] }, { namespace: { $ne: 'x' } }] }),
    );
    const r = await idsBoth('filter-ne-missing', { 'metadata.x': { $nin: [0, 1, 2, 3] } });
    expect(r.real).toEqual(['m1', 'm2', 'm3', 'm4', 'm6', 'm7']); // m4 has no x: the reference matches it
    expect(r.faulty).toEqual(['m1', 'm2', 'm3', 'm6', 'm7']);
  });

  test('coercedValues: a number and everything a loosely-typed layer takes for it', () => {
    expect(coercedValues(0)).toEqual([0, '0', false, '', null]);
    expect(coercedValues(false)).toEqual([false, 0, '0', '', null]);
    expect(coercedValues(null)).toEqual([null, 0, '0', false, '']);
    expect(coercedValues('1')).toEqual(['1', 1, true]);
    expect(coercedValues(true)).toEqual([true, 1, '1']);
    expect(coercedValues(2.5)).toEqual([2.5, '2.5']);
    expect(coercedValues(-0)).toEqual([-0, '0', false, '', null]);
    expect(coercedValues('work')).toEqual(['work']);
    expect(coercedValues(' ')).toEqual([' ']);
  });

  test('filter-coercion: $eq / $in on metadata become loose $in; kind and namespace untouched', async () => {
    expect(await rewritten('filter-coercion', { 'metadata.a': { $in: [0, 'x', false] }, kind: 'fact' })).toEqual(parseFilter({ 'metadata.a': { $in: [0, '0', false, '', null, 'x'] }, kind: 'fact' }));
    const r = await idsBoth('filter-coercion', { 'metadata.x': false });
    expect(r.real).toEqual(['m1']);
    expect(r.faulty).toEqual(['m0', 'm1', 'm2', 'm3']);
    const one = await idsBoth('filter-coercion', { 'metadata.x': 1 });
    expect([one.real, one.faulty]).toEqual([['m5'], ['m5', 'm6', 'm7']]);
  });

  test('filter-or-as-and: every $or becomes $and, nested ones too', async () => {
    expect(await rewritten('filter-or-as-and', { $or: [{ 'metadata.a': 1 }, { $not: { $or: [{ kind: 'fact' }, { kind: 'episode' }] } }] })).toEqual(
      parseFilter({ $and: [{ 'metadata.a': 1 }, { $not: { $and: [{ kind: 'fact' }, { kind: 'episode' }] } }] }),
    );
    const r = await idsBoth('filter-or-as-and', { $or: [{ 'metadata.x': 2 }, { 'metadata.x': 3 }] });
    expect([r.real, r.faulty]).toEqual([['m8', 'm9'], []]);
  });

  test('filter-bound-exclusive: $gte→$gt, $lte→$lt; $gt and $lt kept', async () => {
    expect(await rewritten('filter-bound-exclusive', { 'metadata.a': { $gte: 1, $lt: 5 }, 'metadata.b': { $lte: 0, $gt: -3 } })).toEqual(
      parseFilter({ 'metadata.a': { $gt: 1, $lt: 5 }, 'metadata.b': { $lt: 0, $gt: -3 } }),
    );
    const r = await idsBoth('filter-bound-exclusive', { 'metadata.x': { $gte: 2 } });
    expect([r.real, r.faulty]).toEqual([['m8', 'm9'], ['m9']]);
  });

  test('a recall or count without where is passed on unchanged', async () => {
    const { real, faulty } = await setup(byName('filter-coercion'), ALL_OPS);
    await real.upsert(ROWS);
    const q = { vector: v(1, 0), k: 3, filter: { metadata: { x: 0 } } };
    expect(await faulty.recall(q)).toEqual(await real.recall(q));
    expect(await faulty.count()).toBe(ROWS.length);
  });

  test('requires: n/a without the operators it touches or the ones its rewrite emits', () => {
    const caps = (ops: string[]) => capabilities({ ...TOY_CAPABILITIES, filterOperators: ops as never });
    for (const m of FILTER_WHERE_MUTANTS) {
      expect(m.requires(ALL_OPS)).toBeNull();
      expect(m.requires(caps([]))).toMatch(/^filterOperators declares none of \$/);
    }
    expect(byName('filter-ne-missing').requires(caps(['$ne', '$and']))).toBe('the rewrite emits $exists, not in filterOperators');
    expect(byName('filter-coercion').requires(caps(['$eq']))).toBe('the rewrite emits $in, not in filterOperators');
    expect(byName('filter-or-as-and').requires(caps(['$or', '$and']))).toBeNull();
    expect(byName('filter-op-flip').requires(capabilities({ ...ALL_OPS, vectors: false }))).toBe('capability: vectors');
  });
});
