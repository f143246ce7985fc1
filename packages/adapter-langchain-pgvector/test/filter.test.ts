import type { MemoryCollection, MemoryStore, RecallHit } from '@memory-matrix/spec';
import { caseProblems, filterSetRecords, goldenFilterSet, runnableCases } from '@memory-matrix/spec/test/filter-set-cases';
import { parseFilter } from '@memory-matrix/spec';
import { compileLangchainFilter, connectLangchainPgvector, LANGCHAIN_PGVECTOR_FILTER_OPERATORS } from '../src';
import { servedPGlite, serverProblem } from './helpers/server';

/**
 * The golden filter set (golden-data/filters/agent-memories.jsonl) through LangChain.js's
 * PGVectorStore on PGlite 0.5 (PostgreSQL 18 + pgvector 0.8.7, served on a loopback port): every
 * case whose operators the driver declares (flat metadata only: the contract stores no nested or
 * array values), the exact path (no index), ids compared with the case's filtered top-k under the
 * tie rule. The client's SQL differs from the reference (README "Filters"), so the cases it gets
 * wrong are named here, each with the difference that makes it wrong; every other case must pass.
 */
const FINDINGS = new Map<string, string>([
  ['eq-null', '`{ k: null }` sends `->> = NULL`: matches nothing'],
  ['in-null-and-string', '`in: [null, …]`: `->> IN (NULL, …)` never holds for NULL'],
  ['ne-null', '`neq: null` compares with the text "null" and keeps `->> IS NULL`: a stored null matches'],
  ['nin-missing-matches', '`notIn`: `->> NOT IN (…)` is NULL for a missing key: the row is dropped'],
  ['nin-null', '`notIn: [null, ""]`: NOT IN with a NULL is never true: matches nothing'],
]);

const { dataset, set } = goldenFilterSet();
const cases = runnableCases(set, LANGCHAIN_PGVECTOR_FILTER_OPERATORS, []);
const queries = new Map(dataset.queries.map((q) => [q.id, q.vector]));

const compile = (json: unknown) => compileLangchainFilter({ where: parseFilter(json, 'test') }, 'test');
const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? 'no code';
  }
};

test('compiles to one flat client object: keys ANDed, operators per key, createdAt as epoch µs', () => {
  expect(
    compile({
      $and: [{ 'metadata.year': { $gte: 1900 } }, { 'metadata.year': { $lt: 1950 } }, { kind: 'fact' }, { 'metadata.tag': { $nin: [] } }],
      createdAt: { $gt: { $date: '2024-06-01T00:00:00.000001Z' } },
    }),
  ).toEqual({ year: { gte: 1900, lt: 1950 }, mm_kind: 'fact', mm_created_us: { gt: Date.parse('2024-06-01T00:00:00Z') * 1000 + 1 } });
  expect(compile({ 'metadata.n': { $eq: 0, $ne: 1 } })).toEqual({ n: { in: [0], neq: 1 } });
});

test('refuses what the client cannot hold, naming it', () => {
  expect(codeOf(() => compile({ $or: [{ kind: 'fact' }, { kind: 'summary' }] }))).toBe('CAPABILITY_MISSING');
  expect(codeOf(() => compile({ 'metadata.a.b': 1 }))).toBe('CAPABILITY_MISSING');
  expect(codeOf(() => compile({ 'metadata.a': { $in: [] } }))).toBe('CAPABILITY_MISSING');
  expect(codeOf(() => compile({ $and: [{ 'metadata.a': { $ne: 1 } }, { 'metadata.a': { $ne: 2 } }] }))).toBe('CAPABILITY_MISSING');
  expect(codeOf(() => compile({ "metadata.it's": 1 }))).toBe('INVALID_INPUT');
  expect(codeOf(() => compile({ 'metadata.mm_id': 'x' }))).toBe('INVALID_INPUT');
});

if (serverProblem('langchain-pgvector filter set') === null) {
  describe('golden filter set through PGVectorStore on pglite-0.5 (exact path)', () => {
    let server: Awaited<ReturnType<typeof servedPGlite>>;
    let store: MemoryStore;
    let coll: MemoryCollection;

    beforeAll(async () => {
      server = await servedPGlite('langchain-pgvector filter test');
      store = await connectLangchainPgvector(server.address);
      coll = await store.createCollection({ name: 'filter_set', dim: dataset.manifest.dim, metric: set.header.metric, index: { type: 'none' } });
      const { records } = filterSetRecords(dataset);
      for (let i = 0; i < records.length; i += 500) await coll.upsert(records.slice(i, i + 500));
    }, 300_000);
    afterAll(async () => {
      await store?.close();
      await server?.close();
    });

    it('runs every case without $or, $not, $exists or a nested / array shape', () => {
      expect(cases.length).toBeGreaterThan(40);
      expect(cases.some((c) => c.operators.includes('$or') || c.operators.includes('$not') || c.operators.includes('$exists'))).toBe(false);
    });

    it('returns the expected ids for every case but the client’s findings', async () => {
      const failed = new Map<string, string[]>();
      for (const c of cases) {
        for (const qid of set.header.queries) {
          const hits: RecallHit[] = await coll.recall({ vector: queries.get(qid)!, k: set.header.k, scan: 'exact', filter: { where: c.expr } });
          const p = caseProblems(set, c, qid, hits);
          if (p.length) failed.set(c.name, [...(failed.get(c.name) ?? []), ...p]);
        }
      }
      expect([...failed.keys()].sort()).toEqual([...FINDINGS.keys()].sort());
    }, 600_000);

    it('count under a filter is the count of the client’s own WHERE (the findings differ from the case matching)', async () => {
      const wrong: string[] = [];
      for (const c of cases) {
        const n = await coll.count({ where: c.expr });
        if (n !== c.matching) wrong.push(c.name);
      }
      expect(wrong.sort()).toEqual([...FINDINGS.keys()].sort());
    }, 300_000);
  });
}
