import { Pool } from 'pg';
import type { MemoryRecord } from '@memory-matrix/spec';
import { createPgvectorStore, fromPgPool, type PGliteLike, type PgvectorStore } from '../src';
import { openEngine } from './helpers/engines';

/**
 * `fromPgPool` with the real `pg` driver: PGlite 0.5 ships `@electric-sql/pglite/node-postgres`,
 * a connection class that lets a `pg.Pool` speak the wire protocol to an in-process PGlite
 * (pool size 1). So the driver's own parameter serialisation, type parsing and the pool's
 * BEGIN/COMMIT/ROLLBACK on a checked-out client are exercised without a server process.
 * A real PostgreSQL server is covered by the container provider's cells.
 */
describe('fromPgPool over pg.Pool → PGlite 0.5 (node-postgres connection)', () => {
  let db: PGliteLike;
  let pool: Pool;
  let store: PgvectorStore;

  beforeAll(async () => {
    db = await openEngine('pglite-0.5');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a package-exports subpath, which the repo's moduleResolution node10 cannot resolve for an import
    const { createPgConfig } = require('@electric-sql/pglite/node-postgres');
    pool = new Pool(createPgConfig(db));
    // copy: false — this connection class has no COPY FROM STDIN (PGlite exits on it); the COPY path through pg runs on the container targets
    store = await createPgvectorStore(fromPgPool(pool, { copy: false }));
  });
  afterAll(async () => {
    await store?.close(); // ends the pool
    await db?.close();
  });

  const rec = (id: string, e: number[], over: Partial<MemoryRecord> = {}): MemoryRecord => ({
    id,
    namespace: 'n',
    kind: 'fact',
    text: `t ${id}`,
    createdAt: '2024-05-01T09:30:00.123Z',
    metadata: {},
    embedding: Float32Array.from(e),
    ...over,
  });

  test('round trip through the pg driver: text, metadata types, timestamp, bit-exact vector', async () => {
    const coll = await store.createCollection({ name: 'pool_rt', dim: 3, metric: 'cosine', index: { type: 'hnsw', m: 4, efConstruction: 16, efSearch: 10 } });
    const r = rec('日本 🚀 "x",{y}', [Math.fround(0.1), -0, 1e-40], {
      text: 'emoji 👨‍👩‍👧 and CJK 中文, quote \' " backslash \\',
      // eslint-disable-next-line no-loss-of-precision -- deliberately beyond 2^53: the double it parses to must come back unchanged
      metadata: { zero: 0, empty: '', no: false, nil: null, big: 12345678901234567 },
      createdAt: '2001-02-03T04:05:06.007Z',
    });
    await coll.upsert([r, rec('b', [0, 1, 0])]);
    const [back] = await coll.get([r.id]);
    expect({ ...back!, embedding: null }).toEqual({ ...r, embedding: null });
    expect(Buffer.from(back!.embedding.buffer).equals(Buffer.from(r.embedding.buffer))).toBe(true);
    await coll.buildIndex();
    const hits = await coll.recall({ vector: Float32Array.from([0, 1, 0]), k: 2, scan: 'index', filter: { namespaces: ['n'] } });
    expect(hits[0]).toEqual({ id: 'b', score: 1 });
  });

  test('transaction-local settings stay inside the recall transaction; a failing chunk rolls the whole upsert back', async () => {
    const coll = await store.openCollection('pool_rt');
    await coll.recall({ vector: Float32Array.from([1, 0, 0]), k: 1, scan: 'exact' });
    await coll.recall({ vector: Float32Array.from([1, 0, 0]), k: 1, scan: 'index' }); // sets enable_seqscan, hnsw.ef_search (10) for its transaction only
    const { rows } = await pool.query(`SELECT current_setting('enable_indexscan') AS a, current_setting('enable_seqscan') AS b, current_setting('hnsw.ef_search') AS c`);
    expect(rows[0]).toEqual({ a: 'on', b: 'on', c: '40' });
    await pool.query(`ALTER TABLE mm_pool_rt ADD CONSTRAINT no_zzz CHECK (id <> 'zzz')`);
    const before = await coll.count();
    // 1,500 rows = two INSERT chunks; the bad row sits in the second, after the first has run
    const many = Array.from({ length: 1500 }, (_, i) => rec(i === 1400 ? 'zzz' : `ok${i}`, [1, i, 1]));
    await expect(coll.upsert(many)).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(/upsert of 1500 records.*no_zzz/) });
    expect(await coll.count()).toBe(before);
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]); // the connection is usable again
  });

  test('reopen from a second store over the same pool keeps the metric', async () => {
    const other = await createPgvectorStore(fromPgPool(pool, { endPoolOnClose: false, copy: false }));
    const coll = await other.openCollection('pool_rt');
    expect(coll.spec.metric).toBe('cosine');
    await other.close();
    expect((await pool.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]); // pool not ended
  });
});
