import { Chroma } from '@langchain/community/vectorstores/chroma';
import { dropChromaClient } from '@memory-matrix/adapter-chroma';
import { hasCode, type MemoryRecord } from '@memory-matrix/spec';
import { startTestServer, type TestServer } from '../../adapter-chroma/test/helpers/server';
import { chromadbClient, connectLangchainChroma, lcName, PRECOMPUTED_ONLY, type ChromadbMajor, type LangchainChromaStore } from '../src';

/**
 * LangChain.js `Chroma` on a real Chroma 1.0.0 (the Rust server of chromadb-js-bindings 1.0.1, the
 * raw chroma adapter's test server), through both chromadb majors the driver offers. Each finding
 * the README lists is pinned here at the client's level; the conformance suite (spec.test.ts) shows
 * the same findings as check verdicts.
 */
let server: TestServer;
let url: string;
const stores: LangchainChromaStore[] = [];
const open = async (chromadb: ChromadbMajor = '3', clientName?: string) => {
  const s = await connectLangchainChroma({ url, chromadb, ...(clientName ? { connect: { clientName } } : {}) });
  stores.push(s);
  return s;
};
let seq = 0;
const spec = (metric: 'cosine' | 'ip' | 'l2' = 'cosine', dim = 3) => ({ name: `t${process.pid}_${seq++}`, dim, metric, index: { type: 'hnsw' as const, m: 16, efConstruction: 100, efSearch: 200 } });
const rec = (id: string, e: number[], metadata: MemoryRecord['metadata'] = { a: 1 }): MemoryRecord => ({
  id,
  namespace: 'n',
  kind: 'fact',
  text: `t ${id}`,
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata,
  embedding: Float32Array.from(e),
});

beforeAll(async () => {
  server = await startTestServer();
  url = `http://127.0.0.1:${server.port}`;
}, 60_000);
afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.close()));
  await server?.stop();
});

describe.each(['3', '1'] as const)('chromadb %s.x under LangChain', (major) => {
  test('the metric goes in collectionMetadata hnsw:space and reads back from the server; reopen reads it, never a default', async () => {
    const s = await open(major);
    const c = await s.createCollection(spec('ip'));
    const again = await (await open(major)).openCollection(c.spec.name);
    expect(again.spec.metric).toBe('ip');
    const inEffect = await again.indexInEffect({ vector: Float32Array.from([1, 0, 0]), k: 1 });
    expect(inEffect).toMatchObject({ type: 'hnsw', metric: 'ip', params: { m: 16, efConstruction: 100, efSearch: 200 } });
  });

  test('recall: the client returns the distance unchanged; the driver converts it (cosine 1 − d)', async () => {
    const c = await (await open(major)).createCollection(spec());
    await c.upsert([rec('a', [1, 0, 0]), rec('b', [0, 1, 0])]);
    const hits = await c.recall({ vector: Float32Array.from([1, 0.1, 0]), k: 2 });
    expect(hits.map((h) => h.id)).toEqual(['a', 'b']);
    expect(hits[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 6);
    const [[, d]] = await c.store.similaritySearchVectorWithScore([1, 0.1, 0], 1);
    expect(d).toBeCloseTo(1 - 1 / Math.sqrt(1.01), 6);
  });

  test('finding (C21): re-adding an id keeps metadata keys the new version no longer has (addVectors is a Chroma upsert, which merges)', async () => {
    const c = await (await open(major)).createCollection(spec());
    await c.upsert([rec('a', [1, 0, 0], { keep: 'v1', stale: 'only in v1' })]);
    await c.upsert([rec('a', [1, 0, 0], { keep: 'v2' })]);
    expect((await c.get(['a']))[0]!.metadata).toEqual({ keep: 'v2', stale: 'only in v1' });
  });

  test('finding (C01 on other data): a null metadata value is dropped on the way in; the key is gone', async () => {
    const c = await (await open(major)).createCollection(spec());
    await c.upsert([rec('a', [1, 0, 0], { n: null, zero: 0, no: false, empty: '' })]);
    expect((await c.get(['a']))[0]!.metadata).toEqual({ zero: 0, no: false, empty: '' });
  });

  test('openCollection of a missing collection is COLLECTION_MISSING and creates nothing (LangChain alone would create it, squared L2)', async () => {
    const s = await open(major);
    await expect(s.openCollection('nope_never_made')).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
    const raw = chromadbClient(major, url, undefined);
    await expect(raw.getCollection({ name: lcName('nope_never_made') } as never)).rejects.toBeDefined();
  });

  test('a batch with one vector of another dimension is DIMENSION_MISMATCH and lands nothing', async () => {
    const c = await (await open(major)).createCollection(spec());
    const err = await c.upsert([rec('a', [1, 0, 0]), rec('b', [1, 0, 0, 0]), rec('c', [0, 1, 0])]).catch((e: unknown) => e);
    expect(hasCode(err, 'DIMENSION_MISMATCH')).toBe(true);
    expect(await c.count()).toBe(0);
  });
});

test('client-version finding (C12): a NaN vector is accepted through chromadb 3.x (base64 float32 on the wire) and refused with HTTP 422 through 1.x (JSON null)', async () => {
  const nan = () => rec('x', [Number.NaN, 0, 1]);
  const c3 = await (await open('3')).createCollection(spec());
  await expect(c3.upsert([nan()])).resolves.toBeUndefined();
  expect(await c3.count()).toBe(1);
  const c1 = await (await open('1')).createCollection(spec());
  await expect(c1.upsert([nan()])).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(/422/) });
  expect(await c1.count()).toBe(0);
});

test('LangChain alone: no collectionMetadata gives squared L2, and its typed collectionConfiguration argument is not used', async () => {
  const client = chromadbClient('3', url, undefined);
  for (const [label, args] of [
    ['default', {}],
    ['collectionConfiguration', { collectionConfiguration: { hnsw: { space: 'cosine' } } }],
  ] as const) {
    const name = `lc_plain_${label.toLowerCase()}_${process.pid}`;
    const vs = new Chroma(PRECOMPUTED_ONLY, { index: client, collectionName: name, ...args } as never);
    await vs.ensureCollection();
    const stored = (await client.getCollection({ name } as never)) as unknown as { configuration: { hnsw: { space: string } } };
    expect([label, stored.configuration.hnsw.space]).toEqual([label, 'l2']);
    await client.deleteCollection({ name });
  }
});

test('the fault controls find the client by name: a write in flight is cut and the call rejects naming the cut', async () => {
  const c = await (await open('3', 'lc-fault-test')).createCollection(spec('cosine', 64));
  const many = Array.from({ length: 3000 }, (_, i) =>
    rec(
      `m${i}`,
      Array.from({ length: 64 }, (_, j) => Math.sin(i + j) + 1.5),
    ),
  );
  const write = c.upsert(many).then(
    () => 'resolved',
    (e: unknown) => e,
  );
  let cut = 0;
  for (let i = 0; i < 2000 && cut === 0; i++) {
    cut = dropChromaClient({ host: '127.0.0.1', port: server.port }, 'lc-fault-test');
    if (!cut) await new Promise((r) => setTimeout(r, 1));
  }
  expect(cut).toBeGreaterThan(0);
  expect(await write).toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(/cut by memory-matrix/) });
}, 60_000);
