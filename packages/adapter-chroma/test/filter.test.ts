import { evaluateFilter, hasCode, parseFilter, type MemoryRecord, type RecallHit } from '@memory-matrix/spec';
import { caseProblems, filterSetRecords, goldenFilterSet, runnableCases } from '@memory-matrix/spec/test/filter-set-cases';
import { CHROMA_FILTER_OPERATORS, compileWhere, createChromaStore, TYPED_LAYOUT, type ChromaMemoryCollection, type ChromaStore } from '../src';
import { collName } from './helpers/data';
import { startTestServer, type TestServer } from './helpers/server';

/**
 * The golden filter set (golden-data/filters/agent-memories.jsonl) through a real Chroma 1.0.0
 * (the local bindings): every case whose operators the adapter declares and whose shapes it
 * stores (flat metadata only), `count` under the filter (Chroma's get: exact) and recall on
 * Chroma's HNSW (its only path) compared with the case's filtered top-k under the tie rule.
 * Plus the int/float operands Chroma compares wrongly on its own (README "Filters").
 */
const { dataset, set } = goldenFilterSet();
const cases = runnableCases(set, CHROMA_FILTER_OPERATORS, []);
const queries = new Map(dataset.queries.map((q) => [q.id, q.vector]));
const { records } = filterSetRecords(dataset);

let server: TestServer;
let store: ChromaStore;
beforeAll(async () => {
  server = await startTestServer();
  store = await createChromaStore({ host: '127.0.0.1', port: server.port });
}, 60_000);
afterAll(async () => server?.stop());

describe('golden filter set on chroma 1.0.0', () => {
  let coll: ChromaMemoryCollection;
  beforeAll(async () => {
    const spec = { name: collName('filter_set'), dim: dataset.manifest.dim, metric: set.header.metric, index: { type: 'hnsw' as const, m: 16, efConstruction: 100, efSearch: 200 } };
    coll = (await store.createCollection(spec)) as ChromaMemoryCollection;
    await coll.upsert(records);
  }, 300_000);

  it('runs every flat case without $contains', () => {
    expect(cases.length).toBeGreaterThan(70);
    expect(cases.every((c) => c.shapes.length === 0)).toBe(true);
  });

  it('count under a filter equals the case matching', async () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const n = await coll.count({ where: c.expr });
      if (n !== c.matching) wrong.push(`${c.name}: count ${n}, expected ${c.matching}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it("recall (HNSW, Chroma's only path) returns only ids that pass the filter, min(k, matching) of them", async () => {
    const byId = new Map(records.map((r) => [r.id, r]));
    const problems: string[] = [];
    let exact = 0;
    let asked = 0;
    for (const c of cases) {
      for (const qid of set.header.queries) {
        const hits: RecallHit[] = await coll.recall({ vector: queries.get(qid)!, k: set.header.k, filter: { where: c.expr } });
        for (const h of hits) if (!evaluateFilter(c.expr, byId.get(h.id)!)) problems.push(`${c.name} ${qid}: ${h.id} does not pass the filter`);
        if (hits.length !== Math.min(set.header.k, c.matching)) problems.push(`${c.name} ${qid}: ${hits.length} hits, expected ${Math.min(set.header.k, c.matching)}`);
        asked++;
        if (caseProblems(set, c, qid, hits).length === 0) exact++;
      }
    }
    expect(problems).toEqual([]);
    // the ids in order are an ANN figure (C31 reports recall@k on the index path, not a verdict)
    expect(exact / asked).toBeGreaterThan(0.8);
  }, 600_000);
});

describe('where on the numbers Chroma compares wrongly (chroma 1.0.0)', () => {
  const rec = (id: string, v: unknown, createdAt = '2024-05-01T09:30:00.123Z'): MemoryRecord => ({
    id,
    namespace: 'ns',
    kind: 'fact',
    text: id,
    createdAt,
    metadata: v === undefined ? {} : { v: v as never },
    embedding: Float32Array.from([1, id.length, 0]),
  });
  let coll: ChromaMemoryCollection;
  beforeAll(async () => {
    coll = (await store.createCollection({ name: collName('where_num'), dim: 3, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 100, efSearch: 200 } })) as ChromaMemoryCollection;
    await coll.upsert([
      rec('i0', 0),
      rec('i1', 1, '2024-05-01T09:30:00.123456Z'),
      rec('i2', 2, '2024-05-01T09:30:00.124Z'),
      rec('im2', -2),
      rec('f1.5', 1.5),
      rec('f-2.5', -2.5),
      rec('s1', '1'),
      rec('bF', false),
      rec('nul', null),
      rec('none', undefined),
    ]);
  }, 60_000);

  const ids = async (f: unknown) => {
    const expr = parseFilter(f);
    const hits = await coll.recall({ vector: Float32Array.from([1, 1, 0]), k: 20, filter: { where: expr } });
    return hits.map((h) => h.id).sort();
  };

  it('keeps integers and non-integer operands apart (Chroma alone compares the integer with trunc(v))', async () => {
    expect(await ids({ 'metadata.v': 1.5 })).toEqual(['f1.5']);
    expect(await ids({ 'metadata.v': { $in: [1.5, 2] } })).toEqual(['f1.5', 'i2']);
    expect(await ids({ 'metadata.v': { $gte: 1.5 } })).toEqual(['f1.5', 'i2']);
    expect(await ids({ 'metadata.v': { $gte: 1.5 } })).not.toContain('i1');
    expect(await ids({ 'metadata.v': { $lt: 1.5 } })).toEqual(['f-2.5', 'i0', 'i1', 'im2']);
    expect(await ids({ 'metadata.v': { $gt: -2.5 } })).toEqual(['f1.5', 'i0', 'i1', 'i2', 'im2']);
    expect(await ids({ 'metadata.v': { $lte: -2.5 } })).toEqual(['f-2.5']);
    expect(await ids({ 'metadata.v': { $ne: 1.5 } })).toEqual(['bF', 'f-2.5', 'i0', 'i1', 'i2', 'im2', 'none', 'nul', 's1']);
    expect(await ids({ 'metadata.v': { $nin: [1.5, -2.5, 0] } })).toEqual(['bF', 'i1', 'i2', 'im2', 'none', 'nul', 's1']);
  }, 60_000);

  it('is type-strict: 0, false, "1", null and a missing key are different', async () => {
    expect(await ids({ 'metadata.v': 0 })).toEqual(['i0']);
    expect(await ids({ 'metadata.v': false })).toEqual(['bF']);
    expect(await ids({ 'metadata.v': '1' })).toEqual(['s1']);
    expect(await ids({ 'metadata.v': null })).toEqual(['nul']);
    expect(await ids({ 'metadata.v': { $in: [null, '1', 1] } })).toEqual(['i1', 'nul', 's1']);
    expect(await ids({ 'metadata.v': { $gt: -10 } })).toEqual(['f-2.5', 'f1.5', 'i0', 'i1', 'i2', 'im2']);
  }, 60_000);

  it('compares createdAt by instant, microseconds included', async () => {
    expect(await ids({ createdAt: { $gt: { $date: '2024-05-01T09:30:00.123Z' } }, 'metadata.v': { $gte: 0 } })).toEqual(['i1', 'i2']);
    expect(await ids({ createdAt: { $lte: { $date: '2024-05-01T09:30:00.123456Z' } }, 'metadata.v': { $gt: 0 } })).toEqual(['f1.5', 'i1']);
    expect(await ids({ createdAt: { $date: '2024-05-01T11:30:00.123456+02:00' } })).toEqual(['i1']);
  }, 60_000);

  it('answers $exists and $not on the type tags: a missing key, a string or null is not a number', async () => {
    expect(await ids({ 'metadata.v': { $exists: true } })).toEqual(['bF', 'f-2.5', 'f1.5', 'i0', 'i1', 'i2', 'im2', 'nul', 's1']);
    expect(await ids({ 'metadata.v': { $exists: false } })).toEqual(['none']);
    expect(await ids({ $not: { 'metadata.v': { $gt: 0 } } })).toEqual(['bF', 'f-2.5', 'i0', 'im2', 'none', 'nul', 's1']);
    expect(await ids({ 'metadata.v': { $not: { $gte: 1.5 } } })).toEqual(['bF', 'f-2.5', 'i0', 'i1', 'im2', 'none', 'nul', 's1']);
    expect(await ids({ $not: { $or: [{ 'metadata.v': { $in: [0, '1'] } }, { 'metadata.v': { $exists: false } }] } })).toEqual(['bF', 'f-2.5', 'f1.5', 'i1', 'i2', 'im2', 'nul']);
    expect(await ids({ $not: { $not: { 'metadata.v': null } } })).toEqual(['nul']);
    expect(await ids({ $not: { createdAt: { $gt: { $date: '2024-05-01T09:30:00.123Z' } } }, 'metadata.v': { $gte: 1 } })).toEqual(['f1.5']);
  }, 60_000);

  it('refuses $contains with CAPABILITY_MISSING (no array layout)', async () => {
    const f = { 'metadata.v': { $contains: 'x' } };
    const err = await coll.count({ where: parseFilter(f) }).catch((e: unknown) => e);
    expect(hasCode(err, 'CAPABILITY_MISSING')).toBe(true);
    let thrown: unknown;
    try {
      compileWhere(parseFilter(f), TYPED_LAYOUT);
    } catch (e) {
      thrown = e;
    }
    expect(hasCode(thrown, 'CAPABILITY_MISSING')).toBe(true);
  });
});
