import { spawnSync } from 'node:child_process';
import type { MemoryRecord, MemoryStore } from '@memory-matrix/spec';
import { hasC0Control, milvusContainerKind, type MilvusMemoryCollection } from '../src';
import { gateSuite, startMilvus, stopMilvus, type TestMilvus } from './helpers/server';

/**
 * Backend-specific cases on a real kylin-ai-vector-engine 1.2 (milvus@lite-1.2 image): hostile
 * values through the expression escaping, read-your-writes across clients without sleeps, the
 * server's quirks the adapter works around, the concurrent-upsert defect, and a crash reported as
 * TARGET_CRASHED. Needs Docker and the image: skipped with the reason in the title, a failure under CI=true.
 */
const { image, gate, suite, title } = gateSuite('milvus adapter tests');

const DIM = 8;
const vec = (seed: number) => Float32Array.from({ length: DIM }, (_, i) => Math.fround(Math.sin(seed * 12.9898 + i * 78.233) * 0.5 + (i === 0 ? 1 : 0)));
const rec = (id: string, i: number, over: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  namespace: `ns_${i % 3}`,
  kind: 'fact',
  text: `memory ${i}`,
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { i },
  embedding: vec(i + 1),
  ...over,
});
const HNSW = { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 } as const;
const probe = (ep: TestMilvus['ep']) => milvusContainerKind.probe(ep, 5_000);

suite(title('milvus@lite-1.2 adapter'), () => {
  let server: TestMilvus | undefined;
  const stores: MemoryStore[] = [];
  const connect = async () => {
    const s = await milvusContainerKind.connect(server!.ep, undefined, undefined);
    stores.push(s);
    return s;
  };
  beforeAll(async () => {
    server = await startMilvus(image, `test-milvus-${process.pid}`, probe);
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(stores.map((s) => s.close()));
    stopMilvus(server?.id);
  });

  test('hostile strings in ids, namespaces, metadata keys and values: stored and found by exactly their own filter', async () => {
    // Control characters and NUL in ids, namespaces and keys are refused by the contract (spec stored-values.ts; test below).
    const hostile = ['" || id != "', 'q"uote', 'back\\slash', '\\"', 'x\\', "sing'le", 'zero\u200bwidth', '记忆 😀', ']) or (1 == 1', 'metadata["i"] == 0'];
    const store = await connect();
    const coll = (await store.createCollection({ name: 'hostile', dim: DIM, metric: 'cosine', index: HNSW })) as MilvusMemoryCollection;
    // Ids with `"` are excluded here: the server's upsert and delete fail on them (next test).
    const idOf = (h: string) => (h.includes('"') ? `id-${Buffer.from(h).toString('hex')}` : h);
    const records = hostile.map((h, i) => rec(idOf(h), i, { namespace: h, metadata: { [h]: h, i, zero: 0, no: false, empty: '', nil: null, tab: 'tab\tx' } }));
    await coll.upsert(records);
    expect(await coll.count()).toBe(hostile.length);
    for (const [i, h] of hostile.entries()) {
      const got = await coll.get([idOf(h)]);
      expect(got.map((r) => r.id)).toEqual([idOf(h)]);
      expect(got[0]!.metadata).toEqual(records[i]!.metadata);
      expect(await coll.count({ namespaces: [h] })).toBe(1);
      if (hasC0Control(h)) await expect(coll.count({ metadata: { [h]: h } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      else expect([h, await coll.count({ metadata: { [h]: h } })]).toEqual([h, 1]);
      const hits = await coll.recall({ vector: records[i]!.embedding, k: 3, filter: { namespaces: [h] } });
      expect(hits.map((x) => x.id)).toEqual([idOf(h)]);
    }
    // typed equality: 0, false, "" and null are four different values
    expect(await coll.count({ metadata: { tab: 'tab\tx' } })).toBe(hostile.length); // a tab in a VALUE compares fine
    expect(await coll.count({ metadata: { zero: 0 } })).toBe(hostile.length);
    expect(await coll.count({ metadata: { zero: false } })).toBe(0);
    expect(await coll.count({ metadata: { no: false } })).toBe(hostile.length);
    expect(await coll.count({ metadata: { empty: '' } })).toBe(hostile.length);
    expect(await coll.count({ metadata: { nil: null } })).toBe(hostile.length);
    expect(await coll.count({ metadata: { zero: null } })).toBe(0);
    expect(await coll.delete(['back\\slash', 'never-written'])).toBe(1);
    expect(await coll.count()).toBe(hostile.length - 1);
    await store.dropCollection('hostile');
  }, 120_000);

  test('server defect: an id with `"` is stored by insert and found by query, but upsert and delete of it fail with "internal error"', async () => {
    const store = await connect();
    const coll = await store.createCollection({ name: 'quoteid', dim: DIM, metric: 'cosine', index: HNSW });
    for (const id of ['q"uote']) {
      await expect(coll.upsert([rec(id, 1)])).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringContaining('internal error (code 5') });
    }
    expect(await coll.count()).toBe(0); // the failed request wrote nothing
    await store.dropCollection('quoteid');
  }, 60_000);

  test('LF/CR cannot be in a Milvus expression literal: such ids and namespaces are refused before anything is written', async () => {
    const store = await connect();
    const coll = await store.createCollection({ name: 'newline', dim: DIM, metric: 'cosine', index: HNSW });
    await expect(coll.upsert([rec('ok', 1), rec('a\nb', 2)])).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('U+000A') });
    await expect(coll.upsert([rec('ok', 1, { namespace: 'x\ry' })])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(coll.count({ metadata: { k: 'a\nb' } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await coll.count()).toBe(0);
    expect(await coll.get(['a\nb'])).toEqual([]);
    await store.dropCollection('newline');
  }, 60_000);

  test('read-your-writes: an acknowledged upsert and delete are seen at once by the same and a new client (no sleep)', async () => {
    const a = await connect();
    const ca = await a.createCollection({ name: 'ryw', dim: DIM, metric: 'l2', index: HNSW });
    for (let round = 0; round < 5; round++) {
      const r = rec(`m${round}`, round, { text: `rev ${round}` });
      await ca.upsert([r]);
      const b = await connect();
      const cb = await b.openCollection('ryw');
      for (const c of [ca, cb]) {
        expect((await c.get([r.id]))[0]?.text).toBe(`rev ${round}`);
        expect(await c.count()).toBe(1);
        const hits = await c.recall({ vector: r.embedding, k: 1 });
        expect(hits[0]?.id).toBe(r.id);
        expect(hits[0]!.score).toBeCloseTo(0, 5);
      }
      expect(await ca.delete([r.id])).toBe(1);
      expect(await cb.count()).toBe(0);
      expect(await cb.get([r.id])).toEqual([]);
      await b.close();
    }
    await a.dropCollection('ryw');
  }, 120_000);

  test('quirks the adapter avoids: hasCollection says true for any name; IVF_FLAT is CAPABILITY_MISSING; reopen of a missing collection is COLLECTION_MISSING', async () => {
    const store = await connect();
    const client = (store as unknown as { ctx: { client: { hasCollection(x: unknown): Promise<{ value: boolean }> } } }).ctx.client;
    expect((await client.hasCollection({ collection_name: 'mm_never_created' })).value).toBe(true); // the server's answer (measured); the adapter uses describeCollection
    await expect(store.openCollection('never_created')).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
    await expect(store.createCollection({ name: 'ivf', dim: DIM, metric: 'l2', index: { type: 'ivfflat', lists: 4, probes: 2 } })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await store.dropCollection('never_created'); // missing is not an error
  }, 60_000);

  test('concurrent upserts of the same ids (4 clients): get and recall see each id once, count(*) is the server defect listed in knownFailures', async () => {
    const writers = await Promise.all([0, 1, 2, 3].map(() => connect()));
    const first = await writers[0]!.createCollection({ name: 'race', dim: DIM, metric: 'cosine', index: HNSW });
    const cols = await Promise.all(writers.map((s) => s.openCollection('race')));
    const ids = Array.from({ length: 24 }, (_, i) => `shared-${i}`);
    await Promise.all(
      cols.map(async (c, w) => {
        for (let rev = 0; rev < 3; rev++) for (let b = 0; b < 24; b += 8) await c.upsert(ids.slice(b, b + 8).map((id, i) => rec(id, w * 100 + rev * 10 + b + i, { text: `w${w} r${rev}` })));
      }),
    );
    const got = await first.get(ids);
    expect(new Set(got.map((r) => r.id)).size).toBe(24);
    const count = await first.count();
    // Measured 32 (twice); sequential upserts give 24. Printed, not asserted equal: the race decides.
    console.log(`milvus@lite-1.2 concurrent upserts of 24 ids by 4 clients: count(*) = ${count}`);
    expect(count).toBeGreaterThanOrEqual(24);
    await writers[0]!.dropCollection('race');
  }, 120_000);
});

suite(title('milvus@lite-1.2 crash'), () => {
  let server: TestMilvus | undefined;
  beforeAll(async () => {
    server = await startMilvus(image, `test-milvus-crash-${process.pid}`, probe);
  }, 120_000);
  afterAll(() => stopMilvus(server?.id));

  test('a server killed mid-check: the next calls fail fast with TARGET_CRASHED and its last log lines, a new store too', async () => {
    const store = await milvusContainerKind.connect(server!.ep, { timeouts: { queryMs: 10_000 } }, undefined);
    const coll = await store.createCollection({ name: 'crash', dim: DIM, metric: 'cosine', index: HNSW });
    await coll.upsert([rec('a', 1)]);
    expect(spawnSync('docker', ['kill', server!.id]).status).toBe(0);
    const t0 = Date.now();
    const err = await coll.count().then(
      () => undefined,
      (e: unknown) => e as { code?: string; message?: string },
    );
    expect(err?.code).toBe('BACKEND_ERROR');
    expect(err?.message).toMatch(/TARGET_CRASHED: .*the Milvus server is gone \(container [0-9a-f]{12} exited, exit 137\); last log lines: .*memory-matrix: starting kylin-ai-vector-engine/);
    const t1 = Date.now();
    await expect(coll.get(['a'])).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringContaining('TARGET_CRASHED') });
    expect(Date.now() - t1).toBeLessThan(1_000); // remembered: no new request
    await expect(milvusContainerKind.connect(server!.ep, undefined, undefined)).rejects.toMatchObject({ message: expect.stringContaining('TARGET_CRASHED') });
    expect(t1 - t0).toBeLessThan(15_000); // within the request deadline, never a hang
    await store.close();
  }, 60_000);
});

if (gate) test.skip(`milvus adapter tests — SKIPPED: ${gate}`, () => undefined);
