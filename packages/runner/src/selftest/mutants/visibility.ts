import type { MemoryCollection, MemoryRecord } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/**
 * Acknowledged writes that the next read does not see. Public bug kind: "an inserted vector is not
 * searchable until flush + load" (Milvus: an insert acknowledged into a growing segment that a
 * query does not read until it is flushed and loaded), "documents not visible until the index
 * refreshes" (a refresh interval), or an adapter that buffers writes and sends them later — tests
 * that sleep between the write and the read hide it. Here: `upsert` resolves at once and keeps the
 * records in a buffer of that collection handle; the buffer is written BEFORE the next write
 * (`upsert`, `delete`, `buildIndex`: writes stay in order) and AFTER the next read (`get`, `count`,
 * `recall`, `scan`, `indexInEffect`): that read still answers without them, the one after sees them.
 */
export const writesVisibleLate: Mutant = {
  name: 'writes-visible-late',
  family: 'visibility',
  bug: 'an acknowledged upsert is not visible to the very next read (buffered until a later call, as with flush / refresh intervals)',
  requires: needsCaps('vectors'),
  fault: () => ({
    collection: (inner) => {
      let pending: MemoryRecord[] = [];
      const flush = async () => {
        if (!pending.length) return;
        const batch = pending;
        pending = [];
        await inner.upsert(batch);
      };
      const writeAfter =
        <A extends unknown[], R>(op: (...a: A) => Promise<R>) =>
        async (...a: A): Promise<R> => {
          await flush();
          return op(...a);
        };
      const readBefore =
        <A extends unknown[], R>(op: (...a: A) => Promise<R>) =>
        async (...a: A): Promise<R> => {
          const r = await op(...a);
          await flush();
          return r;
        };
      const over: Partial<MemoryCollection> = {
        upsert: async (records) => {
          await flush();
          pending = [...records];
        },
        delete: writeAfter((ids: string[]) => inner.delete(ids)),
        buildIndex: writeAfter(() => inner.buildIndex()),
        get: readBefore((ids: string[]) => inner.get(ids)),
        count: readBefore((filter?: Parameters<MemoryCollection['count']>[0]) => inner.count(filter)),
        recall: readBefore((q: Parameters<MemoryCollection['recall']>[0]) => inner.recall(q)),
      };
      if (inner.scan) over.scan = readBefore((o: Parameters<NonNullable<MemoryCollection['scan']>>[0]) => inner.scan!(o));
      if (inner.indexInEffect) over.indexInEffect = readBefore((q: Parameters<NonNullable<MemoryCollection['indexInEffect']>>[0]) => inner.indexInEffect!(q));
      return over;
    },
  }),
};

export const VISIBILITY_MUTANTS: readonly Mutant[] = [writesVisibleLate];
