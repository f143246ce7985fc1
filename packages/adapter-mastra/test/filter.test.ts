import type { FilterExpr } from '@memory-matrix/spec';
import { compileMastraFilter, MASTRA_FILTER_OPERATORS } from '../src';

const meta = (...path: string[]) => ({ root: 'metadata' as const, path });

test('the filter language compiles to Mastra filter objects on the keys the driver writes', () => {
  const where: FilterExpr = {
    op: '$or',
    args: [
      { op: '$in', field: meta('tag'), values: ['x', 'y'] },
      { op: '$not', arg: { op: '$lt', field: meta('n'), value: 2 } },
      { op: '$eq', field: { root: 'namespace' }, value: 'a' },
    ],
  };
  expect(compileMastraFilter({ where }, 'test')).toEqual({ $or: [{ tag: { $in: ['x', 'y'] } }, { $not: { n: { $lt: 2 } } }, { mm_namespace: { $eq: 'a' } }] });
});

test('operators outside the declared set are refused (CAPABILITY_MISSING)', () => {
  expect(MASTRA_FILTER_OPERATORS).not.toContain('$contains');
  expect(() => compileMastraFilter({ where: { op: '$contains', field: meta('tags'), value: 'x' } }, 'test')).toThrow(expect.objectContaining({ code: 'CAPABILITY_MISSING' }));
});
