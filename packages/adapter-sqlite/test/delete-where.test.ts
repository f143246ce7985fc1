import { sqliteEmbeddedEngine, type SqliteEngine } from '../src';
import { deleteWhereProblems } from '@memory-matrix/spec/test/delete-where-cases';

/**
 * `deleteWhere` on real better-sqlite3 + sqlite-vec (spec/test/delete-where-cases.ts): deletes by
 * namespace + `where`, metadata and `where` alone remove exactly the reference's matches from both
 * the table and the vec0 index (get, count, exact recall), and an empty filter is refused.
 */
let engine: SqliteEngine;
beforeAll(async () => {
  engine = await sqliteEmbeddedEngine();
});
afterAll(async () => engine?.stop());

it('deletes exactly what the filter matches, verified by reading', async () => {
  const store = await engine.connect();
  const coll = await store.createCollection({ name: 'delete_where', dim: 3, metric: 'cosine', index: { type: 'none' } });
  expect(await deleteWhereProblems(coll)).toEqual([]);
  await store.close();
});
