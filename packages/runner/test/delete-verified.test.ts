/**
 * The shared delete verification every check's delete goes through (spec
 * checks/helpers/delete-verified.ts `deleteVerified`), on a real contract implementation — the toy
 * driver's in-memory store (fixtures/toy-driver) — clean and carrying faults: the selftest's
 * `delete-keeps-rows` and `namespace-leak-delete`, and a stale index (rows gone from get and count,
 * still recalled). Each step (get, count, recall, kept) fails on its own, naming the collection and ids.
 */
import { capabilities, DEFAULT_TOLERANCES, deleteVerified, MAX_RECALL_K, type LiveCell, type MemoryCollection, type MemoryRecord } from '@memory-matrix/spec';
import { faultStore, selectMutants, type ContractFault } from '../src/selftest/mutants';
import { driver, TOY_CAPABILITIES } from './fixtures/toy-driver';

const rec = (id: string, namespace: string, x: number, y: number): MemoryRecord => ({
  id,
  namespace,
  text: `text of ${id}`,
  kind: 'fact',
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { n: 1 },
  embedding: Float32Array.from([x, y]),
});
const A = [rec('a1', 'ua', 1, 0), rec('a2', 'ua', 0.9, 0.1), rec('a3', 'ua', 0.8, 0.2), rec('a4', 'ua', 0.7, 0.3)];
const B = [rec('b1', 'ub', 0, 1), rec('b2', 'ub', 0.1, 0.9), rec('b3', 'ub', 1, 0)]; // b3: an exact duplicate of a1's vector

function cellFor(caps = TOY_CAPABILITIES): LiveCell {
  return {
    datasetName: 'toy-set',
    target: 'toy@1',
    dataset: { manifest: { metric: 'cosine', dim: 2 } },
    config: { capabilities: caps, tolerances: DEFAULT_TOLERANCES },
  } as unknown as LiveCell;
}

/** A toy collection holding `records`, seen through `fault` (none: the real one). */
async function collectionWith(records: MemoryRecord[], fault?: ContractFault): Promise<MemoryCollection> {
  const engine = await driver.embedded!.engines['toy-1']!.open({ where: 'toy@1' });
  const store = await engine.connect();
  const c = await (fault ? faultStore(store, fault) : store).createCollection({ name: 'c', dim: 2, metric: 'cosine', index: { type: 'none' } });
  await c.upsert(records);
  return c;
}

const halfOfA = { deleted: A.slice(0, 2), kept: [...A.slice(2), ...B], what: 'delete of half of ua', kind: 'isolation' };
const steps = (fs: Array<{ message: string }>): string[] => fs.map((f) => /: (delete reported|step \w+)/.exec(f.message)?.[1] ?? f.message);

describe('deleteVerified', () => {
  test('a correct delete: no failure; reported, counts before and after, one recall per deleted memory; afterAck runs between', async () => {
    const c = await collectionWith([...A, ...B]);
    const seen: number[] = [];
    const v = await deleteVerified(cellFor(), c, halfOfA, async () => {
      seen.push(await c.count());
    });
    expect(v).toEqual({ reported: 2, countBefore: 7, countAfter: 5, recalls: 2, failures: [], notes: [] });
    expect(seen).toEqual([5]);
    expect((await c.get(A.map((r) => r.id))).map((r) => r.id)).toEqual(['a3', 'a4']);
  });

  test('delete-keeps-rows (right count, nothing removed): steps get, count and recall fail, naming collection, ids and what came back', async () => {
    const c = await collectionWith([...A, ...B], selectMutants(['delete-keeps-rows'])[0]!.fault(TOY_CAPABILITIES));
    const v = await deleteVerified(cellFor(), c, halfOfA);
    expect(v.reported).toBe(2);
    expect(steps(v.failures)).toEqual(['step get', 'step count', 'step recall', 'step recall']);
    const [get, count, recall] = v.failures;
    expect(get).toMatchObject({ dataset: 'toy-set', target: 'toy@1', kind: 'isolation', expected: 0, actual: 2 });
    expect(get!.message).toBe('toy-set @ toy@1: delete of half of ua (2 ids) on collection c: step get: get of the deleted ids returned 2 of them: a1, a2');
    expect(count!.message).toContain('step count: count() was 7 before and is 7 after, expected 5 (a drop of 2)');
    expect(recall).toMatchObject({ id: 'a1', scan: 'exact', actual: 2 });
    expect(recall!.message).toMatch(/step recall: recall \(exact scan, k 7\) with the embedding of deleted a1 returned 2 deleted ids: a1 \(rank \d, score [\d.]+\), a2 \(rank \d/);
  });

  test('a delete that takes another namespace’s memory too (namespace-leak-delete): step kept names it; a wrong reported count is its own failure', async () => {
    const leak = selectMutants(['namespace-leak-delete'])[0]!.fault(TOY_CAPABILITIES);
    const v = await deleteVerified(cellFor(), await collectionWith([...A, ...B], leak), halfOfA);
    expect(steps(v.failures)).toEqual(['step count', 'step kept']);
    expect(v.failures[1]!.message).toMatch(/step kept: 1 of the 5 memories not deleted are missing or changed: b\d: missing$/);
    const zero: ContractFault = { collection: (inner) => ({ delete: async (ids) => (await inner.delete(ids)) * 0 }) };
    const z = await deleteVerified(cellFor(), await collectionWith([...A, ...B], zero), halfOfA);
    expect(z.failures.map((f) => f.message)).toEqual(['toy-set @ toy@1: delete of half of ua (2 ids) on collection c: delete reported 0 deleted, expected 2 (every id was stored)']);
  });

  test('a stale index (get and count right, recall still returns the deleted rows): only step recall fails; without exactScan it runs on the index path', async () => {
    const stale: ContractFault = {
      collection: (inner) => {
        const ghosts: MemoryRecord[] = [];
        return {
          delete: async (ids) => {
            ghosts.push(...(await inner.get(ids)));
            return inner.delete(ids);
          },
          recall: async (q) => [...ghosts.map((g) => ({ id: g.id, score: 1 })), ...(await inner.recall(q))].slice(0, q.k),
        };
      },
    };
    const v = await deleteVerified(cellFor(capabilities({ ...TOY_CAPABILITIES, exactScan: false })), await collectionWith([...A, ...B], stale), halfOfA);
    expect(steps(v.failures)).toEqual(['step recall', 'step recall']);
    expect(v.failures.map((f) => f.scan)).toEqual(['index', 'index']);
  });

  test('above MAX_RECALL_K memories, k reaches the deleted memory’s own tie group in the exact ranking before the delete', async () => {
    const many = Array.from({ length: MAX_RECALL_K + 10 }, (_, i) => rec(`m${String(i).padStart(5, '0')}`, 'u', Math.cos(i * 0.006), Math.sin(i * 0.006)));
    const c = await collectionWith(many, selectMutants(['delete-keeps-rows'])[0]!.fault(TOY_CAPABILITIES));
    const v = await deleteVerified(cellFor(), c, { deleted: [many[500]!], kept: many.filter((_, i) => i !== 500), what: 'delete of one', kind: 'delete' });
    expect(steps(v.failures)).toEqual(['step get', 'step count', 'step recall']);
    const k = Number(/recall \(exact scan, k (\d+)\)/.exec(v.failures[2]!.message)?.[1]);
    expect(k).toBeGreaterThanOrEqual(10); // reachK(placement, 10): the group of m00500, far below the whole collection
    expect(k).toBeLessThan(30);
    expect(v.notes).toEqual([]);
  });

  test('a check’s own mistakes are INVALID_INPUT: nothing to delete, a repeated id, an id both deleted and kept', async () => {
    const c = await collectionWith([...A, ...B]);
    await expect(deleteVerified(cellFor(), c, { ...halfOfA, deleted: [] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(deleteVerified(cellFor(), c, { ...halfOfA, deleted: [A[0]!, A[0]!] })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('repeats') });
    await expect(deleteVerified(cellFor(), c, { ...halfOfA, kept: [A[0]!] })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('a1 is both deleted and kept') });
    expect(await c.count()).toBe(7); // nothing was deleted
  });
});
