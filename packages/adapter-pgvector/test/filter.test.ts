import type { RecallHit } from '@memory-matrix/spec';
import { createPgvectorStore, PGVECTOR_FILTER_OPERATORS, type PGliteLike, type PgvectorCollection, type PgvectorStore } from '../src';
import { client, openEngine } from './helpers/engines';
import { caseProblems, filterSetRecords, goldenFilterSet, runnableCases } from '@memory-matrix/spec/test/filter-set-cases';

/**
 * The golden filter set (golden-data/filters/agent-memories.jsonl) through the real driver on
 * PGlite 0.5 (PostgreSQL 18 + pgvector 0.8.7): every case whose operators the adapter declares,
 * the exact path, ids compared with the case's filtered top-k under the tie rule. The contract
 * stores flat metadata, so the derived nested and array keys (`src`, `labels`, `scores`) are
 * written into the jsonb column with SQL after the upsert: what the compiler reads is real jsonb.
 */
const { dataset, set } = goldenFilterSet();
const cases = runnableCases(set, PGVECTOR_FILTER_OPERATORS, ['nested', 'array']);
const queries = new Map(dataset.queries.map((q) => [q.id, q.vector]));

describe('golden filter set on pglite-0.5 (exact path)', () => {
  let db: PGliteLike;
  let store: PgvectorStore;
  let coll: PgvectorCollection;

  beforeAll(async () => {
    db = await openEngine('pglite-0.5');
    store = await createPgvectorStore(client(db));
    coll = await store.createCollection({ name: 'filter_set', dim: dataset.manifest.dim, metric: set.header.metric, index: { type: 'none' } });
    const { records, shaped } = filterSetRecords(dataset);
    await coll.upsert(records);
    const ids = [...shaped.keys()];
    await db.query(`UPDATE ${coll.table} AS t SET metadata = t.metadata || u.m FROM unnest($1::text[], $2::jsonb[]) AS u(id, m) WHERE t.id = u.id`, [
      ids,
      ids.map((id) => JSON.stringify(shaped.get(id))),
    ]);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  it('declares every operator and runs every case', () => {
    expect(cases.length).toBe(set.cases.length);
  });

  it('returns the expected ids for every case and query', async () => {
    const problems: string[] = [];
    for (const c of cases) {
      for (const qid of set.header.queries) {
        const hits: RecallHit[] = await coll.recall({ vector: queries.get(qid)!, k: set.header.k, scan: 'exact', filter: { where: c.expr } });
        problems.push(...caseProblems(set, c, qid, hits));
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('count under a filter equals the case matching', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const n = await coll.count({ where: c.expr });
      if (n !== c.matching) wrong.push(`${c.name}: count ${n}, expected ${c.matching}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
