/**
 * Open index types: a driver declares its own (`BackendDriver.indexes`, a zod schema per type) and
 * the catalog parses each target's `index` with its driver's schema at load. In process, no server:
 * the toy driver (fixtures/toy-driver, registered here) declares `toy-flat`; pgvector declares the
 * built-in `hnsw` and `ivfflat`. Errors are USAGE (exit 2 through the CLI: bad-input.test.ts,
 * drivers.test.ts) naming `<file>:<line>: targets.<name>.index.<key>`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { capabilities, defineDriver, hnswIndexSchema, type Capabilities } from '@memory-matrix/spec';
import { checkDriverContract, loadCatalog, registerDriver, resolveTarget } from '@memory-matrix/targets';
import { driver as toy, TOY_CAPABILITIES } from './fixtures/toy-driver';

registerDriver(toy);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-index-types-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

/** A catalog of one toy target and one pgvector (PGlite) target, with the given index lines (`''` = none given) and defaults.index. */
function catalog(toyIndex: string, pgIndex = '', defaults = '{ type: none }'): string {
  const f = path.join(tmp, `targets-${n++}.yaml`);
  writeFileSync(
    f,
    [
      'defaults:',
      `  index: ${defaults}`,
      '  tolerances: { scoreTolerance: 1.0e-5, tieEpsilon: 1.0e-5, annRecallFloor: 0.95, annRecallFloorPerQuery: 0.5, annShortfallMax: 0 }',
      'targets:',
      '  toy@1:',
      '    backend: toy',
      '    provider: embedded',
      '    engine: toy-1',
      ...(toyIndex ? [`    index: ${toyIndex}`] : []),
      '  pgvector@pglite-pg18:',
      '    backend: pgvector',
      '    provider: embedded',
      '    engine: pglite-0.5',
      ...(pgIndex ? [`    index: ${pgIndex}`] : []),
      'profiles:',
      '  p:',
      '    targets: [toy@1, pgvector@pglite-pg18]',
      '',
    ].join('\n'),
  );
  return f;
}

const lineOf = (f: string, needle: string): number =>
  readFileSync(f, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle)) + 1;

const error = (fn: () => unknown): { code?: string; message: string } => {
  try {
    fn();
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  return { message: '(no error)' };
};

describe("a driver's own index type", () => {
  test('toy-flat, declared by the toy driver, is parsed by its schema: as written, or with its default blockSize', () => {
    const cat = loadCatalog(catalog('{ type: toy-flat, blockSize: 8 }'));
    expect(resolveTarget(cat, 'toy@1').index).toEqual({ type: 'toy-flat', blockSize: 8 });
    expect(resolveTarget(loadCatalog(catalog('{ type: toy-flat }')), 'toy@1').index).toEqual({ type: 'toy-flat', blockSize: 64 });
    expect(resolveTarget(cat, 'pgvector@pglite-pg18').index).toEqual({ type: 'none' }); // the defaults
  });

  test('a type the driver does not declare names the types it offers, at the type line', () => {
    const f = catalog('{ type: hnsw, m: 16, efConstruction: 64, efSearch: 100 }');
    const e = error(() => loadCatalog(f));
    expect(e.code).toBe('USAGE');
    expect(e.message).toBe(`${f}:${lineOf(f, 'type: hnsw')}: targets.toy@1.index.type: driver toy has no index type "hnsw"; it offers index types: none, toy-flat`);
    const g = catalog('', '{ type: toy-flat }');
    expect(error(() => loadCatalog(g)).message).toBe(
      `${g}:${lineOf(g, 'type: toy-flat')}: targets.pgvector@pglite-pg18.index.type: driver pgvector has no index type "toy-flat"; it offers index types: none, hnsw, ivfflat`,
    );
  });

  test('a bad parameter of a known type: out of range, unknown key (with did you mean), wrong type', () => {
    const bad = (toyIndex: string, pgIndex = '') => {
      const f = catalog(toyIndex, pgIndex);
      const e = error(() => loadCatalog(f));
      expect(e.code).toBe('USAGE');
      return e.message.replace(f, '<f>');
    };
    expect(bad('{ type: toy-flat, blockSize: 0 }')).toMatch(/^<f>:9: targets\.toy@1\.index\.blockSize: Number must be greater than or equal to 1$/);
    expect(bad('{ type: toy-flat, blokSize: 8 }')).toMatch(/^<f>:9: targets\.toy@1\.index\.blokSize: unknown key "blokSize"; did you mean "blockSize"\?$/);
    expect(bad('{ type: toy-flat, blockSize: "8" }')).toMatch(/^<f>:9: targets\.toy@1\.index\.blockSize: Expected number, received string$/);
    expect(bad('', '{ type: hnsw, m: 16, efConstruction: 64, efSerch: 100 }')).toMatch(/^<f>:13: targets\.pgvector@pglite-pg18\.index\.efSerch: unknown key "efSerch"; did you mean "efSearch"\?$/);
    expect(bad('', '{ type: ivfflat, lists: 10 }')).toMatch(/^<f>:13: targets\.pgvector@pglite-pg18\.index\.probes: Required$/);
  });

  test("an inherited defaults.index the target's driver does not offer is an error at the target, saying where it came from", () => {
    const f = catalog('', '', '{ type: hnsw, m: 16, efConstruction: 64, efSearch: 100 }');
    expect(error(() => loadCatalog(f)).message).toBe(
      `${f}:${lineOf(f, 'toy@1:')}: targets.toy@1.index: driver toy has no index type "hnsw"; it offers index types: none, toy-flat (the target gives no index; the catalog's defaults.index is "hnsw": give the target an index of its own)`,
    );
  });
});

describe('defineDriver checks the declared index types', () => {
  const base = { description: 'x', scores: toy.scores };
  const caps = (annIndexes: string[]): Capabilities => capabilities({ ...TOY_CAPABILITIES, annIndexes });
  test('every annIndexes entry must be declared', () => {
    expect(() => defineDriver({ ...base, name: 'ix-a', capabilities: caps(['hnsw']) })).toThrow(
      'driver ix-a: capabilities.annIndexes "hnsw" is not a declared index type (indexes: none); declare each in the driver\'s indexes with its schema',
    );
    expect(() => defineDriver({ ...base, name: 'ix-b', capabilities: caps(['hnsw', 'graph']), indexes: { hnsw: hnswIndexSchema } })).toThrow(
      /annIndexes "graph" is not a declared index type \(indexes: none, hnsw\)/,
    );
    expect(defineDriver({ ...base, name: 'ix-c', capabilities: caps(['hnsw']), indexes: { hnsw: hnswIndexSchema } }).name).toBe('ix-c');
  });
  test("none is every driver's and is not declared", () => {
    expect(() => defineDriver({ ...base, name: 'ix-d', capabilities: caps([]), indexes: { none: hnswIndexSchema } })).toThrow('driver ix-d: indexes must not declare "none" (every driver offers it)');
  });
});

describe('a driver module not built with defineDriver (MM_DRIVERS, memory-matrix.yaml adapters) is held to the same', () => {
  const plain = (extra: Record<string, unknown>) => ({ ...toy, name: 'plain', ...extra });
  test('annIndexes must be declared, and indexes must be zod schemas: USAGE naming where', () => {
    expect(error(() => checkDriverContract(plain({ capabilities: { ...TOY_CAPABILITIES, annIndexes: ['graph'] } }), 'MM_DRIVERS'))).toEqual({
      code: 'USAGE',
      message: 'MM_DRIVERS: driver plain: capabilities.annIndexes "graph" is not a declared index type (indexes: none, toy-flat); declare each in the driver\'s indexes with its schema',
    });
    expect(error(() => checkDriverContract(plain({ indexes: { graph: { type: 'graph' } } }), 'MM_DRIVERS'))).toEqual({
      code: 'USAGE',
      message: 'MM_DRIVERS: driver plain: indexes.graph.safeParse is missing (a function)',
    });
    expect(() => checkDriverContract(plain({}), 'MM_DRIVERS')).not.toThrow();
  });
});
