// The adapter kit's collection side (src/kit/top-k.ts, src/kit/negation-normal-form.ts): the
// tie-complete top-k loop widens exactly while the tie group at rank k is cut, and the negation
// normal form of a filter means what the filter means on every document tried.
import { evaluateFilter } from '../src/filter-lang/evaluate';
import { parseFilter } from '../src/filter-lang/parse';
import type { FilterDocument, FilterExpr } from '../src/filter-lang/types';
import { foldNegationNormalForm, toNegationNormalForm, type NnfExpr } from '../src/kit/negation-normal-form';
import { byScoreThenId, keepMinScore, lastWriteWins, TIE_MARGIN, tieCompleteTopK, tieCompleteTopKSync, tieGroupCut } from '../src/kit/top-k';

/** A store of rows { id, d } (distance ascending, ties by id); answers a fetch of n with the first n, logging each n asked. */
function store(ds: number[]) {
  const rows = ds.map((d, i) => ({ id: `r${String(i).padStart(4, '0')}`, d })).sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
  const asked: number[] = [];
  return { asked, fetch: (n: number) => (asked.push(n), rows.slice(0, n)) };
}

describe('tieCompleteTopK', () => {
  test('no tie at rank k: one fetch of k + TIE_MARGIN', async () => {
    const s = store(Array.from({ length: 100 }, (_, i) => i));
    const top = await tieCompleteTopK({ k: 5, key: (r) => r.d }, async (n: number) => s.fetch(n));
    expect(top.map((r) => r.d)).toEqual([0, 1, 2, 3, 4]);
    expect(s.asked).toEqual([5 + TIE_MARGIN]);
  });

  test('a tie group wider than the margin: the fetch doubles until it ends, the cut is by id', () => {
    const s = store([0, ...Array.from({ length: 60 }, () => 1), 2, 3]);
    const top = tieCompleteTopKSync({ k: 3, key: (r) => r.d }, s.fetch);
    expect(s.asked).toEqual([19, 38, 76]);
    expect(top.map((r) => r.id)).toEqual(['r0000', 'r0001', 'r0002']);
  });

  test('max caps the fetch (and ends the loop) even while the group is still cut', () => {
    const s = store(Array.from({ length: 500 }, () => 1));
    expect(tieCompleteTopKSync({ k: 2, key: (r) => r.d, max: 40 }, s.fetch)).toHaveLength(2);
    expect(s.asked).toEqual([18, 36, 40]);
    const t = store(Array.from({ length: 500 }, () => 1));
    tieCompleteTopKSync({ k: 2, key: (r) => r.d, max: 10 }, t.fetch);
    expect(t.asked).toEqual([10]);
  });

  test('tieGroupCut: a short answer, or one no longer than k, is never cut', () => {
    const key = (r: { d: number }) => r.d;
    expect(tieGroupCut([{ d: 1 }, { d: 1 }], 1, 2, key)).toBe(true);
    expect(tieGroupCut([{ d: 1 }, { d: 1 }], 1, 3, key)).toBe(false);
    expect(tieGroupCut([{ d: 1 }, { d: 1 }], 2, 2, key)).toBe(false);
    expect(tieGroupCut([{ d: 1 }, { d: 2 }], 1, 2, key)).toBe(false);
  });
});

test('keepMinScore, byScoreThenId, lastWriteWins', () => {
  const hits = [
    { id: 'b', score: 0.5 },
    { id: 'a', score: 0.5 },
    { id: 'c', score: 0.9 },
  ];
  expect(keepMinScore(hits, undefined)).toBe(hits);
  expect(keepMinScore(hits, 0.6)).toEqual([{ id: 'c', score: 0.9 }]);
  expect([...hits].sort(byScoreThenId).map((h) => h.id)).toEqual(['c', 'a', 'b']);
  const recs = [
    { id: 'x', v: 1 },
    { id: 'y', v: 2 },
    { id: 'x', v: 3 },
  ];
  expect(lastWriteWins(recs)).toEqual([
    { id: 'x', v: 3 },
    { id: 'y', v: 2 },
  ]);
  expect(lastWriteWins(recs, 'last')).toEqual([
    { id: 'y', v: 2 },
    { id: 'x', v: 3 },
  ]);
});

describe('negation normal form', () => {
  const docs: FilterDocument[] = [
    { namespace: 'a', kind: 'fact', createdAt: '2026-01-01T00:00:00.000Z', metadata: { n: 1, s: 'x' } },
    { namespace: 'b', kind: 'episode', createdAt: '2026-01-02T00:00:00.000Z', metadata: { n: 5 } },
    { namespace: 'a', kind: 'episode', createdAt: '2026-01-03T00:00:00.000Z', metadata: { s: 'y', b: true } },
    { namespace: 'c', kind: 'fact', createdAt: '2026-01-04T00:00:00.000Z', metadata: {} },
  ];
  const evalNnf = (e: NnfExpr, d: FilterDocument): boolean =>
    e.op === 'leaf' ? evaluateFilter(e.leaf, d) !== e.negated : e.op === '$and' ? e.args.every((a) => evalNnf(a, d)) : e.args.some((a) => evalNnf(a, d));
  const hasNot = (e: NnfExpr): boolean => e.op !== 'leaf' && e.args.some(hasNot);

  test.each([
    { $not: { namespace: 'a' } },
    { $not: { $and: [{ namespace: 'a' }, { 'metadata.n': { $gt: 0 } }] } },
    { $not: { $or: [{ kind: 'fact' }, { $not: { 'metadata.s': { $exists: true } } }] } },
    { $and: [{ $not: { $not: { 'metadata.b': true } } }, { namespace: { $in: ['a', 'b'] } }] },
    { $or: [{ $not: { 'metadata.n': { $lte: 1 } } }, { kind: { $nin: ['fact'] } }] },
  ])('%j means the same on every document, with no $not left', (surface) => {
    const expr: FilterExpr = parseFilter(surface);
    const nnf = toNegationNormalForm(expr);
    expect(hasNot(nnf)).toBe(false);
    expect(docs.map((d) => evalNnf(nnf, d))).toEqual(docs.map((d) => evaluateFilter(expr, d)));
  });

  test('fold: De Morgan on $and / $or, `not` called at each $not before its operand', () => {
    const seen: string[] = [];
    const out = foldNegationNormalForm<string>(parseFilter({ $not: { $and: [{ namespace: 'a' }, { kind: 'fact' }] } }), {
      leaf: (e, neg) => (seen.push('leaf'), `${neg ? '!' : ''}${e.op}`),
      and: (p) => `(${p.join(' & ')})`,
      or: (p) => `(${p.join(' | ')})`,
      not: () => void seen.push('not'),
    });
    expect(out).toBe('(!$eq | !$eq)');
    expect(seen).toEqual(['not', 'leaf', 'leaf']);
  });
});
