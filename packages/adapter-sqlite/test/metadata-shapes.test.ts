import { diffRecords, hasCode } from '@memory-matrix/spec';
import { BAD_SHAPED_METADATA, shapedRecords } from '@memory-matrix/spec/test/metadata-shapes-cases';
import { SQLITE_CAPABILITIES, sqliteEmbeddedEngine, type SqliteEngine } from '../src';

/**
 * Nested and array metadata (capability `metadataShapes`) through the real driver: every edge of
 * SHAPED_METADATA reads back exactly from a NEW connection (types, key sets, array order, numbers),
 * and what the contract refuses is refused before anything is written. The raw column shows what
 * SQLite keeps: the JSON text the adapter wrote, byte for byte.
 */
let engine: SqliteEngine;
beforeAll(async () => {
  engine = await sqliteEmbeddedEngine();
});
afterAll(async () => engine?.stop());

test('declares nested and array', () => {
  expect(SQLITE_CAPABILITIES.metadataShapes).toEqual(['nested', 'array']);
});

test('every nested / array edge reads back exactly from a new connection', async () => {
  const store = await engine.connect();
  const coll = await store.createCollection({ name: 'shapes', dim: 8, metric: 'cosine', index: { type: 'none' } });
  const records = shapedRecords(8);
  await coll.upsert(records);
  await store.close();
  const other = await engine.connect();
  const again = await other.openCollection('shapes');
  const got = new Map((await again.get(records.map((r) => r.id))).map((r) => [r.id, r]));
  expect(records.flatMap((r) => diffRecords(r, got.get(r.id)!)).map((d) => d.message)).toEqual([]);
  expect(got.get('shape-numbers')!.metadata.n).toEqual([1, 1, 0.1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e300, 5e-324, 1.7976931348623157e308, 123456789.12345679]);
  await other.dropCollection('shapes');
  await other.close();
});

test.each(BAD_SHAPED_METADATA)('refuses $path with INVALID_INPUT and writes nothing', async ({ metadata, path }) => {
  const store = await engine.connect();
  const coll = await store.createCollection({ name: 'shapes_bad', dim: 8, metric: 'cosine', index: { type: 'none' } });
  const [good] = shapedRecords(8);
  const bad = { ...good!, id: 'bad', metadata } as never;
  const e = await coll.upsert([good!, bad]).then(
    () => null,
    (x: unknown) => x,
  );
  expect(hasCode(e, 'INVALID_INPUT')).toBe(true);
  expect(String(e)).toContain(path);
  expect(await coll.count()).toBe(0);
  await store.dropCollection('shapes_bad');
  await store.close();
});
