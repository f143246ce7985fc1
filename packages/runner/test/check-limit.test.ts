/**
 * Issue 35 item 2: a check's time limit is enforced by the registration (spec register.ts), so its
 * message says what was running — the check and the step inside it (`LiveCell.noteStep`) — the
 * limit, the host factor and how to raise it; the check is recorded TIMEOUT in the sink, and a
 * check with a limit of its own keeps it. The toy store (fixtures/toy-driver), the runner's runtime.
 */
import {
  capabilities,
  DEFAULT_TOLERANCES,
  loadGoldenDataset,
  registerConformance,
  type CheckDefinition,
  type CheckResult,
  type MemoryCollection,
  type MemoryStore,
  type PreparedStep,
} from '@memory-matrix/spec';
import path from 'node:path';
import { MatrixRuntime } from '../src/runtime';
import { driver } from './fixtures/toy-driver';

beforeAll(() => {
  process.env.MM_HOST_FACTOR = '2';
});
afterAll(() => {
  delete process.env.MM_HOST_FACTOR;
});

const check = (id: string, run: CheckDefinition['run'], timeoutMs?: number): CheckDefinition => ({
  id,
  name: `probe-${id.toLowerCase()}`,
  requires: () => null,
  run,
  ...(timeoutMs ? { timeoutMs } : {}),
});

test('a check past its limit: TIMEOUT naming the check, its step, the limit × host factor and how to raise it; the next check runs', async () => {
  const engine = await driver.embedded!.engines['toy-1']!.open({ where: 'toy@1' });
  const dataset = loadGoldenDataset(path.join(__dirname, '../../spec/test/fixtures/golden-tiny'));
  const caps = capabilities({ vectors: true, metrics: ['cosine', 'ip', 'l2'] });
  const results: CheckResult[] = [];
  const rt = new MatrixRuntime();
  const slow = check('X01', async (cell) => {
    cell.noteStep('recall (exact) of 10 probes', 3);
    await new Promise((r) => setTimeout(r, 2_000));
    return { figures: {}, failures: [] };
  });
  const own = check('X02', async () => ({ figures: {}, failures: [] }), 50);
  registerConformance(
    rt,
    { target: 'toy@1', dataset: 'tiny', capabilities: caps },
    async () => ({ target: 'toy@1', capabilities: caps, tolerances: DEFAULT_TOLERANCES, index: { type: 'none' }, dataset, expectation: { entries: [] } as never, connect: () => engine.connect() }),
    { checks: [slow, own], checkTimeoutMs: 100, sink: { record: (r) => void results.push(r) }, livenessLimitMs: 1000, teardown: () => engine.close() },
  );
  const out = await rt.run();
  expect(results.map((r) => [r.id, r.status, r.error?.code])).toEqual([
    ['X01', 'failed', 'TIMEOUT'],
    ['X02', 'passed', undefined],
  ]);
  expect(results[0]!.error!.message).toBe(
    'toy@1: X01 probe-x01 exceeded 100 ms × host factor 2 = 200 ms (while recall (exact) of 10 probes, 3 done); raise it with limits.checkTimeoutMs of the target (matrix/targets.yaml or memory-matrix.yaml) or MM_CHECK_TIMEOUT_MS=<ms> for the run',
  );
  expect(out.tests[0]).toMatchObject({ status: 'failed', error: expect.objectContaining({ code: 'TIMEOUT' }) });
}, 60_000);

/** `store` with every collection's recall hanging (a store that stops answering queries); the rest as is. */
function hangRecall(store: MemoryStore): MemoryStore {
  const wrapCollection = (c: MemoryCollection): MemoryCollection => new Proxy(c, { get: (t, k) => (k === 'recall' ? () => new Promise(() => undefined) : bound(t, k)) });
  const bound = (t: object, k: string | symbol): unknown => {
    const v = Reflect.get(t, k) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
  };
  return new Proxy(store, {
    get: (t, k) => (k === 'createCollection' || k === 'openCollection' ? async (...a: unknown[]) => wrapCollection(await (t[k] as (...x: unknown[]) => Promise<MemoryCollection>)(...a)) : bound(t, k)),
  });
}

test('a golden replay past its limit names the step running (its first query), not the index build before it', async () => {
  const engine = await driver.embedded!.engines['toy-1']!.open({ where: 'toy@1' });
  const dataset = loadGoldenDataset(path.join(__dirname, '../../spec/test/fixtures/golden-tiny'));
  const caps = capabilities({ vectors: true, exactScan: true, metrics: ['cosine', 'ip', 'l2'] });
  const steps: PreparedStep[] = [];
  const rt = new MatrixRuntime();
  const reads = { ...check('X03', async () => ({ figures: {}, failures: [] })), fixtures: ['exact-replay' as const] };
  registerConformance(
    rt,
    { target: 'toy@1', dataset: 'tiny', capabilities: caps },
    async () => ({
      target: 'toy@1',
      capabilities: caps,
      tolerances: DEFAULT_TOLERANCES,
      index: { type: 'none' },
      dataset,
      expectation: { entries: [] } as never,
      connect: async () => hangRecall(await engine.connect()),
    }),
    { checks: [reads], checkTimeoutMs: 100, onStep: (s) => void steps.push(s), livenessLimitMs: 1000, teardown: () => engine.close() },
  );
  await rt.run();
  const replay = steps.find((s) => s.step === 'exact-replay')!;
  expect(replay).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
  // The queries this cell replays (those its capabilities can run), named twice: in what ran and in the step.
  expect(replay.error!.message).toMatch(
    /^toy@1: the golden replay on the exact path \((\d+) queries, prepared before the checks\) exceeded 100 ms × host factor 2 = 200 ms \(while recall \(exact\) of \1 golden queries, 0 done\); raise it with limits\.checkTimeoutMs of the target \(matrix\/targets\.yaml or memory-matrix\.yaml\) or MM_CHECK_TIMEOUT_MS=<ms> for the run$/,
  );
}, 60_000);
