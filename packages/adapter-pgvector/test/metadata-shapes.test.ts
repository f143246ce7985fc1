import { diffRecords, hasCode } from '@memory-matrix/spec';
import { BAD_SHAPED_METADATA, shapedRecords } from '@memory-matrix/spec/test/metadata-shapes-cases';
import { createPgvectorStore, PGVECTOR_CAPABILITIES, type PGliteLike, type PgvectorStore } from '../src';
import { client, openEngine } from './helpers/engines';

/**
 * Nested and array metadata (capability `metadataShapes`) through the real driver on PGlite 0.5
 * (PostgreSQL 18): every edge of SHAPED_METADATA reads back exactly through jsonb from a NEW store,
 * what the contract refuses is refused before anything is written, and what jsonb itself does with
 * the edges (README "Nested and array metadata") is pinned on raw SQL.
 */
let db: PGliteLike;
beforeAll(async () => {
  db = await openEngine('pglite-0.5');
}, 120_000);
afterAll(async () => db?.close());

test('declares nested and array', () => {
  expect(PGVECTOR_CAPABILITIES.metadataShapes).toEqual(['nested', 'array']);
});

test('every nested / array edge reads back exactly from a new store', async () => {
  const store = await createPgvectorStore(client(db));
  const coll = await store.createCollection({ name: 'shapes', dim: 8, metric: 'cosine', index: { type: 'none' } });
  const records = shapedRecords(8);
  await coll.upsert(records);
  const other: PgvectorStore = await createPgvectorStore(client(db));
  const got = new Map((await (await other.openCollection('shapes')).get(records.map((r) => r.id))).map((r) => [r.id, r]));
  expect(records.flatMap((r) => diffRecords(r, got.get(r.id)!)).map((d) => d.message)).toEqual([]);
  // jsonb reorders keys (shorter first, then bytewise) and the contract does not count key order.
  expect(Object.keys(got.get('shape-keyOrder')!.metadata.o as object)).toEqual(['2', '10', 'a', 'm', 'z']);
  await other.dropCollection('shapes');
  await store.close();
  await other.close();
});

test('jsonb on raw SQL: keeps 1.0 and 2^53+1 as written (numeric), sorts keys, drops a duplicate key, refuses NaN and \\u0000', async () => {
  const one = (await db.query(`SELECT '{"b":1,"a":2,"n":[1.0,1,9007199254740993,1e300],"a":3}'::jsonb::text AS t`)) as { rows: Array<{ t: string }> };
  expect(one.rows[0]!.t).toBe(`{"a": 3, "b": 1, "n": [1.0, 1, 9007199254740993, 1${'0'.repeat(300)}]}`);
  const eq = (await db.query(`SELECT '1.0'::jsonb = '1'::jsonb AS same`)) as { rows: Array<{ same: boolean }> };
  expect(eq.rows[0]!.same).toBe(true);
  await expect(db.query(`SELECT '{"x":NaN}'::jsonb`)).rejects.toThrow(/invalid input syntax for type json/);
  await expect(db.query(`SELECT '{"x":"a\\u0000b"}'::jsonb`)).rejects.toThrow(/unsupported Unicode escape sequence/);
});

test.each(BAD_SHAPED_METADATA)('refuses $path with INVALID_INPUT and writes nothing', async ({ metadata, path }) => {
  const store = await createPgvectorStore(client(db));
  const coll = await store.createCollection({ name: 'shapes_bad', dim: 8, metric: 'cosine', index: { type: 'none' } });
  const [good] = shapedRecords(8);
  const e = await coll.upsert([good!, { ...good!, id: 'bad', metadata } as never]).then(
    () => null,
    (x: unknown) => x,
  );
  expect(hasCode(e, 'INVALID_INPUT')).toBe(true);
  expect(String(e)).toContain(path);
  expect(await coll.count()).toBe(0);
  await store.dropCollection('shapes_bad');
  await store.close();
});
