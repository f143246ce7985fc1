import { inAskedOrder } from '../src';
import { shuffledAsk } from '../src/checks/c01-write-read';

describe('get(ids) contract (adapter.ts): order asked, each id once, missing left out', () => {
  test('inAskedOrder: repeats at their first occurrence only, unknown ids dropped', () => {
    const found = new Map([
      ['a', 'A'],
      ['b', 'B'],
      ['c', 'C'],
    ]);
    expect(inAskedOrder(['b', 'x', 'a', 'b', 'c', 'a', 'y'], found)).toEqual(['B', 'A', 'C']);
    expect(inAskedOrder([], found)).toEqual([]);
    expect(inAskedOrder(['x'], found)).toEqual([]);
  });

  test.each([1, 2, 3, 7, 14, 35, 60, 300])('shuffledAsk over %i ids: every id, not sorted, repeats and 3 unknown ids', (n) => {
    const ids = Array.from({ length: n }, (_, i) => `m-${String(i).padStart(4, '0')}`);
    const ask = shuffledAsk(ids);
    const known = ask.filter((id) => !id.startsWith('c01-unknown-'));
    expect(new Set(known)).toEqual(new Set(ids));
    expect(ask.filter((id) => id.startsWith('c01-unknown-'))).toHaveLength(3);
    expect(known.length - ids.length).toBe(Math.min(3, n) + 1); // repeats
    const firsts = inAskedOrder(ask, new Map(ids.map((id) => [id, id])));
    expect(firsts).toHaveLength(n);
    if (n >= 3) {
      expect(firsts).not.toEqual(ids); // neither id nor insertion order
      expect(firsts).not.toEqual([...ids].reverse());
    }
  });
});
