import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MemoryCollection, MemoryStore } from '@memory-matrix/spec';
import { caseProblems, filterSetRecords, goldenFilterSet, runnableCases } from '@memory-matrix/spec/test/filter-set-cases';
import { compileMem0Filter, Mem0Store, MEM0_FILTER_OPERATORS } from '../src';

/**
 * The golden filter set (golden-data/filters/agent-memories.jsonl) through mem0ai 3.3.1's
 * `Memory` on its embedded store: every case whose operators the driver declares (flat metadata:
 * the contract stores no nested or array values). mem0 filters in JS over every row, the same
 * `filterVector` for `getAll` and `search`, so every case is checked by `count` (getAll, the whole
 * filtered set) against the case's matching count, and a sample by recall (one search takes
 * seconds; C31 in the matrix runs them all). The cases mem0's JS comparisons get wrong are named,
 * each with the difference (README "Filters").
 */
const FINDINGS = new Map<string, string>([
  ['range-never-boolean', 'JS `>=` converts booleans to numbers: `false >= 0` holds'],
  ['range-never-string', 'JS `>=` converts strings to numbers: `"" >= 0` holds'],
]);

const { dataset, set } = goldenFilterSet();
const cases = runnableCases(set, MEM0_FILTER_OPERATORS, []);
const queries = new Map(dataset.queries.map((q) => [q.id, q.vector]));

test('compiles to the store-level $and / $or / $not lists, one operator per leaf, createdAt as epoch µs', () => {
  const c = set.cases.find((x) => x.name === 'tenant-kind-after-date')!;
  expect(compileMem0Filter({ where: c.expr }, 'test')).toEqual({
    agent_id: 'memory-matrix',
    $and: [{ $and: [{ mm_namespace: { eq: 'user-001' } }, { mm_kind: { eq: 'fact' } }, { mm_created_us: { gt: Date.parse('2024-06-01T00:00:00.000Z') * 1000 } }] }],
  });
  const n = set.cases.find((x) => x.name === 'not-or')!;
  expect(compileMem0Filter({ where: n.expr }, 'test').$and).toEqual([{ $not: [{ $or: [{ tag: { eq: 'work' } }, { tag: { eq: 'family' } }] }] }]);
});

describe('golden filter set through mem0 (exact: mem0 scans every row)', () => {
  let dir: string;
  let store: MemoryStore;
  let coll: MemoryCollection;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mm-mem0-filter-'));
    store = new Mem0Store(dir);
    coll = await store.createCollection({ name: 'filter_set', dim: dataset.manifest.dim, metric: set.header.metric, index: { type: 'none' } });
    await coll.upsert(filterSetRecords(dataset).records);
  }, 600_000);
  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('declares every operator but $exists and $contains, and runs every flat case', () => {
    expect(cases.length).toBeGreaterThan(70);
  });

  it('count under each case equals its matching count, but for mem0’s findings', async () => {
    const wrong: string[] = [];
    for (const c of cases) if ((await coll.count({ where: c.expr })) !== c.matching) wrong.push(c.name);
    expect(wrong.sort()).toEqual([...FINDINGS.keys()].sort());
  }, 600_000);

  it('recall returns the expected ids (a sample: the first query of every fifth case and of each finding)', async () => {
    const problems: string[] = [];
    const sample = cases.filter((c, i) => i % 5 === 0 || FINDINGS.has(c.name));
    const qid = set.header.queries[0]!;
    for (const c of sample) {
      const hits = await coll.recall({ vector: queries.get(qid)!, k: set.header.k, scan: 'exact', filter: { where: c.expr } });
      if (!FINDINGS.has(c.name)) problems.push(...caseProblems(set, c, qid, hits));
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
