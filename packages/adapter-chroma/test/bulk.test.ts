import { createChromaStore, type ChromaStore } from '../src';
import { collName, rec, vec } from './helpers/data';
import { startTestServer, type TestServer } from './helpers/server';

/**
 * C14 at the adapter: one upsert of more records than the server's max batch size lands every
 * record (the adapter chunks by the size the server reports: 5,461 on Chroma 1.0.0).
 */
let server: TestServer;
let store: ChromaStore;
beforeAll(async () => {
  server = await startTestServer();
  store = await createChromaStore({ port: server.port });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

test('an upsert of max batch + 539 records lands completely, in ⌈n / max⌉ requests', async () => {
  const max = store.maxBatch;
  expect(max).toBe(5461);
  const n = max + 539;
  const c = await store.createCollection({ name: collName('bulk'), dim: 16, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 } });
  const records = Array.from({ length: n }, (_, i) => rec(`b${String(i).padStart(5, '0')}`, Array.from(vec(i + 1, 16)), { i }));
  const t0 = Date.now();
  await c.upsert(records);
  const ms = Date.now() - t0;
  expect(await c.count()).toBe(n);
  const probe = [0, max - 1, max, n - 1].map((i) => records[i].id);
  expect((await c.get(probe)).map((r) => r.id)).toEqual(probe);
  expect(await c.count({ metadata: { i: n - 1 } })).toBe(1);
  console.log(`chroma bulk: ${n} records (max batch ${max}) written in ${ms} ms and counted`);
}, 300_000);
