/**
 * Issue 31 kind 9 (a): when a cell's store hangs or dies mid-cell, the later checks of the cell are
 * recorded not run with ONE cause ("… stopped answering during X02 …"), not as failures of their
 * own. A real toy store (fixtures/toy-driver) that starts hanging or refusing on demand; the same
 * runtime and registration as `pnpm matrix` (MatrixRuntime, registerConformance). No backend.
 */
import { MemoryMatrixError, type CheckDefinition, type CheckResult, type MemoryStore } from '@memory-matrix/spec';
import { type RanTest } from '../src/runtime';
import { renderConsole } from '../src/report/console';
import { renderMarkdown } from '../src/report/markdown';
import { emptyReport } from '../src/report/model';
import { settleReport } from '../src/report/settle';
import { reportView } from '../src/report/view';
import { runToyCell } from './cli-helpers';
import { cellReport } from './report-fixtures';

// The limits below are exact (a 1.5 s hang outlasts them): a fixed host factor of 1 (spec host.ts), whatever the load.
beforeAll(() => {
  process.env.MM_HOST_FACTOR = '1';
});
afterAll(() => {
  delete process.env.MM_HOST_FACTOR;
});

type Mode = 'ok' | 'hang' | 'dead';

/**
 * A toy store (and every collection it gives) whose every call hangs (`hang`: for 1.5 s, longer
 * than the check's and the probe's limits here, then a timeout error, so the cell's cleanup ends)
 * or throws a connection error (`dead`) once `state.mode` says so.
 */
function faulty<T extends object>(target: T, state: { mode: Mode }): T {
  const gate = async (f: () => Promise<unknown>): Promise<unknown> => {
    if (state.mode === 'hang') return new Promise((_, reject) => setTimeout(() => reject(new MemoryMatrixError('BACKEND_ERROR', 'toy: timeout')), 1500));
    if (state.mode === 'dead') throw new MemoryMatrixError('BACKEND_ERROR', 'toy: connect ECONNREFUSED 127.0.0.1:1');
    const out = await f();
    return out && typeof out === 'object' && 'recall' in out ? faulty(out, state) : out; // collections carry the fault too
  };
  return new Proxy(target, {
    get: (t, p) => {
      const v = Reflect.get(t, p) as unknown;
      return typeof v === 'function' ? (...a: unknown[]) => gate(() => Promise.resolve((v as (...x: unknown[]) => unknown).apply(t, a))) : v;
    },
  });
}

const check = (id: string, run: CheckDefinition['run'], timeoutMs?: number): CheckDefinition => ({
  id,
  name: `probe-${id.toLowerCase()}`,
  requires: () => null,
  run,
  ...(timeoutMs ? { timeoutMs } : {}),
});

async function runCell(checks: CheckDefinition[], state: { mode: Mode }): Promise<{ results: CheckResult[]; tests: RanTest[] }> {
  state.mode = 'ok';
  return runToyCell(checks, { wrap: (s) => faulty<MemoryStore>(s, state), options: { livenessLimitMs: 200 } });
}

const passes = check('X01', async (cell) => {
  await cell.loaded();
  return { figures: {}, failures: [] };
});

test('a store that hangs during X02: X02 TIMEOUT, X03 and X04 not run with one cause naming X02', async () => {
  const state = { mode: 'ok' as Mode };
  const hangs = check(
    'X02',
    async (cell) => {
      state.mode = 'hang';
      await (await cell.loaded()).collection.count();
      return { figures: {}, failures: [] };
    },
    300,
  );
  let ran = 0;
  const later = (id: string) =>
    check(id, async () => {
      ran++;
      return { figures: {}, failures: [] };
    });
  const t0 = performance.now();
  const { results } = await runCell([passes, hangs, later('X03'), later('X04')], state);
  expect(performance.now() - t0).toBeLessThan(15_000); // no check waits for a limit of its own after the probe
  expect(ran).toBe(0);
  const byId = new Map(results.map((r) => [r.id, r]));
  expect(byId.get('X01')).toMatchObject({ status: 'passed' });
  expect(byId.get('X02')).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
  const cause = 'not run: toy@1 stopped answering during X02 probe-x02 (it did not finish within its time limit; a liveness probe did not answer serverInfo within 200 ms)';
  for (const id of ['X03', 'X04']) expect(byId.get(id)).toMatchObject({ status: 'failed', error: { code: 'NOT_RUN', message: cause } });
}, 120_000);

test('a store that dies during X02 (X02 throws): the later checks are not run, with the probe error named', async () => {
  const state = { mode: 'ok' as Mode };
  const dies = check('X02', async (cell) => {
    state.mode = 'dead';
    await (await cell.loaded()).collection.count();
    return { figures: {}, failures: [] };
  });
  const { results } = await runCell([passes, dies, check('X03', async () => ({ figures: {}, failures: [] }))], state);
  const x03 = results.find((r) => r.id === 'X03')!;
  expect(x03).toMatchObject({ status: 'failed', error: { code: 'NOT_RUN' } });
  expect(x03.error!.message).toBe(
    'not run: toy@1 stopped answering during X02 probe-x02 (it failed with BACKEND_ERROR: toy: connect ECONNREFUSED 127.0.0.1:1; a liveness probe serverInfo failed: BACKEND_ERROR: toy: connect ECONNREFUSED 127.0.0.1:1)',
  );
}, 60_000);

test('a check that throws while the store still answers: the next checks run (one probe, no cascade)', async () => {
  const state = { mode: 'ok' as Mode };
  const throws = check('X02', async () => {
    throw new MemoryMatrixError('INVALID_INPUT', 'X02: dataset too small');
  });
  const fails = check('X03', async () => ({ figures: {}, failures: [{ kind: 'count', message: 'a verdict, not an error' }] as never }));
  const { results } = await runCell([passes, throws, fails, passes], state);
  expect(results.map((r) => [r.id, r.status, r.error?.code])).toEqual([
    ['X01', 'passed', undefined],
    ['X02', 'failed', 'INVALID_INPUT'],
    ['X03', 'failed', undefined],
    ['X01', 'passed', undefined],
  ]);
}, 60_000);

test('console and report.md: the checks not run are named once with their one cause; a cell whose cleanup failed after its checks ran is not "could not run"', () => {
  const cause =
    'not run: chroma@1.0 stopped answering during C04 topk-under-filter (it failed with BACKEND_ERROR: connect ECONNREFUSED; a liveness probe serverInfo failed: BACKEND_ERROR: connect ECONNREFUSED)';
  const ok = (id: string): CheckResult => ({ id, name: id, status: 'passed', figures: {}, failures: [], notes: [], durationMs: 1 });
  const notRun = (id: string): CheckResult => ({ id, name: id, status: 'failed', figures: {}, failures: [], notes: [], durationMs: 0, error: { code: 'NOT_RUN', message: cause } });
  const r = emptyReport([], '2026-12-05T00:00:00.000Z');
  r.loadOrder = { seed: 31, method: 'Fisher-Yates shuffle driven by mulberry32(seed)' };
  r.cells.push(
    cellReport('chroma@1.0', [ok('C01'), { ...ok('C04'), status: 'failed', error: { code: 'BACKEND_ERROR', message: 'connect ECONNREFUSED' } }, notRun('C06'), notRun('C07')], {
      status: 'error',
      error: { code: 'BACKEND_ERROR', message: 'cleanup of chroma@1.0 failed: connect ECONNREFUSED' },
      timings: { startMs: 900, loadMs: 1200, indexMs: 300 }, // the golden memories were loaded (C04 read them): the load order is named
    }),
  );
  const view = reportView(settleReport(r));
  const text = renderConsole(view, false);
  expect(text).toContain(`chroma@1.0: 2 check(s) not run (C06, C07): ${cause}`);
  expect(text).toContain('chroma@1.0: error: cleanup of chroma@1.0 failed');
  expect(text).not.toContain('could not run:');
  expect(text).toContain('seed 31: --load-seed 31 replays it');
  const md = renderMarkdown(view);
  expect(md).toContain(`**chroma@1.0**: 2 check(s) not run (C06, C07): ${cause}`);
  expect(md).not.toContain('<summary>chroma@1.0 C06');
  expect(md).toContain('--load-seed 31');
});

test('no load order is named when no cell loaded the golden memories (a run stopped before any load)', () => {
  const r = emptyReport([], '2026-12-05T00:00:00.000Z');
  r.loadOrder = { seed: 31, method: 'Fisher-Yates shuffle driven by mulberry32(seed)' };
  r.cells.push(cellReport('chroma@1.0', [{ id: 'C01', name: 'C01', status: 'passed', figures: {}, failures: [], notes: [], durationMs: 1 }]));
  const view = reportView(settleReport(r));
  expect(renderConsole(view, false)).not.toContain('--load-seed');
  expect(renderMarkdown(view)).not.toContain('--load-seed');
});
