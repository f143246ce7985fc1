/**
 * The write-error selftest mutants (src/selftest/mutants/write-errors.ts) on contract-level stores:
 * which errors each swallows or turns into a lost write, and that every other error still throws.
 * No backend server.
 */
import { MemoryMatrixError, type MemoryCollection, type MemoryStore } from '@memory-matrix/spec';
import { faultStore } from '../src/selftest/mutants';
import { byName, rec, RECORDS, setup, v } from './fixtures/mutant-helpers';
import { driver, TOY_CAPABILITIES } from './fixtures/toy-driver';

describe('write-error mutants', () => {
  test('write-error-swallowed: a backend error resolves (delete → 0); validation errors still throw', async () => {
    const { faulty } = await setup(byName('write-error-swallowed'));
    await expect(faulty.upsert([rec('bad', 'ns', v(1, 2, 3))])).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
    // The toy store never fails at its "backend": a collection whose writes fail with BACKEND_ERROR stands in for one that does.
    const broken = faultStore(
      {
        adapter: 'broken',
        createCollection: async () =>
          ({
            upsert: async () => {
              throw new MemoryMatrixError('BACKEND_ERROR', 'server refused');
            },
            delete: async () => {
              throw new MemoryMatrixError('BACKEND_ERROR', 'server refused');
            },
          }) as unknown as MemoryCollection,
      } as unknown as MemoryStore,
      byName('write-error-swallowed').fault(TOY_CAPABILITIES),
    );
    const c = await broken.createCollection({ name: 'x', dim: 2, metric: 'cosine', index: { type: 'none' } });
    await expect(c.upsert(RECORDS)).resolves.toBeUndefined();
    await expect(c.delete(['a'])).resolves.toBe(0);
  });

  test("failed-batch-rolls-back-others: a failed upsert deletes another handle's last acknowledged batch, never its own; success changes nothing", async () => {
    const mutant = byName('failed-batch-rolls-back-others');
    const engine = await driver.embedded!.engines['toy-1']!.open({ where: 'toy@1' });
    const store = faultStore(await engine.connect(), mutant.fault(TOY_CAPABILITIES));
    const a = await store.createCollection({ name: 'c', dim: 2, metric: 'cosine', index: { type: 'none' } });
    const b = await store.openCollection('c');
    await a.upsert(RECORDS.slice(0, 2));
    await b.upsert(RECORDS.slice(2, 3));
    expect(await a.count()).toBe(3);
    await expect(b.upsert([rec('bad', 'ns', v(1, 2, 3))])).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
    expect(await a.count()).toBe(3); // b wrote the last batch itself: nothing of another handle's to take
    await expect(a.upsert([rec('bad', 'ns', v(1, 2, 3))])).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
    expect((await a.get(RECORDS.map((r) => r.id))).map((r) => r.id)).toEqual(['a', 'b']); // b's acknowledged 'c' is gone
  });

  test('lock-wait-dropped: a write that gave up on a lock (SQLITE_BUSY, 55P03, "database is locked") resolves; every other error still throws', async () => {
    const busy = (code: string, message = 'upsert failed') => new MemoryMatrixError('BACKEND_ERROR', message, { cause: Object.assign(new Error('x'), { code }) });
    let next: Error = busy('SQLITE_BUSY');
    const fail = async () => {
      throw next;
    };
    const locked = faultStore(
      { adapter: 'locked', createCollection: async () => ({ upsert: fail, delete: fail }) as unknown as MemoryCollection } as unknown as MemoryStore,
      byName('lock-wait-dropped').fault(TOY_CAPABILITIES),
    );
    const c = await locked.createCollection({ name: 'x', dim: 2, metric: 'cosine', index: { type: 'none' } });
    await expect(c.upsert(RECORDS)).resolves.toBeUndefined();
    await expect(c.delete(['a', 'b'])).resolves.toBe(2); // the count the real delete would report
    next = busy('55P03');
    await expect(c.upsert(RECORDS)).resolves.toBeUndefined();
    next = new MemoryMatrixError('BACKEND_ERROR', 'SqliteError: database is locked');
    await expect(c.upsert(RECORDS)).resolves.toBeUndefined();
    next = busy('SQLITE_CONSTRAINT', 'constraint failed');
    await expect(c.upsert(RECORDS)).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: 'constraint failed' });
    next = new MemoryMatrixError('DIMENSION_MISMATCH', 'dim 3, expected 2');
    await expect(c.upsert(RECORDS)).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
  });
});
