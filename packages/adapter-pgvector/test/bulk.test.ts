import type { MemoryRecord } from '@memory-matrix/spec';
import { COPY_MIN_ROWS, createPgvectorStore, fromPGlite, MAX_BATCH, type PGliteLike, type PgvectorStore } from '../src';
import { bruteForce, clusteredVectors, records } from './helpers/data';
import { counting, ENGINES, openEngine } from './helpers/engines';

/**
 * Bulk path on real PGlite (both engines): 5,000 × 384 lands in a handful of round trips (one
 * transaction: an existence probe and one binary COPY), then HNSW build and 300 index-scan
 * queries; a second upsert of the same ids replaces them through the chunked INSERT path; a COPY
 * that collides with a row written after the probe falls back to that path. Prints the timings
 * (engine start, load, replace, HNSW build, 300 queries) for the report.
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
    expect(sql.statements.map((s) => s.split(' ')[0])).toEqual(['BEGIN', 'SELECT', 'SAVEPOINT', 'COPY', 'RELEASE', 'COMMIT/ROLLBACK']);
    expect(await coll.count()).toBe(N);

    // the same ids again with other content (and one id twice: the last wins): the probe finds
    // them, so the rows go through INSERT … ON CONFLICT in chunks of ≤ MAX_BATCH and replace
    const again = data.map((r) => ({ ...r, text: `v2 ${r.id}` }));
    again.push({ ...again[7]!, text: 'v3' });
    sql.statements.length = 0;
    t = performance.now();
    await coll.upsert(again);
    timings.replaceMs = performance.now() - t;
    expect(sql.statements.map((s) => s.split(' ')[0])).toEqual(['BEGIN', 'SELECT', ...Array(Math.ceil(N / MAX_BATCH)).fill('INSERT'), 'COMMIT/ROLLBACK']);
    expect(await coll.count()).toBe(N);
    expect((await coll.get([data[0]!.id, data[7]!.id])).map((r) => r.text)).toEqual([`v2 ${data[0]!.id}`, 'v3']);

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

  test('a COPY that collides with a row written after the probe (another client) is rolled back to its savepoint; the INSERT path writes every row', async () => {
    const coll = await store.createCollection({ name: `race_${process.pid}`, dim: DIM, metric: 'cosine', index: { type: 'none' } });
    const rows = data.slice(0, COPY_MIN_ROWS);
    const late = { ...rows[5]!, text: 'written by someone else between the probe and the COPY' };
    sql.beforeCopy = async (tx) => {
      // PGlite is one connection: the colliding row is written on this transaction, inside the savepoint (so it goes with the
      // rollback); the COPY meets it with unique_violation as it would meet a row another client committed after the probe
      await tx.query(`INSERT INTO "mm_race_${process.pid}" (id, namespace, kind, text, created_at, metadata, embedding) VALUES ($1, 'x', 'fact', $2, now(), '{}', $3::vector)`, [
        late.id,
        late.text,
        `[${Array.from(late.embedding).join(',')}]`,
      ]);
    };
    sql.statements.length = 0;
    try {
      await coll.upsert(rows);
    } finally {
      sql.beforeCopy = undefined;
    }
    expect(sql.statements.map((s) => s.split(' ')[0])).toEqual(['BEGIN', 'SELECT', 'SAVEPOINT', 'COPY', 'ROLLBACK', 'INSERT', 'COMMIT/ROLLBACK']);
    expect(await coll.count()).toBe(COPY_MIN_ROWS);
    expect((await coll.get([rows[5]!.id]))[0]!.text).toBe(rows[5]!.text);
  });
});
