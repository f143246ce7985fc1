import { lancedbEmbeddedEngine, type LancedbEngine } from '../src';
import { deleteWhereProblems } from '@memory-matrix/spec/test/delete-where-cases';

/**
 * `deleteWhere` on real LanceDB 0.37 (embedded; spec/test/delete-where-cases.ts): one
 * `table.delete(predicate)` per call removes exactly the reference's matches (get, count, exact
 * recall), and an empty filter is refused.
 */
let engine: LancedbEngine;
beforeAll(async () => {
  engine = await lancedbEmbeddedEngine();
}, 60_000);
afterAll(async () => engine?.stop());

it('deletes exactly what the filter matches, verified by reading', async () => {
  const store = await engine.connect();
  const coll = await store.createCollection({ name: 'delete_where', dim: 3, metric: 'cosine', index: { type: 'none' } });
  expect(await deleteWhereProblems(coll)).toEqual([]);
  await store.close();
}, 60_000);
