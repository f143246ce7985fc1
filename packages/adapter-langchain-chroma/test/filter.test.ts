import { evaluateFilter, type RecallHit } from '@memory-matrix/spec';
import { filterSetRecords, goldenFilterSet, runnableCases } from '@memory-matrix/spec/test/filter-set-cases';
import { CHROMA_PLAIN_FILTER_OPERATORS } from '@memory-matrix/adapter-chroma';
import { startTestServer, type TestServer } from '../../adapter-chroma/test/helpers/server';
import { connectLangchainChroma, filterToWhere, type LangchainChromaStore } from '../src';

/**
 * The golden filter set (golden-data/filters/agent-memories.jsonl) through LangChain.js `Chroma`
 * (`similaritySearchVectorWithScore(vector, k, filter)`, the filter handed to Chroma as its
 * `where` unchanged) on a real Chroma 1.0.0: every flat case the declared operators cover. The
 * documents hold metadata as it is, so a null is dropped by Chroma (README "Filters"): the cases
 * with a null operand are the ones that differ from the reference, and only those.
 */
const { dataset, set } = goldenFilterSet();
const cases = runnableCases(set, CHROMA_PLAIN_FILTER_OPERATORS, []);
const queries = new Map(dataset.queries.map((q) => [q.id, q.vector]));
const { records } = filterSetRecords(dataset);
const byId = new Map(records.map((r) => [r.id, r]));
const readsNull = (expr: unknown) => /[:[,]null[\],}]/.test(JSON.stringify(expr));

let server: TestServer;
let store: LangchainChromaStore;
beforeAll(async () => {
  server = await startTestServer();
  store = await connectLangchainChroma({ url: `http://127.0.0.1:${server.port}`, chromadb: '3' });
}, 60_000);
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

test('the where LangChain hands Chroma for a filter with every declared operator', () => {
  const where = filterToWhere({
    namespaces: ['u1'],
    where: {
      op: '$and',
      args: [
        { op: '$gte', field: { root: 'metadata', path: ['importance'] }, value: 2.5 },
        { op: '$ne', field: { root: 'metadata', path: ['stance'] }, value: null },
      ],
    },
  });
  expect(where).toEqual({ $and: [{ 'mm.ns': { $in: ['u1'] } }, { $or: [{ $and: [{ importance: { $gte: 2.5 } }, { importance: { $ne: 2 } }] }, { importance: { $gte: 3 } }] }] });
});

test('golden filter set: recall returns only ids passing the filter and count matches, except the null cases', async () => {
  const c = await store.createCollection({
    name: `filter_set_${process.pid}`,
    dim: dataset.manifest.dim,
    metric: set.header.metric,
    index: { type: 'hnsw', m: 16, efConstruction: 100, efSearch: 200 },
  });
  await c.upsert(records);
  const wrong = new Map<string, string>();
  for (const fc of cases) {
    const n = await c.count({ where: fc.expr });
    if (n !== fc.matching) wrong.set(fc.name, `count ${n}, expected ${fc.matching}`);
    for (const qid of set.header.queries) {
      const hits: RecallHit[] = await c.recall({ vector: queries.get(qid)!, k: set.header.k, filter: { where: fc.expr } });
      const bad = hits.find((h) => !evaluateFilter(fc.expr, byId.get(h.id)!));
      if (bad) wrong.set(fc.name, `${qid}: ${bad.id} does not pass`);
    }
  }
  const nullCases = cases.filter((fc) => readsNull(fc.expr)).map((fc) => fc.name);
  expect([...wrong.keys()].filter((name) => !nullCases.includes(name))).toEqual([]);
  expect([...wrong.keys()].sort()).toEqual(expect.arrayContaining(['eq-null']));
  console.log(`null cases that differ: ${[...wrong].map(([n, w]) => `${n} (${w})`).join('; ')}`);
}, 600_000);
