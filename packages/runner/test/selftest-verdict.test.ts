/**
 * The selftest's verdicts, table and exit status (src/selftest/model.ts, render.ts, run.ts
 * `mutantCheckOrder`, catalogue-run.ts `stopAtFirstFailure`): pure functions over check results.
 * No backend.
 */
import { CHECKS, type CheckResult } from '@memory-matrix/spec';
import { stopAtFirstFailure } from '../src/selftest/catalogue-run';
import { exitCodeOf, judgeClean, judgeMutant, notApplicable, summarize, type CatalogueRun, type TargetSelftest } from '../src/selftest/model';
import { renderSelftestConsole, renderSelftestMarkdown, summaryLine, verdictText } from '../src/selftest/render';
import path from 'node:path';
import { loadCatalog } from '@memory-matrix/targets';
import { FIRST_ORDER, mutantCheckOrder, slowChecks } from '../src/selftest/run';
import { REPO } from './cli-helpers';
import { MatrixRuntime } from '../src/runtime';

const M = { name: 'k-minus-one', family: 'result-count', bug: 'recall returns at most k − 1 hits' };
const result = (id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({
  id,
  name: `check ${id}`,
  status,
  figures: {},
  failures: [],
  notes: [],
  durationMs: 1,
  ...extra,
});
const failure = (message: string) => ({ dataset: 'd', target: 't', queryId: 'q', kind: 'topk' as never, message });
const run = (results: CheckResult[], setupError?: CatalogueRun['setupError']): CatalogueRun => ({ results, ms: 1500, ...(setupError ? { setupError } : {}) });

describe('judging runs', () => {
  test('a mutant is caught by every failed check, in catalogue order, with the first failure line', () => {
    const o = judgeMutant(
      M,
      run([
        result('C09', 'failed', { failures: [failure('rank 3 missing\nmore')] }),
        result('C01', 'passed'),
        result('C03', 'failed', { error: { code: 'BACKEND_ERROR', message: 'boom' } }),
        result('C05', 'skipped'),
      ]),
    );
    expect(o.status).toBe('caught');
    expect(o.caughtBy).toEqual([
      { id: 'C03', name: 'check C03', firstLine: 'BACKEND_ERROR: boom' },
      { id: 'C09', name: 'check C09', firstLine: 'rank 3 missing' },
    ]);
    expect(o.checksRun).toBe(3);
    expect(verdictText(o)).toBe('caught by C03, C09');
  });

  test('escaped when every check that ran passed or skipped; error when the cell did not start', () => {
    const esc = judgeMutant(M, run([result('C01', 'passed'), result('C05', 'skipped')]));
    expect(esc.status).toBe('escaped');
    expect(verdictText(esc)).toBe('ESCAPED');
    const err = judgeMutant(M, run([], { code: 'TARGET_UNAVAILABLE', message: 'no engine\ndetails' }));
    expect(err).toMatchObject({ status: 'error', reason: 'no engine' });
    expect(verdictText(notApplicable(M, 'capability: ttl'))).toBe('n/a (capability: ttl)');
  });

  test('a check stopped at its time limit is no catch: caught by the others, else error (not escaped)', () => {
    const timeout = (id: string) => result(id, 'failed', { error: { code: 'TIMEOUT', message: `t × d: ${id} exceeded 300000 ms` } });
    const caught = judgeMutant(M, run([result('C01', 'passed'), timeout('C02'), result('C21', 'failed', { failures: [failure('text kept')] })]));
    expect(caught).toMatchObject({ status: 'caught', caughtBy: [{ id: 'C21', name: 'check C21', firstLine: 'text kept' }], timedOut: ['C02'] });
    expect(verdictText(caught)).toBe('caught by C21 (C02 ran out of time)');
    const unknown = judgeMutant(M, run([result('C01', 'passed'), timeout('C02')]));
    expect(unknown).toMatchObject({ status: 'error', caughtBy: [], timedOut: ['C02'] });
    expect(unknown.reason).toMatch(/^no check caught it, and C02 ran out of time \(TIMEOUT: t × d: C02 exceeded 300000 ms\): a time limit of a loaded host is not a catch/);
    // The clean run: a check out of time fails it like any failure (void).
    expect(judgeClean(run([timeout('C02')]))).toMatchObject({ status: 'void', failed: ['C02'] });
  });

  test('the clean run: clean, void naming the failed checks, or error', () => {
    expect(judgeClean(run([result('C01', 'passed')])).status).toBe('clean');
    expect(judgeClean(run([result('C01', 'passed'), result('C07', 'failed', { failures: [failure('order differs')] })]))).toMatchObject({
      status: 'void',
      failed: ['C07'],
      reason: 'C07: order differs',
    });
    expect(judgeClean(run([], { message: 'did not start' }))).toMatchObject({ status: 'error', reason: 'did not start' });
  });
});

describe('summary and exit status', () => {
  const target = (mutants: TargetSelftest['mutants'], clean: TargetSelftest['clean']['status'] = 'clean'): TargetSelftest => ({
    target: 'sqlite@x',
    clean: { status: clean, failed: clean === 'void' ? ['C07'] : [], checksRun: 22, ms: 1000, ...(clean === 'void' ? { reason: 'C07: order differs' } : {}) },
    mutants,
  });
  const caught = judgeMutant(M, run([result('C02', 'failed')]));
  const escaped = judgeMutant({ ...M, name: 'get-database-order' }, run([result('C01', 'passed')]));
  const na = notApplicable({ ...M, name: 'ttl-missing-one-key' }, 'capability: ttl');

  test('caught percentage over the applicable mutants only', () => {
    const s = summarize([target([caught, caught, caught, escaped, na])]);
    expect(s).toEqual({ applicable: 4, caught: 3, escaped: 1, notApplicable: 1, errors: 0, caughtPct: 75 });
    expect(summaryLine(s)).toBe('3 of 4 mutants caught (75.0 %), 1 escaped, 1 n/a');
    expect(summarize([]).caughtPct).toBeNull();
  });

  test('exit 0 all caught, 1 one escaped, 2 void / error / run error', () => {
    expect(exitCodeOf([target([caught, na])])).toBe(0);
    expect(exitCodeOf([target([caught, escaped])])).toBe(1);
    expect(exitCodeOf([target([], 'void')])).toBe(2);
    expect(exitCodeOf([target([], 'error')])).toBe(2);
    expect(exitCodeOf([target([caught, judgeMutant(M, run([], { message: 'x' }))])])).toBe(2);
    expect(exitCodeOf([target([caught])], new Error('bad dataset'))).toBe(2);
  });

  test('the console table and the markdown name each mutant and its verdict; a void target says so', () => {
    const report = {
      format: 'memory-matrix-selftest' as const,
      version: 1 as const,
      tool: '0',
      argv: [],
      startedAt: '',
      durationMs: 61_000,
      first: true,
      dataset: 'agent-memories',
      targets: [target([caught, escaped, na]), { ...target([], 'void'), target: 'pgvector@x' }],
      summary: summarize([target([caught, escaped, na])]),
      exitCode: 2 as const,
    };
    const text = renderSelftestConsole(report);
    expect(text).toMatch(/k-minus-one\s+│ caught by C02/);
    expect(text).toMatch(/get-database-order\s+│ ESCAPED/);
    expect(text).toContain('pgvector@x: VOID — the clean run failed C07 (C07: order differs)');
    expect(text).toContain('1 of 2 mutants caught (50.0 %), 1 escaped, 1 n/a (--first');
    expect(text).toContain('wall time 61.0 s');
    const md = renderSelftestMarkdown(report);
    expect(md).toContain('| get-database-order | recall returns at most k − 1 hits | ESCAPED |  |');
    expect(md).toContain('## pgvector@x');
  });
});

describe('run order and --first', () => {
  test('--first runs FIRST_ORDER (cheap, catching checks first), unlisted checks after it, the slow tier last; without it catalogue order', () => {
    const slow = new Set(['C15', 'C16', 'C19', 'C23']);
    const order = mutantCheckOrder(CHECKS, true, slow).map((c) => c.id);
    expect(order.slice(-4)).toEqual(['C15', 'C16', 'C19', 'C23']);
    expect(order.slice(0, FIRST_ORDER.length)).toEqual([...FIRST_ORDER]);
    expect([...order].sort()).toEqual(CHECKS.map((c) => c.id)); // every check once
    expect(order.slice(0, 4)).toEqual(['C25', 'C10', 'C24', 'C01']);
    // A check FIRST_ORDER does not list (a new one) runs after the listed ones, before the slow tier; a listed check in the slow tier runs last.
    const extra = { ...CHECKS[0]!, id: 'C99', name: 'new-check' };
    expect(
      mutantCheckOrder([extra, ...CHECKS], true, new Set([...slow, 'C25']))
        .map((c) => c.id)
        .slice(FIRST_ORDER.length - 1),
    ).toEqual(['C99', 'C15', 'C16', 'C19', 'C23', 'C25']);
    // Only the selected checks, in that order.
    expect(
      mutantCheckOrder(
        CHECKS.filter((c) => ['C01', 'C08', 'C25', 'C15'].includes(c.id)),
        true,
        slow,
      ).map((c) => c.id),
    ).toEqual(['C25', 'C01', 'C08', 'C15']);
    expect(mutantCheckOrder(CHECKS, false, slow).map((c) => c.id)).toEqual(CHECKS.map((c) => c.id));
  });

  test("slowChecks: the pr-gate profile's check tier of the repository's catalog", () => {
    expect([...slowChecks(loadCatalog(path.join(REPO, 'matrix', 'targets.yaml')))].sort()).toEqual(['C15', 'C16', 'C19', 'C23', 'C31']);
  });

  test('stopAtFirstFailure: tests after the first failure do not run', async () => {
    const rt = new MatrixRuntime();
    const ran: string[] = [];
    const w = stopAtFirstFailure(rt);
    w.describe('s', () => {
      w.test('a', async () => void ran.push('a'));
      w.test('b', async () => {
        ran.push('b');
        throw new Error('caught');
      });
      w.test('c', async () => void ran.push('c'));
      w.test.skip('d');
    });
    const out = await rt.run();
    expect(ran).toEqual(['a', 'b']);
    expect(out.tests.map((t) => t.status)).toEqual(['passed', 'failed', 'passed', 'skipped']);
  });
});
