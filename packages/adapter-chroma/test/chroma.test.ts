import { hasCode, referenceScore, type Metric } from '@memory-matrix/spec';
import { createChromaStore, type ChromaStore } from '../src';
import { collName, rec, vec } from './helpers/data';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
let store: ChromaStore;
const spec = (label: string, metric: Metric = 'cosine', dim = 4) => ({ name: collName(label), dim, metric, index: { type: 'hnsw' as const, m: 16, efConstruction: 64, efSearch: 100 } });

beforeAll(async () => {
  server = await startTestServer();
  store = await createChromaStore({ port: server.port });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

test('server info and max batch come from the server', async () => {
  const info = await store.serverInfo();
  expect(info.components.chromaApi).toBe('1.0.0');
  expect(store.maxBatch).toBe(5461);
  expect(store.capabilities.maxBatch).toBe(5461);
});

test('round trip from a new client: CJK, emoji, falsy and null metadata, floats Chroma re-parses inexactly (−0 is refused by the contract, spec stored-values.ts)', async () => {
  const c = await store.createCollection(spec('rt'));
  const records = [
    rec('a', [1, 0, 0, 0], { pinned: 0, importance: false, tag: '', note: null, big: 1e20, f: 9134.887323404293, g: 0.09429347905442283 }, { text: '日本語のメモ 🎉 家族', namespace: '' }),
    rec('b', [0.1, 0.2, 0.3, 0.4], { tag: 'ok 👍', source: 'voice 🎙️' }, { text: '' }),
    rec('日本 🎉', [0.5, -0.25, 1e-30, 9e18], {}, { kind: 'summary', createdAt: '0001-01-01T00:00:00.000Z' }),
  ];
  await c.upsert(records);
  const reader = await createChromaStore({ port: server.port });
  const back = await (await reader.openCollection(c.spec.name)).get(['日本 🎉', 'missing', 'a', 'b', 'a']);
  expect(back.map((r) => r.id)).toEqual(['日本 🎉', 'a', 'b']); // order asked, each id once, missing left out (MemoryCollection.get)
  for (const r of back) {
    const w = records.find((x) => x.id === r.id)!;
    expect(r.text).toBe(w.text);
    expect(r.namespace).toBe(w.namespace);
    expect(r.kind).toBe(w.kind);
    expect(r.createdAt).toBe(w.createdAt);
    expect(Object.keys(r.metadata).sort()).toEqual(Object.keys(w.metadata).sort());
    for (const k of Object.keys(w.metadata)) expect(Object.is(r.metadata[k], w.metadata[k])).toBe(true);
    expect([r.id, Array.from(r.embedding)]).toEqual([r.id, Array.from(w.embedding)]);
  }
});

test('filters are exact: 0 ≠ false ≠ "" ≠ null, missing key never matches, empty lists match nothing', async () => {
  const c = await store.createCollection(spec('flt'));
  await c.upsert([
    rec('zero', [1, 0, 0, 0], { pinned: 0 }),
    rec('false', [0.9, 0.1, 0, 0], { pinned: false }),
    rec('empty', [0.8, 0.2, 0, 0], { pinned: '' }),
    rec('null', [0.7, 0.3, 0, 0], { pinned: null }),
    rec('none', [0.6, 0.4, 0, 0], {}, { namespace: 'u2', kind: 'episode' }),
  ]);
  const q = (filter: object) => c.recall({ vector: Float32Array.from([1, 0, 0, 0]), k: 10, filter }).then((h) => h.map((x) => x.id).sort());
  expect(await q({ metadata: { pinned: 0 } })).toEqual(['zero']);
  expect(await q({ metadata: { pinned: false } })).toEqual(['false']);
  expect(await q({ metadata: { pinned: '' } })).toEqual(['empty']);
  expect(await q({ metadata: { pinned: null } })).toEqual(['null']);
  expect(await q({ metadata: { importance: false } })).toEqual([]);
  expect(await q({ namespaces: ['u2'], kinds: ['episode'] })).toEqual(['none']);
  expect(await q({ namespaces: [] })).toEqual([]);
  expect(await c.count({ metadata: { pinned: 0 } })).toBe(1);
  expect(await c.count({ kinds: [] })).toBe(0);
  expect(await c.count()).toBe(5);
});

test.each(['cosine', 'ip', 'l2'] as const)('metric %s: set explicitly, read back by a new client, canonical scores match the float64 reference', async (metric) => {
  const c = await store.createCollection(spec(`m_${metric}`, metric));
  const vs = { same: [1, 0, 0, 0], scaled: [3, 0, 0, 0], diag: [Math.SQRT1_2, Math.SQRT1_2, 0, 0], ortho: [0, 1, 0, 0], opposite: [-1, 0, 0, 0] };
  await c.upsert(Object.entries(vs).map(([id, v]) => rec(id, v)));
  const reopened = await (await createChromaStore({ port: server.port })).openCollection(c.spec.name);
  expect(reopened.spec.metric).toBe(metric);
  expect(reopened.spec.index).toEqual(c.spec.index);
  const q = Float32Array.from([1, 0, 0, 0]);
  const hits = await reopened.recall({ vector: q, k: 5 });
  expect(hits).toHaveLength(5);
  for (const h of hits) expect(Math.abs(h.score - referenceScore(metric, q, Float32Array.from(vs[h.id as keyof typeof vs])))).toBeLessThan(1e-6);
  for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
});

test('equal scores come in id order, minScore is a post-filter on the canonical score, exact scan is refused', async () => {
  const c = await store.createCollection(spec('ties'));
  const ids = ['t9', 't1', 't5', 't3', 't7'];
  await c.upsert([...ids.map((id) => rec(id, [1, 1, 0, 0])), rec('far', [0, 0, 1, 0])]);
  const hits = await c.recall({ vector: Float32Array.from([1, 1, 0, 0]), k: 3 });
  expect(hits.map((h) => h.id)).toEqual(['t1', 't3', 't5']);
  const above = await c.recall({ vector: Float32Array.from([1, 1, 0, 0]), k: 10, minScore: 0.5 });
  expect(above.map((h) => h.id)).toEqual(['t1', 't3', 't5', 't7', 't9']);
  const err = await c.recall({ vector: Float32Array.from([1, 1, 0, 0]), k: 3, scan: 'exact' }).catch((e) => e);
  expect(hasCode(err, 'CAPABILITY_MISSING')).toBe(true);
});

test('upsert replaces the whole memory (Chroma alone would merge metadata), last record of a call wins; delete counts what existed', async () => {
  const c = await store.createCollection(spec('ups'));
  await c.upsert([rec('a', [1, 0, 0, 0], { k: 1, onlyOld: 'x' })]);
  await c.upsert([rec('a', [0, 1, 0, 0], { k: 'one' }, { text: 'first' }), rec('a', [0, 1, 0, 0], { k: 'two' }, { text: 'newest' })]);
  const [a] = await c.get(['a']);
  expect(a.metadata).toEqual({ k: 'two' });
  expect(a.text).toBe('newest');
  expect(await c.count()).toBe(1);
  expect(await c.delete(['a', 'a', 'nope'])).toBe(1);
  expect(await c.count()).toBe(0);
});

test('guards: wrong dimension writes nothing, COLLECTION_EXISTS / _MISSING, drop leaves foreign collections alone, errors after close', async () => {
  const c = await store.createCollection(spec('grd'));
  await c.upsert([rec('a', [1, 0, 0, 0])]);
  const bad = await c.upsert([rec('b', [1, 0, 0, 0]), rec('c', [1, 0, 0])]).catch((e) => e);
  expect(hasCode(bad, 'DIMENSION_MISMATCH')).toBe(true);
  expect(await c.count()).toBe(1);
  expect(hasCode(await c.recall({ vector: Float32Array.from([1, 0, 0]), k: 1 }).catch((e) => e), 'DIMENSION_MISMATCH')).toBe(true);
  // Σx² above float32 max / 4 would overflow Chroma's float32 arithmetic (stored as NaNs under cosine).
  expect(hasCode(await c.upsert([rec('big', [1e20, 0, 0, 0])]).catch((e) => e), 'INVALID_VECTOR')).toBe(true);
  expect(await c.count()).toBe(1);
  expect(hasCode(await store.createCollection(c.spec).catch((e) => e), 'COLLECTION_EXISTS')).toBe(true);
  expect(hasCode(await store.openCollection('no_such_coll').catch((e) => e), 'COLLECTION_MISSING')).toBe(true);
  await store.dropCollection('no_such_coll');
  const other = await createChromaStore({ port: server.port });
  await other.dropCollection(c.spec.name);
  expect(hasCode(await store.openCollection(c.spec.name).catch((e) => e), 'COLLECTION_MISSING')).toBe(true);
  await other.close();
  expect(hasCode(await other.serverInfo().catch((e) => e), 'BACKEND_ERROR')).toBe(true);
});

test('a server that is gone gives BACKEND_ERROR with the client error as cause', async () => {
  const err = await createChromaStore({ port: 1 }).catch((e) => e);
  expect(hasCode(err, 'BACKEND_ERROR')).toBe(true);
  expect(err.message).toMatch(/127\.0\.0\.1:1/);
  expect(err.cause).toBeDefined();
});

test('scores of a 64-d collection agree with the float64 reference within 1e-6', async () => {
  const c = await store.createCollection(spec('ref', 'cosine', 64));
  const records = Array.from({ length: 200 }, (_, i) => rec(`r${String(i).padStart(3, '0')}`, Array.from(vec(i + 1, 64))));
  await c.upsert(records);
  let max = 0;
  for (let s = 0; s < 10; s++) {
    const q = vec(1000 + s, 64);
    for (const h of await c.recall({ vector: q, k: 10 })) max = Math.max(max, Math.abs(h.score - referenceScore('cosine', q, records.find((r) => r.id === h.id)!.embedding)));
  }
  expect(max).toBeLessThan(1e-6);
});

/**
 * What Chroma itself does with the same data through its own client — the reasons for the record
 * layout in codec.ts. If a Chroma release changes one of these, this test says which.
 */
test('Chroma on its own: null metadata dropped, floats re-parsed inexactly, cosine embeddings not bit-exact, upsert merges metadata, 0 ≠ false in where', async () => {
  const { ChromaClient } = await import('chromadb');
  const client = new ChromaClient({ host: '127.0.0.1', port: server.port });
  const col = await client.createCollection({ name: collName('raw'), embeddingFunction: null, configuration: { hnsw: { space: 'cosine' } } });
  const v = Array.from(Float32Array.from([0.5, 1e-8, 3, 1e9]));
  await col.add({ ids: ['a', 'b'], embeddings: [v, [1, 0, 0, 0]], metadatas: [{ k: null, f: 9134.887323404293, old: 'x' }, { p: false }] });
  const g = await col.get({ ids: ['a'], include: ['metadatas', 'embeddings'] as never });
  expect(g.metadatas[0]).toEqual({ f: 9134.887323404291, old: 'x' }); // null gone, float 1 ulp off
  expect(g.embeddings[0]).not.toEqual(v); // 3 → 2.9999998
  await col.upsert({ ids: ['a'], embeddings: [v], metadatas: [{ n: 1 }] });
  expect((await col.get({ ids: ['a'], include: ['metadatas'] as never })).metadatas[0]).toMatchObject({ n: 1, old: 'x' }); // merged
  expect((await col.get({ where: { p: 0 } })).ids).toEqual([]);
  expect((await col.get({ where: { p: false } })).ids).toEqual(['b']);
  await client.deleteCollection({ name: col.name });
});
