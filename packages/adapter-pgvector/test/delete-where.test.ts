import { createPgvectorStore, type PGliteLike, type PgvectorStore } from '../src';
import { client, openEngine } from './helpers/engines';
import { deleteWhereProblems } from '@memory-matrix/spec/test/delete-where-cases';

/**
 * `deleteWhere` on PGlite 0.5 (PostgreSQL 18 + pgvector 0.8.7; spec/test/delete-where-cases.ts):
 * one `DELETE … WHERE` statement removes exactly the reference's matches (get, count, exact
 * recall), and an empty filter is refused.
 */
let db: PGliteLike;
let store: PgvectorStore;
beforeAll(async () => {
  db = await openEngine('pglite-0.5');
  store = await createPgvectorStore(client(db));
}, 120_000);
afterAll(async () => {
  await store?.close();
  await db?.close();
});

it('deletes exactly what the filter matches, verified by reading', async () => {
  const coll = await store.createCollection({ name: 'delete_where', dim: 3, metric: 'cosine', index: { type: 'none' } });
  expect(await deleteWhereProblems(coll)).toEqual([]);
}, 60_000);
