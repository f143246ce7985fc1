import type { MemoryRecord } from '@memory-matrix/spec';
import { createPgvectorStore, fromPGlite, type PGliteLike, type PgvectorStore } from '../src';
import { bruteForce, clusteredVectors, records } from './helpers/data';
import { counting, ENGINES, openEngine } from './helpers/engines';

/**
 * Bulk path on real PGlite (both engines): 5,000 × 384 lands in a handful of round trips (one
 * transaction, chunked INSERT … SELECT FROM unnest), then HNSW build and 300 index-scan queries.
 * Prints the timings (engine start, load, HNSW build, 300 queries) for the report.
 */
const N = 5000;
const DIM = 384;
const Q = 300;
const vectors = clusteredVectors(N + Q, DIM, 2024, 100);
const data: MemoryRecord[] = records(vectors.slice(0, N));
const queries = vectors.slice(N);

describe.each(ENGINES)('bulk load on %s', (engine) => {
  let db: PGliteLike;
  let store: PgvectorStore;
  let sql: ReturnType<typeof counting>;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    const t0 = performance.now();
    db = await openEngine(engine);
    sql = counting(fromPGlite(db));
    store = await createPgvectorStore(sql);
    timings.startMs = performance.now() - t0;
  });
  afterAll(async () => {
    console.log(`${engine} timings (ms): ${JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])))}`);
    await store?.close();
    await db?.close();
  });

  test('5,000 × 384: load in a handful of round trips, HNSW build, 300 queries with recall@10 ≥ 0.9', async () => {
    const coll = await store.createCollection({ name: `bulk_${process.pid}`, dim: DIM, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 } });

    sql.trips = 0;
    sql.statements.length = 0;
    let t = performance.now();
    await coll.upsert(data);
    timings.loadMs = performance.now() - t;
    console.log(`${engine} upsert of ${N} × ${DIM}: ${sql.trips} round trips: ${sql.statements.map((s) => s.split(' ').slice(0, 2).join(' ')).join(' | ')}`);
    expect(sql.trips).toBeLessThanOrEqual(8); // BEGIN + 5 INSERTs of ≤ 1,000 rows + COMMIT
    expect(await coll.count()).toBe(N);

    t = performance.now();
    await coll.buildIndex();
    timings.hnswBuildMs = performance.now() - t;

    sql.trips = 0;
    t = performance.now();
    const results = [];
    for (const q of queries) results.push(await coll.recall({ vector: q, k: 10, scan: 'index' }));
    timings.queries300Ms = performance.now() - t;
    timings.tripsPerQuery = sql.trips / Q;

    let found = 0;
    for (let i = 0; i < Q; i++) {
      const want = new Set(bruteForce('cosine', data, queries[i]!, 10).map((h) => h.id));
      found += results[i]!.filter((h) => want.has(h.id)).length;
    }
    timings.recallAt10x1000 = (1000 * found) / (10 * Q);
    expect(found / (10 * Q)).toBeGreaterThanOrEqual(0.9);

    t = performance.now();
    for (const q of queries.slice(0, 30)) await coll.recall({ vector: q, k: 10, scan: 'exact' });
    timings.exact30Ms = performance.now() - t;

    // read back a sample bit for bit
    const back = await coll.get(data.slice(0, 200).map((r) => r.id));
    back.forEach((b, i) => expect(Buffer.from(b.embedding.buffer).equals(Buffer.from(data[i]!.embedding.buffer))).toBe(true));
  });
});
