import type { IndexConfig, MemoryRecord, Metric } from '@memory-matrix/spec';
import { createPgvectorStore, type PGliteLike, type PgvectorCollection, type PgvectorStore } from '../src';
import { bruteForce, clusteredVectors, records } from './helpers/data';
import { client, ENGINES, openEngine } from './helpers/engines';

/**
 * Recall on real PGlite (both engines): exact scans against a float64 brute force, ANN recall of
 * HNSW and IVFFlat, and the plans PostgreSQL picks (EXPLAIN) in each scan mode.
 * Data: 3,000 clustered unit vectors of dim 64 from a seeded PRNG (adapter unit test only).
 */
const N = 3000;
const DIM = 64;
const vectors = clusteredVectors(N + 60, DIM, 42);
const data: MemoryRecord[] = records(vectors.slice(0, N));
const queries = vectors.slice(N);
let seq = 0;

describe.each(ENGINES)('recall on %s', (engine) => {
  let db: PGliteLike;
  let store: PgvectorStore;
  const made: Record<string, PgvectorCollection> = {};

  async function loaded(metric: Metric, index: IndexConfig): Promise<PgvectorCollection> {
    const key = `${metric}_${index.type}`;
    if (!made[key]) {
      const c = await store.createCollection({ name: `rec_${key}_${++seq}`, dim: DIM, metric, index });
      await c.upsert(data);
      await c.buildIndex();
      made[key] = c;
    }
    return made[key]!;
  }

  beforeAll(async () => {
    db = await openEngine(engine);
    store = await createPgvectorStore(client(db));
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  test.each<Metric>(['cosine', 'ip', 'l2'])('C03 exact scan under %s equals float64 brute force (ids exact, scores within 1e-5)', async (metric) => {
    const coll = await loaded(metric, { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 });
    let maxDelta = 0;
    for (const q of queries.slice(0, 30)) {
      const want = bruteForce(metric, data, q, 10);
      const got = await coll.recall({ vector: q, k: 10, scan: 'exact' });
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => (maxDelta = Math.max(maxDelta, Math.abs(h.score - want[i]!.score))));
    }
    expect(maxDelta).toBeLessThan(1e-5);
  });

  test('exact scan under a filter equals brute force over the matching rows', async () => {
    const coll = await loaded('cosine', { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 });
    const filter = { namespaces: ['user_1'], metadata: { flag: false } };
    const rows = data.filter((r) => r.namespace === 'user_1' && r.metadata.flag === false);
    for (const q of queries.slice(0, 10)) {
      const got = await coll.recall({ vector: q, k: 10, scan: 'exact', filter });
      expect(got.map((h) => h.id)).toEqual(bruteForce('cosine', rows, q, 10).map((h) => h.id));
    }
  });

  test.each<[string, IndexConfig]>([
    ['hnsw', { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 }],
    ['ivfflat', { type: 'ivfflat', lists: 30, probes: 5 }],
  ])('C05 %s recall@10 ≥ 0.9 on average and scores exact', async (_label, index) => {
    const coll = await loaded('l2', index);
    let hits = 0;
    for (const q of queries) {
      const want = bruteForce('l2', data, q, 10);
      const got = await coll.recall({ vector: q, k: 10, scan: 'index' });
      expect(got).toHaveLength(10);
      const wantScore = new Map(want.map((h) => [h.id, h.score]));
      hits += got.filter((h) => wantScore.has(h.id)).length;
      for (let i = 1; i < got.length; i++) expect(got[i]!.score).toBeLessThanOrEqual(got[i - 1]!.score); // C06
    }
    const recall = hits / (10 * queries.length);
    console.log(`${engine} ${index.type} recall@10 over ${queries.length} queries: ${recall.toFixed(4)}`);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  test.each<[string, IndexConfig]>([
    ['hnsw', { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 }],
    ['ivfflat', { type: 'ivfflat', lists: 30, probes: 5 }],
  ])('EXPLAIN: %s scan "index" uses the ANN index, scan "exact" a sequential scan', async (_label, index) => {
    // eslint-disable-next-line no-regex-spaces -- EXPLAIN's own two-space indent after each arrow, written as it prints
    const indexPlan = /CTE c\s+->  Limit\s+->  Index Scan using \S+_ann[\s\S]*Sort Key: \(\(c\.d \+ '0'::double precision\)\), c\.id/;
    const coll = await loaded('l2', index);
    const plain = await coll.explain({ vector: queries[0]!, k: 10, scan: 'index' });
    const filtered = await coll.explain({ vector: queries[0]!, k: 10, scan: 'index', filter: { namespaces: ['user_2'], metadata: { even: true } } });
    const exact = await coll.explain({ vector: queries[0]!, k: 10, scan: 'exact' });
    const short = (p: string) => p.replace(/'\[[^\]]*\]'/g, "'[…]'");
    console.log(`${engine} ${index.type} plans:\n--- index\n${short(plain)}\n--- index + filter\n${short(filtered)}\n--- exact\n${short(exact)}`);
    expect(plain).toMatch(indexPlan);
    expect(filtered).toMatch(indexPlan);
    expect(exact).toMatch(/Seq Scan/);
    expect(exact).not.toMatch(/Index/);
  });

  test.each<[string, IndexConfig]>([
    ['hnsw', { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 }],
    ['ivfflat', { type: 'ivfflat', lists: 30, probes: 5 }],
  ])('C04 %s under a selective filter still returns min(k, matching) rows, all matching (iterative scan)', async (_label, index) => {
    const coll = await loaded('l2', index);
    // 1 row in 60 matches: far fewer than ef_search / probed lists would hold without iterative scans
    const filter = { metadata: { i: 7 } };
    const few = data.filter((r) => r.metadata.i === 7);
    const got = await coll.recall({ vector: queries[1]!, k: 10, scan: 'index', filter });
    expect(got.map((h) => h.id)).toEqual(few.map((r) => r.id));
    const sparse = data.filter((r) => r.namespace === 'user_3' && r.metadata.flag === 0);
    const got2 = await coll.recall({ vector: queries[2]!, k: 50, scan: 'index', filter: { namespaces: ['user_3'], metadata: { flag: 0 } } });
    expect(got2).toHaveLength(Math.min(50, sparse.length));
    expect(got2.every((h) => sparse.some((r) => r.id === h.id))).toBe(true);
  });

  test('C07 the same query twice gives the same sequence; equal scores are ordered by id on both paths', async () => {
    const coll = await store.createCollection({ name: `ties_${++seq}`, dim: 2, metric: 'cosine', index: { type: 'hnsw', m: 4, efConstruction: 16, efSearch: 40 } });
    const ids = ['k', 'c', 'x', 'a', 'q', 'b', 'z', 'm'];
    await coll.upsert(ids.map((id, i) => ({ ...data[i]!, id, embedding: Float32Array.from(i < 6 ? [1, 1] : [1, 0]) })));
    await coll.buildIndex();
    for (const scan of ['index', 'exact'] as const) {
      const a = await coll.recall({ vector: Float32Array.from([2, 2]), k: 4, scan });
      const b = await coll.recall({ vector: Float32Array.from([2, 2]), k: 4, scan });
      expect(a).toEqual(b);
      expect(a.map((h) => h.id)).toEqual(['a', 'b', 'c', 'k']);
    }
  });
});
