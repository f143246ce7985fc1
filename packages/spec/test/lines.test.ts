import { LineSplitter } from '../src/lines';

describe('LineSplitter', () => {
  test('lines within one chunk, across chunks, empty lines, and a partial line kept for the next chunk', () => {
    const s = new LineSplitter();
    expect(s.push('a\nbc')).toEqual(['a']);
    expect(s.push('d')).toEqual([]);
    expect(s.push('e\n\nf\ng')).toEqual(['bcde', '', 'f']);
    expect(s.push('\n')).toEqual(['g']);
    expect(s.push('')).toEqual([]);
  });

  test('reset drops a partial line', () => {
    const s = new LineSplitter();
    expect(s.push('half')).toEqual([]);
    s.reset();
    expect(s.push('new\n')).toEqual(['new']);
  });

  test('any split of a text gives the lines split("\\n") gives (multi-byte characters included)', () => {
    const text = '{"a":"並行 ✍️"}\n{"b":[1,2,3]}\n\nlast line 😀\n';
    const want = text.split('\n').slice(0, -1);
    for (let i = 0; i <= text.length; i++) {
      for (let j = i; j <= text.length; j += 3) {
        const s = new LineSplitter();
        expect([...s.push(text.slice(0, i)), ...s.push(text.slice(i, j)), ...s.push(text.slice(j))]).toEqual(want);
      }
    }
  });

  test('a 12 MB line in 64 KB chunks (a store process answer of 5,111 records) comes out whole, once', () => {
    const line = 'x'.repeat(12 * 1024 * 1024);
    const s = new LineSplitter();
    const out: string[] = [];
    for (let i = 0; i < line.length; i += 65_536) out.push(...s.push(line.slice(i, i + 65_536)));
    out.push(...s.push('\n'));
    expect(out).toHaveLength(1);
    expect(out[0]!.length).toBe(line.length);
  });
});
