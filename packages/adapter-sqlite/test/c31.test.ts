import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  type Capabilities,
  type CheckOutcome,
  DEFAULT_TOLERANCES,
  type FilterExpr,
  FILTER_OPERATORS,
  LiveCell,
  loadGoldenDataset,
  OPERATOR_TABLE_TITLE,
  parseExpectation,
  selectChecks,
} from '@memory-matrix/spec';
import * as whereModule from '../src/where-sql';
import { SQLITE_CAPABILITIES, sqliteEmbeddedEngine, type SqliteEngine } from '../src';

/**
 * C31 filter-semantics over the SQLite driver (real better-sqlite3 + sqlite-vec, the committed
 * agent-memories dataset and its golden filter set): the real compiler passes every case it can
 * store; a case using an operator the target does not declare is listed unsupported, never run;
 * an injected compiler bug (`$ne` that drops rows missing the key, SQL three-valued logic) fails
 * the check naming the case.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const dataset = loadGoldenDataset(path.join(root, 'golden-data', 'agent-memories'));
const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
const expectation = parseExpectation(readFileSync(expectationFile, 'utf8'), expectationFile);
const c31 = selectChecks(['C31'])[0]!;

let engine: SqliteEngine;
beforeAll(async () => {
  engine = await sqliteEmbeddedEngine();
});
afterAll(async () => engine?.stop());

async function runC31(capabilities: Capabilities): Promise<CheckOutcome> {
  const cell = new LiveCell({
    target: 'sqlite@embedded (C31 test)',
    capabilities,
    tolerances: DEFAULT_TOLERANCES,
    index: { type: 'none' },
    dataset,
    expectation,
    connect: () => engine.connect(),
  });
  try {
    return await c31.run(cell);
  } finally {
    await cell.dispose();
  }
}

const operatorRow = (out: CheckOutcome, op: string) => out.tables!.find((t) => t.title === OPERATOR_TABLE_TITLE)!.rows.find((r) => r[0] === op);

test('C31 on SQLite: every case runs on the exact path and passes, nested and array ones included (metadataShapes)', async () => {
  expect(c31.requires(SQLITE_CAPABILITIES)).toBeNull();
  const out = await runC31(SQLITE_CAPABILITIES);
  expect(out.failures.map((f) => f.message)).toEqual([]);
  expect(out.figures.casesRun).toBeGreaterThanOrEqual(80);
  expect(out.figures.scans).toBe('exact');
  expect(Number(out.figures.casesRun) + Number(out.figures.casesUnsupported)).toBe(out.figures.cases);
  expect(out.figures.casesUnsupported).toBe(0);
  expect(operatorRow(out, '$ne')).toEqual(['$ne', 'pass', expect.any(Number), 0, 0]);
  expect(operatorRow(out, '$contains')).toEqual(['$contains', 'pass', expect.any(Number), 0, 0]);
}, 240_000);

test('an undeclared operator makes its cases unsupported; an injected $ne bug (missing keys dropped) fails C31 naming the case', async () => {
  // The mutant: a copy of the compiler whose $ne requires the key to exist (what `<>` does in SQL).
  const real = whereModule.whereSql;
  const mutate = (e: FilterExpr): FilterExpr => {
    if (e.op === '$and' || e.op === '$or') return { ...e, args: e.args.map(mutate) };
    if (e.op === '$not') return { ...e, arg: mutate(e.arg) };
    if (e.op === '$ne' && e.field.root === 'metadata') return { op: '$and', args: [{ op: '$exists', field: e.field, exists: true }, e] };
    return e;
  };
  const spy = jest.spyOn(whereModule, 'whereSql').mockImplementation((e, params) => real(mutate(e), params));
  try {
    const caps: Capabilities = { ...SQLITE_CAPABILITIES, filterOperators: FILTER_OPERATORS.filter((o) => o !== '$nin') };
    const out = await runC31(caps);
    expect(spy).toHaveBeenCalled();
    // The case's count under the filter (kind filter-count) and its exact-path ids both fail, each naming the case.
    expect(out.failures.find((f) => f.kind === 'filter-count')?.message).toMatch(/C31 case "[a-z0-9-]+" \{.*"\$ne".*\}: count under the filter \d+, expected \d+/);
    expect(out.failures.find((f) => f.kind !== 'filter-count')?.message).toMatch(/C31 case "[a-z0-9-]+" \{.*"\$ne".*\} \(exact scan, query q-\d+, \d+ matching\): expected ids \[.*\] got \[.*\]/);
    expect(operatorRow(out, '$ne')![1]).toBe('fail');
    expect(operatorRow(out, '$nin')).toEqual(['$nin', 'unsupported', 0, 0, expect.any(Number)]);
    const unsupported = out.tables!.find((t) => t.title === 'unsupported cases')!.rows;
    expect(unsupported.some(([, reason]) => String(reason).includes('operators $nin not in filterOperators'))).toBe(true);
  } finally {
    spy.mockRestore();
  }
}, 240_000);

test('a case whose count and recalls throw fails alone with the error (kind filter-error); every other case still runs and passes', async () => {
  // The injected refusal: every filter using $gte throws, as mem0's pgvector store does for a range over a key holding text in one row.
  const real = whereModule.whereSql;
  const usesGte = (e: FilterExpr): boolean => (e.op === '$and' || e.op === '$or' ? e.args.some(usesGte) : e.op === '$not' ? usesGte(e.arg) : e.op === '$gte');
  const spy = jest.spyOn(whereModule, 'whereSql').mockImplementation((e, params) => {
    if (usesGte(e)) throw new Error('injected: invalid input syntax for type numeric: "仕事"');
    return real(e, params);
  });
  try {
    const out = await runC31(SQLITE_CAPABILITIES);
    const gteRow = operatorRow(out, '$gte')!;
    expect(gteRow[1]).toBe('fail');
    expect(gteRow[3]).toBeGreaterThan(0);
    expect(out.figures.casesFailed).toBe(gteRow[3]);
    // Only filter-error failures, each naming its case, the call and the error; the count and each query's recall of a case.
    expect(new Set(out.failures.map((f) => f.kind))).toEqual(new Set(['filter-error']));
    const cases = new Set(out.failures.map((f) => f.filterCase));
    expect(cases.size).toBe(gteRow[3]);
    for (const f of out.failures)
      expect(f.message).toMatch(/C31 case "[a-z0-9-]+" \{.*"\$gte".*\}: (count under the filter|the exact-path recall of query q-\d+) threw .*injected: invalid input syntax for type numeric: "仕事"/);
    expect(out.failures.filter((f) => f.queryId === '(count)').length).toBe(cases.size);
    // The cases without $gte ran after the first that threw and passed.
    expect(operatorRow(out, '$gt')).toEqual(['$gt', 'pass', expect.any(Number), 0, 0]);
    expect(Number(out.figures.casesRun)).toBeGreaterThan(cases.size);
  } finally {
    spy.mockRestore();
  }
}, 240_000);
