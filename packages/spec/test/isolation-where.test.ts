import { isolationDeletes } from '../src/checks/c25-isolation';
import { splitCondition } from '../src/checks/helpers/isolation-where';
import { capabilities } from '../src/capabilities';
import { matchesFilter } from '../src/filter';
import { validateDeleteFilter } from '../src/record-validation';
import type { MemoryRecord } from '../src/types';

/**
 * C25's filtered deletes (issue 34 step 5): the `where` condition chosen from the data
 * (`splitCondition`), the plan of deletes by capability (`isolationDeletes`), and the refusal of a
 * `deleteWhere` filter with no part (`validateDeleteFilter`).
 */
const rec = (id: string, ns: string, kind: MemoryRecord['kind'], metadata: MemoryRecord['metadata']): MemoryRecord => ({
  id,
  namespace: ns,
  kind,
  text: id,
  createdAt: '2024-05-01T09:30:00.000Z',
  metadata,
  embedding: Float32Array.from([1, 0]),
});

describe('splitCondition', () => {
  test('prefers a kind that splits own and also matches the other user', () => {
    const own = [rec('a1', 'a', 'fact', {}), rec('a2', 'a', 'episode', {}), rec('a3', 'a', 'fact', {})];
    const c = splitCondition(own, [rec('b1', 'b', 'episode', {})])!;
    expect(c.text).toBe('{"kind":{"$eq":"episode"}}');
    expect([c.own, c.other]).toEqual([1, 1]);
  });

  test('falls back to a metadata key (dots escaped) when every kind is alike; null when nothing splits', () => {
    const own = [rec('a1', 'a', 'fact', { 'x.y': 'p', f: false }), rec('a2', 'a', 'fact', { 'x.y': 'q', f: true })];
    const c = splitCondition(own, [])!;
    expect(c.text).toBe('{"metadata.x\\\\.y":{"$eq":"p"}}');
    expect([c.own, c.other]).toEqual([1, 0]);
    expect(splitCondition([rec('a1', 'a', 'fact', { f: false }), rec('a2', 'a', 'fact', { f: true })], [])).toBeNull(); // booleans are not used
    expect(splitCondition([rec('a1', 'a', 'fact', {})], [])).toBeNull();
  });
});

describe('isolationDeletes', () => {
  const A = ['fact', 'episode', 'fact', 'episode', 'fact', 'summary'].map((k, i) => rec(`a${i}`, 'ua', k as MemoryRecord['kind'], { n: i }));
  const B = [rec('b0', 'ub', 'fact', {}), rec('b1', 'ub', 'episode', {})];

  test('with deleteByFilter and $eq: a third by id, then namespace + where, then namespace; the filters match exactly what they delete', () => {
    const notes: string[] = [];
    const ds = isolationDeletes(capabilities({ deleteByFilter: true, filterOperators: ['$eq'] }), 'ua', A, B, notes);
    expect(ds.map((d) => [d.filter ? Object.keys(d.filter).sort().join('+') : 'ids', d.deleted.map((r) => r.id).join()])).toEqual([
      ['ids', 'a0,a1'],
      ['namespaces+where', 'a2,a4'],
      ['namespaces', 'a3,a5'],
    ]);
    for (const d of ds.filter((x) => x.filter)) {
      expect(d.deleted.every((r) => matchesFilter(r, d.filter))).toBe(true);
      expect(d.kept.some((r) => matchesFilter(r, d.filter))).toBe(false);
    }
    expect(notes).toEqual([]);
  });

  test('without deleteByFilter: two halves by id and a note; without $eq: no where step and a note', () => {
    const notes: string[] = [];
    expect(isolationDeletes(capabilities({}), 'ua', A, B, notes).map((d) => d.deleted.length)).toEqual([3, 3]);
    expect(isolationDeletes(capabilities({ deleteByFilter: true }), 'ua', A, B, notes).map((d) => d.deleted.length)).toEqual([2, 4]);
    expect(notes).toEqual(['filtered delete not run (capability: deleteByFilter): user A deleted by id only', 'where-scoped delete not run (capability: filterOperators lacks $eq)']);
  });
});

test('validateDeleteFilter refuses a filter with no part (INVALID_INPUT) and a where the rules do not declare (CAPABILITY_MISSING)', () => {
  const rules = { adapter: 't', filterOperators: ['$eq'] as const };
  for (const f of [undefined, {}, { metadata: {} }]) expect(() => validateDeleteFilter(f, 'c', rules)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  expect(() => validateDeleteFilter({}, 'c', rules)).toThrow('t: c: deleteWhere: the filter has no part (namespaces, kinds, metadata or where), so it would delete every memory; refused');
  expect(() => validateDeleteFilter({ namespaces: [] }, 'c', rules)).not.toThrow();
  expect(() => validateDeleteFilter({ where: { op: '$gt', field: { root: 'metadata', path: ['n'] }, value: 1 } }, 'c', rules)).toThrow(expect.objectContaining({ code: 'CAPABILITY_MISSING' }));
});
