/**
 * The mastra-libsql driver over the real @mastra/libsql 0.16.4 LibSQLVector on a libSQL file in a
 * temporary directory (embedded: no Docker): the driver contract (write, read back, recall,
 * filters, delete, reopen, drop) and what Mastra itself does that the README records.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MemoryRecord, MemoryStore } from '@memory-matrix/spec';
import { mastraLibsqlDriver, openMastraLibsql } from '../src';

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

let dir: string;
let store: MemoryStore;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mm-mastra-test-'));
  store = openMastraLibsql(dir);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the driver is discovered under its name with the libsql-file engine', () => {
  expect(mastraLibsqlDriver.name).toBe('mastra-libsql');
  expect(Object.keys(mastraLibsqlDriver.embedded!.engines)).toEqual(['libsql-file']);
});

test('write, read back, recall with a filter, upsert, delete, reopen, drop', async () => {
  const c = await store.createCollection({ name: 'basic', dim: 3, metric: 'cosine', index: { type: 'none' } });
  await c.upsert([rec('a', [1, 0, 0]), rec('b', [0, 1, 0], { namespace: 'ns-b', metadata: { n: 2 } }), rec('c', [0.6, 0.8, 0])]);
  const [a] = await c.get(['a']);
  expect(a).toMatchObject({ id: 'a', namespace: 'ns-a', kind: 'fact', text: 'text of a', createdAt: '2024-05-01T09:30:00.123Z', metadata: { n: 1 } });
  expect(Array.from(a!.embedding)).toEqual([1, 0, 0]);
  const hits = await c.recall({ vector: Float32Array.from([1, 0, 0]), k: 3 });
  expect(hits.map((h) => h.id)).toEqual(['a', 'c', 'b']);
  expect(hits[0]!.score).toBeCloseTo(1, 6);
  expect((await c.recall({ vector: Float32Array.from([1, 0, 0]), k: 3, filter: { namespaces: ['ns-b'] } })).map((h) => h.id)).toEqual(['b']);
  expect(await c.count({ where: { op: '$gte', field: { root: 'metadata', path: ['n'] }, value: 2 } })).toBe(1);
  await c.upsert([rec('b', [0, 0, 1], { metadata: { n: 3 } })]); // a true upsert
  expect(await c.count()).toBe(3);
  expect(await c.delete(['a', 'zz'])).toBe(1);
  const again = await store.openCollection('basic');
  expect(again.spec).toMatchObject({ dim: 3, metric: 'cosine', index: { type: 'none' } });
  expect((await again.get(['b']))[0]!.metadata).toEqual({ n: 3 });
  await store.dropCollection('basic');
  await expect(store.openCollection('basic')).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
});

test("Mastra's query keeps score > minScore (default -1): the exactly opposite vector is never returned (README finding 1)", async () => {
  const c = await store.createCollection({ name: 'opposite', dim: 2, metric: 'cosine', index: { type: 'none' } });
  await c.upsert([rec('same', [1, 0]), rec('opposite', [-1, 0])]);
  expect((await c.recall({ vector: Float32Array.from([1, 0]), k: 2 })).map((h) => h.id)).toEqual(['same']);
  await store.dropCollection('opposite');
});

test('metrics other than cosine and ANN indexes are refused (Mastra scores by cosine only)', async () => {
  await expect(store.createCollection({ name: 'l2', dim: 2, metric: 'l2', index: { type: 'none' } })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
});

test("libSQL's refusals keep their codes: NaN / ±Infinity INVALID_VECTOR, a query of another dimension DIMENSION_MISMATCH", async () => {
  const c = await store.createCollection({ name: 'refusals', dim: 3, metric: 'cosine', index: { type: 'none' } });
  await c.upsert([rec('a', [1, 0, 0])]);
  // LibSQLVector JSON-stringifies the vector: NaN and ±Infinity reach libSQL as null ("vector: invalid float").
  await expect(c.upsert([rec('b', [0, 1, 0]), rec('nan', [Number.NaN, 0, 1])])).rejects.toMatchObject({ code: 'INVALID_VECTOR' });
  await expect(c.upsert([rec('inf', [Number.NEGATIVE_INFINITY, 0, 1])])).rejects.toMatchObject({ code: 'INVALID_VECTOR' });
  // "vector_distance: vectors must have the same length: 3 != 2"
  await expect(c.recall({ vector: Float32Array.from([1, 0]), k: 1 })).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
  expect(await c.count()).toBe(1);
  await store.dropCollection('refusals');
});

test('a zero vector is stored and never recalled; a closed store still writes (README findings 7 and 8)', async () => {
  const c = await store.createCollection({ name: 'zero', dim: 2, metric: 'cosine', index: { type: 'none' } });
  await c.upsert([rec('unit', [1, 0]), rec('zero', [0, 0])]);
  expect(await c.count()).toBe(2);
  expect((await c.recall({ vector: Float32Array.from([1, 0]), k: 2 })).map((h) => h.id)).toEqual(['unit']);
  const closing = openMastraLibsql(dir);
  const handle = await closing.openCollection('zero');
  await closing.close();
  await expect(handle.count()).rejects.toMatchObject({ code: 'BACKEND_ERROR' });
  await handle.upsert([rec('after-close', [0, 1])]);
  expect(await c.count()).toBe(3);
  await store.dropCollection('zero');
});
