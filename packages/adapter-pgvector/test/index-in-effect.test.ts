import type { MemoryRecord } from '@memory-matrix/spec';
import { createPgvectorStore, type PGliteLike, type PgvectorStore } from '../src';
import { clusteredVectors, records } from './helpers/data';
import { client, ENGINES, openEngine } from './helpers/engines';

/**
 * `indexInEffect` (C28) on real PGlite, both engines: what the server reports for an index-path
 * recall — the declared HNSW / IVFFlat with its reloptions and the SET LOCAL search setting — and
 * a sequential scan (type none) when the index was built with another metric's operator class,
 * as a user's migration could leave it. 400 clustered vectors of dim 16 (seeded).
 */
const DIM = 16;
const vectors = clusteredVectors(410, DIM, 7);
const data: MemoryRecord[] = records(vectors.slice(0, 400));
const query = { vector: vectors[400]!, k: 10, scan: 'index' as const };
let seq = 0;

describe.each(ENGINES)('indexInEffect on %s', (engine) => {
  let db: PGliteLike;
  let store: PgvectorStore;

  beforeAll(async () => {
    db = await openEngine(engine);
    store = await createPgvectorStore(client(db));
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  test('HNSW: type, metric, m / ef_construction from the catalog, ef_search from SHOW in the recall transaction', async () => {
    const c = await store.createCollection({ name: `iie_h_${++seq}`, dim: DIM, metric: 'cosine', index: { type: 'hnsw', m: 12, efConstruction: 48, efSearch: 77 } });
    await c.upsert(data);
    await c.buildIndex();
    const got = await c.indexInEffect(query);
    expect(got).toMatchObject({ type: 'hnsw', metric: 'cosine', params: { m: 12, efConstruction: 48, efSearch: 77 } });
    expect(got.source).toMatch(/Index Scan using mm_iie_h_\d+_ann/);
    const filtered = await c.indexInEffect({ ...query, filter: { namespaces: ['user_1'] } });
    expect(filtered.type).toBe('hnsw');
    await store.dropCollection(c.spec.name);
  });

  test('IVFFlat: lists from the catalog, probes from SHOW', async () => {
    const c = await store.createCollection({ name: `iie_i_${++seq}`, dim: DIM, metric: 'l2', index: { type: 'ivfflat', lists: 4, probes: 3 } });
    await c.upsert(data);
    await c.buildIndex();
    expect(await c.indexInEffect(query)).toMatchObject({ type: 'ivfflat', metric: 'l2', params: { lists: 4, probes: 3 } });
    await store.dropCollection(c.spec.name);
  });

  test('an index built with vector_l2_ops under a cosine collection is not used: type none, the plan a Seq Scan', async () => {
    const c = await store.createCollection({ name: `iie_w_${++seq}`, dim: DIM, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 } });
    await c.upsert(data);
    // What a hand-written migration can leave behind: the declared index name, the wrong operator class.
    await db.query(`CREATE INDEX ${c.indexName} ON ${c.table} USING hnsw (embedding vector_l2_ops)`);
    const got = await c.indexInEffect(query);
    expect(got.type).toBe('none');
    expect(got.source).toMatch(/Seq Scan/);
    await store.dropCollection(c.spec.name);
  });
});
