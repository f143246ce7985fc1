import path from 'node:path';
import { capabilities, DEFAULT_LOAD_SEED, DEFAULT_TOLERANCES, LiveCell, loadGoldenDataset, parseLoadSeed, seededShuffle, type MemoryCollection, type MemoryRecord, type MemoryStore } from '../src';
import { batchOutcome } from '../src/checks/c12-degenerate-vectors';
import type { Expectation } from '../src/expectation';

/**
 * Issue 31 kind 8: the golden set is written in a seeded shuffled order, never in id order, so a
 * store that breaks exact ties by insertion order shows in C07. Kind 9 (b, d): C02's and C12's
 * messages say what happened.
 */
describe('seededShuffle', () => {
  const ten = Array.from({ length: 10 }, (_, i) => i);
  test('the same seed gives the same permutation (pinned: any machine, any Node version); another seed another one', () => {
    expect(seededShuffle(ten, 31)).toEqual([3, 4, 8, 9, 1, 2, 0, 5, 7, 6]);
    expect(seededShuffle(ten, 0)).toEqual([3, 8, 6, 4, 5, 9, 7, 1, 0, 2]);
    expect(seededShuffle(ten, 31)).toEqual(seededShuffle(ten, 31));
    expect([...seededShuffle(ten, 7)].sort((a, b) => a - b)).toEqual(ten);
    expect(ten).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]); // input untouched
    expect(seededShuffle([], 1)).toEqual([]);
  });

  test('on a dataset of every size from 2 to 200 the default order is never id order', () => {
    for (let n = 2; n <= 200; n++) {
      const ids = Array.from({ length: n }, (_, i) => i);
      expect(seededShuffle(ids, DEFAULT_LOAD_SEED)).not.toEqual(ids);
    }
  });

  test('parseLoadSeed: default, integers 0..2^32-1, random (drawn, so the report can name it); anything else USAGE', () => {
    expect(parseLoadSeed(undefined)).toBe(DEFAULT_LOAD_SEED);
    expect(parseLoadSeed('0')).toBe(0);
    expect(parseLoadSeed('4294967295')).toBe(4294967295);
    expect(parseLoadSeed('random', () => 0.5)).toBe(2147483648);
    for (const bad of ['-1', '4294967296', '1.5', 'abc', '', ' 3', '0x10', '99999999999']) {
      expect(() => parseLoadSeed(bad)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('--load-seed') }));
    }
  });
});

test('LiveCell.loaded writes the golden memories in the seeded shuffled order of its loadSeed, not in id order', async () => {
  const dataset = loadGoldenDataset(path.join(__dirname, 'fixtures', 'golden-tiny'));
  const written = async (loadSeed?: number): Promise<string[]> => {
    const order: string[] = [];
    const collection = (spec: MemoryCollection['spec']) =>
      ({
        spec,
        upsert: async (rs: MemoryRecord[]) => void order.push(...rs.map((r) => r.id)),
        buildIndex: async () => undefined,
      }) as unknown as MemoryCollection;
    const store = { createCollection: async (spec: MemoryCollection['spec']) => collection(spec), close: async () => undefined, dropCollection: async () => undefined } as unknown as MemoryStore;
    const cell = new LiveCell({
      target: 't@1',
      capabilities: capabilities({ vectors: true, metrics: ['cosine', 'ip', 'l2'] }),
      tolerances: DEFAULT_TOLERANCES,
      index: { type: 'none' },
      dataset,
      expectation: { entries: [] } as unknown as Expectation,
      connect: async () => store,
      loadSeed,
    });
    await cell.loaded();
    expect(cell.loadSeed).toBe(loadSeed ?? DEFAULT_LOAD_SEED);
    expect(cell.goldenCollectionName).toMatch(/^golden_/);
    return order;
  };
  const ids = dataset.memories.map((m) => m.id);
  expect(ids).toEqual([...ids].sort()); // the fixture is in id order, as every golden file
  const byDefault = await written();
  expect(byDefault).toEqual(seededShuffle(dataset.memories, DEFAULT_LOAD_SEED).map((m) => m.id));
  expect(byDefault).not.toEqual(ids);
  expect(await written(12345)).toEqual(seededShuffle(dataset.memories, 12345).map((m) => m.id));
});

describe('messages say what happened (issue 31 kind 9)', () => {
  test('C12: an accepted batch is never called rejected', () => {
    expect(batchOutcome('nan', null, 3, 3)).toBe('the nan batch was accepted (expected INVALID_VECTOR): 3 of its 3 records are stored');
    expect(batchOutcome('zero', 'INVALID_VECTOR', 1, 3)).toBe('the zero batch was rejected with INVALID_VECTOR, yet 1 of its 3 records is stored');
  });
});
