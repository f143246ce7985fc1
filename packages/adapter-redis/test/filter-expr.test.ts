import { parseFilter } from '@memory-matrix/spec';
import { compileFilter, eqEntry, hex, literal, numericField } from '../src';

/**
 * The compiler's text (no server; test/filter.test.ts runs it against Redis): number literals
 * expr.c can read, no user text in the expression, constants where nothing can match.
 */
const compile = (f: unknown, numeric: string[] = []) => compileFilter(parseFilter(f), new Set(numeric));

describe('number literals', () => {
  test('no signed exponent, same double back', () => {
    const cases: Array<[number, string]> = [
      [0, '0'],
      [-0, '0'],
      [1.5, '1.5'],
      [-2, '-2'],
      [1e21, '1e21'],
      [-1.25e300, '-1.25e300'],
      [1e-7, '0.0000001'],
      [-1.5e-9, '-0.0000000015'],
    ];
    for (const [n, s] of cases) {
      expect(literal(n)).toBe(s);
      expect(Number(literal(n))).toBe(n === 0 ? 0 : n);
    }
  });
  test('a literal longer than expr.c reads is CAPABILITY_MISSING, named', () => {
    expect(() => literal(5e-324)).toThrow(expect.objectContaining({ code: 'CAPABILITY_MISSING', message: expect.stringContaining('5e-324') }));
  });
});

describe('compileFilter', () => {
  test('user text only as hex; negations wrap the positive test', () => {
    const nasty = `a" or 1 == 1 or "'\\`;
    const e = compile({ 'metadata.s': { $ne: nasty }, namespace: nasty });
    expect(e).toBe(`(not ("${eqEntry('s', nasty)}" in .e)) and (.ns == "s${hex(nasty)}")`);
    expect(e).not.toContain('or 1');
  });
  test('ranges read x_<hex> only for a registered numeric key; createdAt by ms then µs', () => {
    expect(compile({ 'metadata.n': { $gte: 2 } }, ['n'])).toBe(`.${numericField('n')} >= 2`);
    expect(compile({ 'metadata.n': { $gte: 2 } })).toBe('0');
    expect(compile({ createdAt: { $lt: { $date: '2024-01-01T00:00:00.000500Z' } } })).toBe(
      `(.t < ${Date.parse('2024-01-01T00:00:00Z')}) or (.t == ${Date.parse('2024-01-01T00:00:00Z')} and .tu < 500)`,
    );
  });
  test('empty lists, nested paths and $exists', () => {
    expect(compile({ 'metadata.n': { $in: [] } })).toBe('0');
    expect(compile({ 'metadata.n': { $nin: [] } })).toBe('not (0)');
    expect(compile({ 'metadata.a.b': 1 })).toBe('0');
    expect(compile({ 'metadata.n': { $exists: false } })).toBe(`not ("${hex('n')}" in .k)`);
  });
});
