import { parseFilter, type MemoryRecord, type RecallHit } from '@memory-matrix/spec';
import { LANCEDB_FILTER_OPERATORS, lancedbEmbeddedEngine, type LancedbCollection, type LancedbEngine } from '../src';
import { caseProblems, filterSetRecords, goldenFilterSet, runnableCases } from '@memory-matrix/spec/test/filter-set-cases';

/**
 * The golden filter set (golden-data/filters/agent-memories.jsonl) through real LanceDB 0.37
 * (embedded): every case whose operators the adapter declares and whose shapes it stores (flat
 * metadata only: no `nested` or `array` case), the exact path, ids compared with the case's
 * filtered top-k under the tie rule, and `count` under the same filter.
 */
const { dataset, set } = goldenFilterSet();
const cases = runnableCases(set, LANCEDB_FILTER_OPERATORS, []);
const queries = new Map(dataset.queries.map((q) => [q.id, q.vector]));

describe('golden filter set on lancedb (exact path)', () => {
  let engine: LancedbEngine;
  let coll: LancedbCollection;

  beforeAll(async () => {
    engine = await lancedbEmbeddedEngine();
    const store = await engine.connect();
    coll = (await store.createCollection({ name: 'filter_set', dim: dataset.manifest.dim, metric: set.header.metric, index: { type: 'none' } })) as LancedbCollection;
    await coll.upsert(filterSetRecords(dataset).records);
  }, 120_000);
  afterAll(async () => engine?.stop());

  it('runs every flat case (the nested and array ones need shapes this table does not store)', () => {
    expect(cases.length).toBe(set.cases.filter((c) => c.shapes.length === 0).length);
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

describe('where with hostile keys and values (lancedb)', () => {
  let engine: LancedbEngine;
  beforeAll(async () => {
    engine = await lancedbEmbeddedEngine();
  });
  afterAll(async () => engine?.stop());

  it('matches keys and values literally, numbers and instants by value, and refuses $contains', async () => {
    const store = await engine.connect();
    const c = await store.createCollection({ name: 'hostile_where', dim: 2, metric: 'cosine', index: { type: 'none' } });
    const key = `k'"\\]`;
    const rec = (id: string, createdAt: string, metadata: MemoryRecord['metadata']): MemoryRecord => ({
      id,
      namespace: 'ns',
      kind: 'fact',
      text: id,
      createdAt,
      metadata,
      embedding: Float32Array.from([1, 0]),
    });
    await c.upsert([
      rec('a', '2024-05-01T09:30:00.123Z', { [key]: 5, other: "' OR '1'='1" }),
      rec('b', '2024-05-01T09:30:00.123456Z', { [key]: '5' }),
      rec('c', '2024-05-01T09:30:00.124Z', { [key]: 1e21, x: `["${key}",9]` }),
      rec('d', '2024-05-01T09:30:00.125Z', {}),
    ]);
    const ids = async (f: unknown) => (await c.recall({ vector: Float32Array.from([1, 0]), k: 10, scan: 'exact', filter: { where: parseFilter(f) } })).map((h) => h.id).sort();
    const mk = `metadata.${key.replace(/\\/g, '\\\\')}`;
    expect(await ids({ [mk]: { $gte: 5 } })).toEqual(['a', 'c']);
    expect(await ids({ [mk]: { $eq: '5' } })).toEqual(['b']);
    expect(await ids({ [mk]: { $ne: 5 } })).toEqual(['b', 'c', 'd']);
    expect(await ids({ [mk]: { $exists: false } })).toEqual(['d']);
    expect(await ids({ 'metadata.other': "' OR '1'='1" })).toEqual(['a']);
    expect(await ids({ createdAt: { $gt: { $date: '2024-05-01T09:30:00.123Z' } } })).toEqual(['b', 'c', 'd']);
    expect(await ids({ $not: { [mk]: { $lt: 2 } } })).toEqual(['a', 'b', 'c', 'd']);
    await expect(c.recall({ vector: Float32Array.from([1, 0]), k: 1, filter: { where: parseFilter({ 'metadata.x': { $contains: 1 } }) } })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
  });
});
