/**
 * The shared delete verification (spec checks/helpers/delete-verified.ts `deleteVerified`) on a
 * filtered delete (`deleteWhere`, issue 34 step 5), on the toy driver's in-memory store: clean,
 * and through the selftest's `delete-filter-too-wide` (the metadata / `where` part dropped, the
 * whole namespace deleted) — steps kept and filtered count fail, and the reported count is compared.
 */
import { DEFAULT_TOLERANCES, deleteVerified, type LiveCell, type MemoryCollection, type MemoryRecord } from '@memory-matrix/spec';
import { faultStore, selectMutants, type ContractFault } from '../src/selftest/mutants';
import { driver, TOY_CAPABILITIES } from './fixtures/toy-driver';

const rec = (id: string, namespace: string, topic: string, x: number, y: number): MemoryRecord => ({
  id,
  namespace,
  text: `text of ${id}`,
  kind: 'fact',
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { topic },
  embedding: Float32Array.from([x, y]),
});
const A = [rec('a1', 'ua', 'work', 1, 0), rec('a2', 'ua', 'home', 0.9, 0.1), rec('a3', 'ua', 'work', 0.8, 0.2), rec('a4', 'ua', 'home', 0.7, 0.3)];
const B = [rec('b1', 'ub', 'work', 0, 1), rec('b2', 'ub', 'home', 0.1, 0.9)];
const cell = {
  datasetName: 'toy-set',
  target: 'toy@1',
  dataset: { manifest: { metric: 'cosine', dim: 2 } },
  config: { capabilities: TOY_CAPABILITIES, tolerances: DEFAULT_TOLERANCES },
} as unknown as LiveCell;

async function collectionWith(records: MemoryRecord[], fault?: ContractFault): Promise<MemoryCollection> {
  const engine = await driver.embedded!.engines['toy-1']!.open({ where: 'toy@1' });
  const store = await engine.connect();
  const c = await (fault ? faultStore(store, fault) : store).createCollection({ name: 'c', dim: 2, metric: 'cosine', index: { type: 'none' } });
  await c.upsert(records);
  return c;
}

const work = { namespaces: ['ua'], metadata: { topic: 'work' } };
const scoped = { deleted: [A[0]!, A[2]!], kept: [A[1]!, A[3]!, ...B], filter: work, what: "deleteWhere ua's work memories", kind: 'isolation' as const };
const steps = (fs: Array<{ message: string }>): string[] => fs.map((f) => /: (delete reported|step (?:filtered count|\w+))/.exec(f.message)?.[1] ?? f.message);

describe('deleteVerified with a filter', () => {
  test('a correct filtered delete: no failure, reported 2, count 6 → 4', async () => {
    const c = await collectionWith([...A, ...B]);
    const v = await deleteVerified(cell, c, scoped);
    expect(v).toEqual({ reported: 2, countBefore: 6, countAfter: 4, recalls: 2, failures: [], notes: [] });
  });

  test('delete-filter-too-wide: the reported count, step count, step kept and both filtered counts fail', async () => {
    const c = await collectionWith([...A, ...B], selectMutants(['delete-filter-too-wide'])[0]!.fault(TOY_CAPABILITIES));
    const v = await deleteVerified(cell, c, scoped);
    expect(v.reported).toBe(4);
    expect(steps(v.failures)).toEqual(['delete reported', 'step count', 'step kept', 'step filtered count']);
    expect(v.failures[2]!.message).toMatch(/step kept: 2 of the 4 memories not deleted are missing or changed: a2: missing, a4: missing$/);
    expect(v.failures[3]!.message).toContain('step filtered count: count of namespace ua is 0 after the delete, expected 2 (its memories not deleted)');
  });

  test('a filter that keeps the where but drops the namespace: step kept and the other namespace’s count name it', async () => {
    const noNs: ContractFault = { collection: (inner) => ({ deleteWhere: (f) => inner.deleteWhere!({ metadata: f.metadata }) }) };
    const v = await deleteVerified(cell, await collectionWith([...A, ...B], noNs), scoped);
    expect(steps(v.failures)).toEqual(['delete reported', 'step count', 'step kept', 'step filtered count']);
    expect(v.failures[3]!.message).toContain('count of namespace ub is 1 after the delete, expected 2');
  });

  test('a filtered delete whose expected memories are not the reference’s matches is the check’s INVALID_INPUT; nothing is deleted', async () => {
    const c = await collectionWith([...A, ...B]);
    await expect(deleteVerified(cell, c, { ...scoped, deleted: [A[0]!], kept: [A[1]!, A[2]!, A[3]!, ...B] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('a3 is kept but matched by the filter'),
    });
    expect(await c.count()).toBe(6);
  });
});
