import { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import { Document } from '@langchain/core/documents';
import { referenceScore, type MemoryRecord, type MemoryStore, type Metric } from '@memory-matrix/spec';
import { Pool } from 'pg';
import { connectLangchainPgvector, langchainPgvectorDriver, LANGCHAIN_PGVECTOR_CAPABILITIES, PrecomputedEmbeddings, rowIdOf, tableOf } from '../src';
import { servedPGlite, serverProblem } from './helpers/server';

/**
 * What LangChain.js's PGVectorStore (@langchain/community 1.1.29) does on a real server
 * (PostgreSQL 18.6 + pgvector 0.8.7, PGlite 0.5 served on a loopback port): every figure the
 * README states is measured here. Client-level facts are asserted on the client itself
 * (`PGVectorStore` on a pool), the driver's mapping through the driver.
 */
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

test('row ids are RFC 4122 version-5 UUIDs of the memory id (checked against Python uuid.uuid5)', () => {
  expect(rowIdOf('mem-00001')).toBe('bdd23914-e5e0-5c8e-b7ab-48f4a646db26');
  expect(rowIdOf('ü 🎙')).toBe('92ab9fbf-f5e3-50a1-b96c-0e52227bbabb');
});

test('the driver is a client over pgvector servers, with the client packages as pinned', () => {
  expect(langchainPgvectorDriver.client!.servers).toEqual(['pgvector']);
  expect(langchainPgvectorDriver.client!.preflight('t')).toMatchObject({ '@langchain/community': '1.1.29', '@langchain/core': '1.4.0', pg: expect.stringMatching(/^8\./) });
  expect(LANGCHAIN_PGVECTOR_CAPABILITIES).toMatchObject({ upsert: false, exactScan: false, annIndexes: ['hnsw'], maxBatch: 500, timeDecay: false });
});

const problem = serverProblem('langchain-pgvector client tests');
const describeServer = problem ? describe.skip : describe;

describeServer('PGVectorStore on PostgreSQL 18.6 + pgvector 0.8.7 (PGlite served on loopback)', () => {
  let server: Awaited<ReturnType<typeof servedPGlite>>;
  let store: MemoryStore;
  let pool: Pool;
  let n = 0;
  const name = (label: string) => `lc_${label}_${process.pid}_${n++}`;
  beforeAll(async () => {
    server = await servedPGlite();
    store = await connectLangchainPgvector(server.address, { clientName: 'lc-test' });
    pool = new Pool({ connectionString: server.address.url, max: 2 });
    pool.on('error', () => undefined);
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await pool?.end();
    await server?.close();
  });

  test('the client itself: a non-UUID id ("1", as in its own docs) is refused by the server; a second write of an id is a duplicate key', async () => {
    const lc = new PGVectorStore(new PrecomputedEmbeddings(), { pool, tableName: tableOf(name('raw')) });
    await lc.ensureTableInDatabase(3);
    const silence = jest.spyOn(console, 'error').mockImplementation(() => undefined); // the client console.errors every failed insert
    try {
      await expect(lc.addVectors([[1, 0, 0]], [new Document({ pageContent: 'a', metadata: {} })], { ids: ['1'] })).rejects.toThrow('Error inserting: invalid input syntax for type uuid: "1"');
      const id = rowIdOf('x');
      await lc.addVectors([[1, 0, 0]], [new Document({ pageContent: 'a', metadata: {} })], { ids: [id] });
      await expect(lc.addVectors([[0, 1, 0]], [new Document({ pageContent: 'b', metadata: {} })], { ids: [id] })).rejects.toThrow(/Error inserting: duplicate key value violates unique constraint/);
      expect(silence).toHaveBeenCalled();
    } finally {
      silence.mockRestore();
    }
  });

  test('initialize() holds a pooled connection no query uses: on a pool of max 2 the second initialize() does not resolve', async () => {
    const small = new Pool({ connectionString: server.address.url, max: 2 });
    small.on('error', () => undefined);
    const first = await PGVectorStore.initialize(new PrecomputedEmbeddings(), { pool: small, tableName: tableOf(name('init')), dimensions: 3 });
    expect([small.totalCount, small.idleCount]).toEqual([2, 1]); // one held by `first`, one back in the pool
    const second = PGVectorStore.initialize(new PrecomputedEmbeddings(), { pool: small, tableName: tableOf(name('init')), dimensions: 3 });
    const outcome = await Promise.race([second.then(() => 'resolved'), new Promise((r) => setTimeout(() => r('pending after 5 s'), 5_000))]);
    expect(outcome).toBe('pending after 5 s');
    expect(small.waitingCount).toBe(1);
    first.client!.release(); // what end() does first, without ending the pool: the waiting initialize() gets that connection
    const late = await second;
    await late.end(); // releases its client and ends the pool
  }, 60_000);

  test('writes: no upsert (an id already stored is BACKEND_ERROR, the row unchanged); over 500 records not atomic', async () => {
    const col = await store.createCollection({ name: name('w'), dim: 3, metric: 'cosine', index: { type: 'none' } });
    const silence = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await col.upsert([rec('a', [1, 0, 0])]);
      const again = col.upsert([rec('a', [0, 1, 0], { text: 'new' })]);
      await expect(again).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringContaining('duplicate key value') });
      expect((await col.get(['a']))[0]).toMatchObject({ text: 'text of a' });
      // 501 records, the last with a wrong dimension: the client's first INSERT (500 rows) lands, the second is refused.
      const many = Array.from({ length: 501 }, (_, i) => rec(`m${i}`, i === 500 ? [1, 0, 0, 0] : [1, i, 0]));
      await expect(col.upsert(many)).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', message: expect.stringContaining('expected 3 dimensions, not 4') });
      expect(await col.count()).toBe(1 + 500);
    } finally {
      silence.mockRestore();
    }
  });

  test('a zero vector under cosine is stored, and recall returns it with a NaN score (C12)', async () => {
    const col = await store.createCollection({ name: name('z'), dim: 3, metric: 'cosine', index: { type: 'none' } });
    await col.upsert([rec('a', [1, 0, 0]), rec('zero', [0, 0, 0])]);
    const hits = await col.recall({ vector: Float32Array.from([1, 0, 0]), k: 5 });
    expect(hits.map((h) => h.id)).toEqual(['a', 'zero']);
    expect(hits[1]!.score).toBeNaN();
    expect(await code(col.upsert([rec('nan', [Number.NaN, 0, 0])]))).toBe('INVALID_VECTOR');
  });

  test.each<Metric>(['cosine', 'ip', 'l2'])('%s: the distance the client returns converts to the canonical score; a new client reopens with the recorded metric', async (metric) => {
    const col = await store.createCollection({ name: name(metric), dim: 3, metric, index: { type: 'none' } });
    const vs = { a: [1, 0, 0], b: [0.6, 0.8, 0], c: [-1, 2, 0.5] };
    await col.upsert(Object.entries(vs).map(([id, v]) => rec(id, v)));
    const q = Float32Array.from([0.9, 0.3, -0.2]);
    const other = await connectLangchainPgvector(server.address);
    try {
      const reopened = await other.openCollection(col.spec.name);
      expect(reopened.spec.metric).toBe(metric);
      for (const hits of [await col.recall({ vector: q, k: 3 }), await reopened.recall({ vector: q, k: 3 })]) {
        for (const h of hits) expect(Math.abs(h.score - referenceScore(metric, Float32Array.from(vs[h.id as keyof typeof vs]), q))).toBeLessThan(1e-6);
      }
      // The client alone keeps no metric: a PGVectorStore on the same table without distanceStrategy searches by cosine.
      const bare = new PGVectorStore(new PrecomputedEmbeddings(), { pool, tableName: tableOf(col.spec.name) });
      const [[, d]] = (await bare.similaritySearchVectorWithScore(Array.from(q), 1)) as Array<[Document, number]>;
      const cosDistance = Math.min(...Object.values(vs).map((v) => 1 - referenceScore('cosine', Float32Array.from(v), q)));
      expect(Math.abs(d - cosDistance)).toBeLessThan(1e-6);
    } finally {
      await other.close();
    }
  });

  test('filters: the client compares metadata as text ({s: 0} also matches "0"; {n: null} matches nothing); count keeps the contract; an empty list is a syntax error', async () => {
    const col = await store.createCollection({ name: name('f'), dim: 3, metric: 'cosine', index: { type: 'none' } });
    await col.upsert([rec('num', [1, 0, 0], { metadata: { s: 0, n: null } }), rec('str', [0.9, 0.1, 0], { metadata: { s: '0', n: 1 }, namespace: 'ns-b', kind: 'episode' })]);
    const q = Float32Array.from([1, 0, 0]);
    expect((await col.recall({ vector: q, k: 5, filter: { metadata: { s: 0 } } })).map((h) => h.id)).toEqual(['num', 'str']);
    expect(await col.count({ metadata: { s: 0 } })).toBe(1);
    expect(await col.recall({ vector: q, k: 5, filter: { metadata: { n: null } } })).toEqual([]);
    expect(await col.count({ metadata: { n: null } })).toBe(1);
    expect((await col.recall({ vector: q, k: 5, filter: { namespaces: ['ns-b'], kinds: ['episode'] } })).map((h) => h.id)).toEqual(['str']);
    expect(await col.count({ namespaces: ['ns-b'] })).toBe(1);
    await expect(col.recall({ vector: q, k: 5, filter: { namespaces: [] } })).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringContaining('syntax error') });
    expect(await code(col.recall({ vector: q, k: 5, filter: { metadata: { mm_id: 'x' } } }))).toBe('INVALID_INPUT');
    expect(await code(col.upsert([rec('bad', [1, 0, 0], { metadata: { mm_kind: 'x' } })]))).toBe('INVALID_INPUT');
    expect(await code(col.upsert([rec('bad', [1, 0, 0], { metadata: { tags: ['x'] } })]))).toBe('CAPABILITY_MISSING'); // metadataShapes undeclared
  });

  test('index: createHnswIndex builds the HNSW index; the client sets no ef_search, so a search returns at most 40 rows', async () => {
    const col = await store.createCollection({ name: name('hnsw'), dim: 3, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 } });
    const rows = Array.from({ length: 2000 }, (_, i) => rec(`r${i}`, [Math.cos(i), Math.sin(i), (i % 7) / 7]));
    for (let i = 0; i < rows.length; i += 500) await col.upsert(rows.slice(i, i + 500));
    await col.buildIndex();
    const { rows: idx } = await pool.query(`SELECT indexdef FROM pg_indexes WHERE tablename = $1`, [tableOf(col.spec.name)]);
    expect(idx.map((r: { indexdef: string }) => r.indexdef).join('\n')).toMatch(/USING hnsw \(embedding vector_cosine_ops\) WITH \(m='16', ef_construction='64'\)/);
    const hits = await col.recall({ vector: Float32Array.from([1, 0.2, 0.1]), k: 100 });
    expect(hits.length).toBe(40);
    // What the server plans for the client's own statement: the HNSW index, at ef_search 40, no iterative scan.
    const inEffect = await col.indexInEffect!({ vector: Float32Array.from([1, 0.2, 0.1]), k: 10 });
    expect(inEffect).toMatchObject({ type: 'hnsw', metric: 'cosine', params: { m: 16, efConstruction: 64, efSearch: 40 }, extra: { 'hnsw.iterative_scan': 'off' } });
    expect(inEffect.source).toMatch(/^EXPLAIN: .*Index Scan using mm_lc_hnsw_\d+_\d+_embedding_embedding_hnsw_idx/);
    await expect(store.createCollection({ name: name('ef'), dim: 3, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 } })).rejects.toMatchObject({
      code: 'CAPABILITY_MISSING',
    });
    await expect(col.recall({ vector: Float32Array.from([1, 0, 0]), k: 5, scan: 'exact' })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
  }, 120_000);

  test("get, delete and drop: through the pool on the client's table; delete counts what was stored", async () => {
    const col = await store.createCollection({ name: name('d'), dim: 3, metric: 'cosine', index: { type: 'none' } });
    await col.upsert([rec('a', [1, 0, 0], { metadata: { tag: '家族', z: false, e: '' } }), rec('b', [0, 1, 0])]);
    const [a] = await col.get(['a']);
    expect(a).toEqual(rec('a', [1, 0, 0], { metadata: { tag: '家族', z: false, e: '' } }));
    expect(await col.delete(['a', 'a', 'nope'])).toBe(1);
    expect(await col.count()).toBe(1);
    await store.dropCollection(col.spec.name);
    await expect(store.openCollection(col.spec.name)).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
  });
});
