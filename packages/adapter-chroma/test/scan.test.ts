import { scanConformance, type MemoryRecord } from '@memory-matrix/spec';
import { createChromaStore, type ChromaStore } from '../src';
import { collName, rec, vec } from './helpers/data';
import { startTestServer, type TestServer } from './helpers/server';

/**
 * `scan` on a real Chroma 1.0.0 server (the adapter's test server): paging complete in UTF-8 byte
 * order, no duplicates, values exact (embedding from `mm.vec`, float32 as written, not Chroma's
 * renormalised cosine copy), also when the id listing itself takes more than one Chroma page
 * (5,600 records > max batch 5,461).
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

const spec = (label: string, dim: number) => ({ name: collName(label), dim, metric: 'cosine' as const, index: { type: 'hnsw' as const, m: 16, efConstruction: 64, efSearch: 100 } });

test('pages complete, byte order, no duplicates, values exact', async () => {
  const data: MemoryRecord[] = [
    ...Array.from({ length: 150 }, (_, i) =>
      rec(
        `mem-${String(i).padStart(5, '0')}`,
        [...vec(i + 1, 6)],
        { i, zero: 0, no: false, empty: '', nil: null, f: i / 7 },
        { text: i % 4 ? `memory ${i}` : `记忆 ${i} 🧠`, createdAt: i % 2 ? '2024-05-01T09:30:00.123Z' : '2024-05-01T09:30:00.123456Z' },
      ),
    ),
    rec('z\u{1F600}', [3, 1e-30, 0.5, -0, 1, 2], {}, { text: '' }),
    rec('z\uFF5E', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
  ];
  const coll = await store.createCollection(spec('scan', 6));
  await coll.upsert(data);
  expect(await scanConformance(coll, data)).toEqual([]);
  expect((await coll.scan!({ after: 'mem-00149', limit: 5 })).map((r) => r.id)).toEqual(['z\uFF5E', 'z\u{1F600}']);
}, 120_000);

test('the id listing spans several Chroma pages (5,600 > max batch)', async () => {
  expect(store.maxBatch).toBeLessThan(5600);
  const data = Array.from({ length: 5600 }, (_, i) => rec(`r${String(5599 - i).padStart(5, '0')}`, [1 + (i % 7), i % 3, 1, (i % 11) / 10]));
  const coll = await store.createCollection(spec('scan_big', 4));
  await coll.upsert(data);
  expect(await scanConformance(coll, data, [2000, 10_000])).toEqual([]);
}, 180_000);
