import { existsSync, readdirSync } from 'node:fs';
import type { MemoryRecord } from '@memory-matrix/spec';
import { createLancedbStore, lancedbEmbeddedEngine, type LancedbEngine } from '../src';

/** LanceDB-specific behaviour beyond the shared suite, on real LanceDB in temp dirs (removed after each test). */

const DIM = 4;
const rec = (id: string, embedding: number[], extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  namespace: 'ns',
  text: `text of ${id}`,
  kind: 'fact',
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: {},
  embedding: Float32Array.from(embedding),
  ...extra,
});

let engine: LancedbEngine;
beforeEach(async () => {
  engine = await lancedbEmbeddedEngine();
});
afterEach(async () => engine.stop());

test('serverInfo reports the pinned LanceDB packages', async () => {
  const store = await engine.connect();
  expect(await store.serverInfo()).toEqual({ server: 'LanceDB 0.37.1 (embedded)', components: { lancedb: '0.37.1', 'lancedb-native': '0.37.1', 'apache-arrow': '18.1.0' } });
});

test('hostile strings in ids, namespaces, metadata keys and values are matched literally, never as SQL', async () => {
  const store = await engine.connect();
  const c = await store.createCollection({ name: 'hostile', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  const evil = ["' OR '1'='1", "x'); DROP TABLE mm_hostile; --", 'back\\slash', 'quote"d', 'zero\u200bwidth', '記憶 👩‍👩‍👧', "''"];
  await c.upsert(evil.map((s, i) => rec(s, [1, i, 0, 0], { namespace: s, metadata: { [s]: s } })));
  await c.upsert([rec('plain', [0, 1, 0, 0], { namespace: 'other', metadata: { k: 'v' } })]);
  const q = Float32Array.from([1, 0, 0, 0]);
  for (const s of evil) {
    expect((await c.get([s])).map((r) => r.id)).toEqual([s]);
    expect(await c.count({ namespaces: [s] })).toBe(1);
    expect(await c.count({ metadata: { [s]: s } })).toBe(1);
    expect((await c.recall({ vector: q, k: 10, filter: { namespaces: [s] } })).map((h) => h.id)).toEqual([s]);
  }
  expect(await c.count()).toBe(evil.length + 1);
  expect(await c.delete(["' OR '1'='1", 'missing'])).toBe(1);
  expect(await c.count()).toBe(evil.length);
});

test('metadata filters compare JSON types: 0, false, "", null and a missing key are five different things', async () => {
  const store = await engine.connect();
  const c = await store.createCollection({ name: 'typed', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  const v = [1, 0, 0, 0];
  await c.upsert([
    rec('zero', v, { metadata: { a: 0 } }),
    rec('false', v, { metadata: { a: false } }),
    rec('empty', v, { metadata: { a: '' } }),
    rec('null', v, { metadata: { a: null } }),
    rec('none', v, { metadata: { b: 1.5 } }),
  ]);
  for (const [value, id] of [
    [0, 'zero'],
    [false, 'false'],
    ['', 'empty'],
    [null, 'null'],
  ] as const) {
    expect((await c.recall({ vector: Float32Array.from(v), k: 10, filter: { metadata: { a: value } } })).map((h) => h.id)).toEqual([id]);
    expect(await c.count({ metadata: { a: value } })).toBe(1);
  }
  expect(await c.count({ kinds: [] })).toBe(0);
  expect((await c.get(['zero']))[0]!.metadata).toEqual({ a: 0 });
});

test('l2 and ip scores: −√(squared L2) and 1 − dot distance', async () => {
  const store = await engine.connect();
  const l2 = await store.createCollection({ name: 'l2', dim: DIM, metric: 'l2', index: { type: 'none' } });
  await l2.upsert([rec('a', [1, 1, 0, 0]), rec('b', [0, 1, 0, 0])]);
  expect(await l2.recall({ vector: Float32Array.from([1, 2, 0, 0]), k: 2 })).toEqual([
    { id: 'a', score: -1 },
    { id: 'b', score: -Math.SQRT2 },
  ]);
  const ip = await store.createCollection({ name: 'ip', dim: DIM, metric: 'ip', index: { type: 'none' } });
  await ip.upsert([rec('a', [1, 1, 0, 0]), rec('b', [0, 1, 0, 0])]);
  expect(await ip.recall({ vector: Float32Array.from([1, 2, 0, 0]), k: 2 })).toEqual([
    { id: 'a', score: 3 },
    { id: 'b', score: 2 },
  ]);
});

test('a tie group wider than k + TIE_MARGIN is still cut by id (the fetch grows)', async () => {
  const store = await engine.connect();
  const c = await store.createCollection({ name: 'ties', dim: DIM, metric: 'l2', index: { type: 'none' } });
  const ids = Array.from({ length: 60 }, (_, i) => `t${String(59 - i).padStart(2, '0')}`);
  await c.upsert(ids.map((id) => rec(id, [1, 2, 3, 4])));
  await c.upsert([rec('a-far', [9, 9, 9, 9])]);
  const hits = await c.recall({ vector: Float32Array.from([1, 2, 3, 4]), k: 5 });
  expect(hits.map((h) => h.id)).toEqual(['t00', 't01', 't02', 't03', 't04']);
});

test('an acknowledged upsert and delete are seen at once by another connection (readConsistencyInterval 0)', async () => {
  const a = await (await engine.connect()).createCollection({ name: 'ryw', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  const b = await (await engine.connect()).openCollection('ryw');
  await b.count(); // b has read the table once: it must not keep answering from that version
  const r = rec('x', [0.5, -1, 2, 0], { text: 'a\u0001b 記憶', createdAt: '2024-05-01T09:30:00.450250Z', metadata: { z: -1.25e-300, s: 'x\u0001y' } });
  await a.upsert([r]);
  expect(await b.get(['x'])).toEqual([r]);
  expect(await b.count()).toBe(1);
  expect((await b.recall({ vector: r.embedding, k: 1 }))[0]!.id).toBe('x');
  await a.delete(['x']);
  expect(await b.count()).toBe(0);
  expect(await b.get(['x'])).toEqual([]);
});

test('a stale handle cannot write old-dim vectors into a table recreated with another dim (writes are typed by the collection)', async () => {
  const a = await engine.connect();
  const b = await engine.connect();
  const stale = await a.createCollection({ name: 'redim', dim: 4, metric: 'cosine', index: { type: 'none' } });
  await b.dropCollection('redim');
  const fresh = await b.createCollection({ name: 'redim', dim: 5, metric: 'cosine', index: { type: 'none' } });
  await fresh.upsert([rec('five', [1, 0, 0, 0, 1])]);
  await expect(stale.upsert([rec('four', [1, 0, 0, 0])])).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(/fixed_size_list:float:5/) });
  expect((await fresh.scan({ limit: 10 })).map((m) => [m.id, m.embedding.length])).toEqual([['five', 5]]);
});

test('hnsw builds IVF_HNSW_SQ and ivfflat IVF_FLAT; indexInEffect reads them back from LanceDB', async () => {
  const store = await engine.connect();
  const vecs = Array.from({ length: 64 }, (_, i) => [Math.cos(i), Math.sin(i), (i % 7) / 7, 1]);
  for (const [name, index, type] of [
    ['h', { type: 'hnsw', m: 8, efConstruction: 32, efSearch: 16 }, 'IVF_HNSW_SQ'],
    ['f', { type: 'ivfflat', lists: 2, probes: 2 }, 'IVF_FLAT'],
  ] as const) {
    const c = await store.createCollection({ name, dim: DIM, metric: 'cosine', index });
    await c.upsert(vecs.map((v, i) => rec(`m${i}`, v)));
    await c.buildIndex();
    const q = { vector: Float32Array.from(vecs[3]!), k: 5 };
    const got = await c.indexInEffect(q);
    expect(got).toMatchObject({ type: index.type, metric: 'cosine', extra: { lanceIndexType: type } });
    expect(await c.indexInEffect({ ...q, scan: 'exact' })).toMatchObject({ type: 'none' });
    expect((await c.recall(q)).length).toBe(5);
  }
});

test('a table without the memory-matrix marker is neither opened nor dropped; a store without dir removes its own on close', async () => {
  const store = await engine.connect();
  await store.ctx.db.createTable('mm_foreign', [{ id: 'x', v: 1 }]);
  await expect(store.openCollection('foreign')).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
  await store.dropCollection('foreign');
  expect(await store.ctx.db.tableNames()).toContain('mm_foreign');
  await expect(store.createCollection({ name: 'foreign', dim: DIM, metric: 'cosine', index: { type: 'none' } })).rejects.toMatchObject({ code: 'COLLECTION_EXISTS' });
  const own = await createLancedbStore();
  await own.createCollection({ name: 'x', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  expect(readdirSync(own.dir)).toEqual(['mm_x.lance']);
  await own.close();
  expect(existsSync(own.dir)).toBe(false);
});
