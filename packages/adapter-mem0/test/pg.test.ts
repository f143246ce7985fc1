/**
 * The mem0 driver over mem0ai 3.3.1's `Memory` on its pgvector store (provider `pgvector`), the
 * server a real PostgreSQL 18.6 + pgvector 0.8.7 (PGlite 0.5 on a loopback port): the client facet,
 * the contract (write, read back, recall, filters, delete, reopen, drop) and what mem0's pgvector
 * store does that the README measures ("Over pgvector").
 */
import { referenceScore, type MemoryRecord, type MemoryStore } from '@memory-matrix/spec';
import { compileMem0PgFilter, connectMem0Pg, MEM0_PG_CAPABILITIES, mem0Driver } from '../src';
import { servedPGlite, serverProblem } from './helpers/server';

const rec = (id: string, e: number[], extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  namespace: 'ns-a',
  kind: 'fact',
  text: `text of ${id}`,
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { n: 1 },
  embedding: Float32Array.from(e),
  ...extra,
});
const code = async (p: Promise<unknown>): Promise<string | null> =>
  p.then(
    () => null,
    (e: { code?: string }) => e.code ?? 'no code',
  );

test('the client facet: pgvector servers, mem0ai and pg as pinned, the pushed-down operators', () => {
  expect(mem0Driver.client!.servers).toEqual(['pgvector']);
  expect(mem0Driver.client!.preflight('t')).toEqual({ mem0ai: '3.3.1', pg: '8.23.1' });
  expect(MEM0_PG_CAPABILITIES).toMatchObject({ metrics: ['cosine'], upsert: false, exactScan: true, annIndexes: [] });
  expect(MEM0_PG_CAPABILITIES.filterOperators).toEqual(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$and', '$or', '$not']);
});

test('compiles $and as $or/$not nesting (the store has no $and and an object holds a key once), $exists as "*"', () => {
  const where = {
    op: '$and',
    args: [
      { op: '$gte', field: { root: 'metadata', path: ['y'] }, value: 1 },
      { op: '$lt', field: { root: 'metadata', path: ['y'] }, value: 5 },
      { op: '$exists', field: { root: 'metadata', path: ['t'] }, exists: false },
    ],
  } as const;
  expect(compileMem0PgFilter({ where: where as never }, 't')).toEqual({
    agent_id: 'memory-matrix',
    $or: [{ $or: [{ y: { gte: 1 } }], $not: [{ $not: [{ $or: [{ y: { lt: 5 } }], $not: [{ $not: [{ $not: [{ t: '*' }] }] }] }] }] }],
  });
  expect(() => compileMem0PgFilter({ where: { op: '$contains', field: { root: 'metadata', path: ['t'] }, value: 'x' } as never }, 't')).toThrow(/CAPABILITY_MISSING|contains/);
});

if (serverProblem('mem0 over pgvector') === null) {
  describe('mem0 Memory over pgvector on pglite-0.5', () => {
    let server: Awaited<ReturnType<typeof servedPGlite>>;
    let store: MemoryStore;
    beforeAll(async () => {
      server = await servedPGlite();
      store = await connectMem0Pg(server.address);
    }, 120_000);
    afterAll(async () => {
      await store?.close();
      await server?.close();
    });

    test('write, read back exactly, recall with cosine scores, filters, delete; a new store reopens; drop', async () => {
      const col = await store.createCollection({ name: 'rw', dim: 3, metric: 'cosine', index: { type: 'none' } });
      const vs = { a: [1, 0, 0], b: [0.6, 0.8, 0], c: [-0.2, 2, 0.5] };
      await col.upsert([
        rec('a', vs.a, { metadata: { tag: '家族', z: false, e: '', nil: null, n: 0 } }),
        rec('b', vs.b, { namespace: 'ns-b', kind: 'episode', metadata: { n: '0' } }),
        rec('c', vs.c, { text: 'ü 🎙 the the', createdAt: '2024-05-01T09:30:00.123456Z' }),
      ]);
      const [a, c] = await col.get(['a', 'x', 'c', 'a']);
      expect(a).toEqual(rec('a', vs.a, { metadata: { tag: '家族', z: false, e: '', nil: null, n: 0 } }));
      expect(c).toEqual(rec('c', vs.c, { text: 'ü 🎙 the the', createdAt: '2024-05-01T09:30:00.123456Z' }));
      const q = Float32Array.from([0.9, 0.3, -0.2]);
      const hits = await col.recall({ vector: q, k: 3 });
      expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c']);
      for (const h of hits) expect(Math.abs(h.score - referenceScore('cosine', Float32Array.from(vs[h.id as keyof typeof vs]), q))).toBeLessThan(1e-6);
      expect((await col.recall({ vector: q, k: 5, filter: { namespaces: ['ns-b'] } })).map((h) => h.id)).toEqual(['b']);
      // mem0's pgvector filter compares text: the number 0 and the string "0" are equal (README "Over pgvector").
      expect((await col.recall({ vector: q, k: 5, filter: { metadata: { n: 0 } } })).map((h) => h.id)).toEqual(['a', 'b']);
      expect(await col.count({ metadata: { n: 1 } })).toBe(1);
      expect(await col.count()).toBe(3);
      expect((await col.recall({ vector: q, k: 5, minScore: 0.5 })).map((h) => h.id)).toEqual(['a', 'b']);
      const other = await connectMem0Pg(server.address);
      const reopened = await other.openCollection('rw');
      expect(reopened.spec).toMatchObject({ dim: 3, metric: 'cosine' });
      expect(await reopened.delete(['a', 'a', 'nope'])).toBe(1);
      expect(await col.count()).toBe(2);
      await other.close();
      await store.dropCollection('rw');
      expect(await code(store.openCollection('rw'))).toBe('COLLECTION_MISSING');
    }, 120_000);

    test('mem0 clamps the score to 0..1: the opposite vector comes back with 0, not -1; a zero vector with NaN', async () => {
      const col = await store.createCollection({ name: 'clamp', dim: 3, metric: 'cosine', index: { type: 'none' } });
      await col.upsert([rec('same', [1, 0, 0]), rec('opposite', [-1, 0, 0]), rec('zero', [0, 0, 0])]);
      const hits = await col.recall({ vector: Float32Array.from([1, 0, 0]), k: 3 });
      expect(hits.map((h) => h.id)).toEqual(['same', 'opposite', 'zero']);
      expect(hits[0]!.score).toBeCloseTo(1, 6);
      expect(hits[1]!.score).toBe(0); // canonical cosine: -1
      expect(hits[2]!.score).toBeNaN();
      await store.dropCollection('clamp');
    }, 120_000);

    test('refusals: a stored id again, a wrong dimension (pgvector words it), ip, an index', async () => {
      const col = await store.createCollection({ name: 'no', dim: 3, metric: 'cosine', index: { type: 'none' } });
      await col.upsert([rec('a', [1, 0, 0])]);
      expect(await code(col.upsert([rec('a', [0, 1, 0])]))).toBe('CAPABILITY_MISSING');
      expect(await code(col.upsert([rec('w', [1, 0])]))).toBe('DIMENSION_MISMATCH');
      expect(await code(store.createCollection({ name: 'ip', dim: 3, metric: 'ip', index: { type: 'none' } }))).toBe('CAPABILITY_MISSING');
      expect(await code(store.createCollection({ name: 'ix', dim: 3, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 } }))).toBe('CAPABILITY_MISSING');
      expect(await code(store.createCollection({ name: 'no', dim: 3, metric: 'cosine', index: { type: 'none' } }))).toBe('COLLECTION_EXISTS');
      await store.dropCollection('no');
    }, 120_000);
  });
}
