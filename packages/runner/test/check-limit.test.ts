/**
 * Issue 35 item 2: a check's time limit is enforced by the registration (spec register.ts), so its
 * message says what was running — the check and the step inside it (`LiveCell.noteStep`) — the
 * limit, the host factor and how to raise it; the check is recorded TIMEOUT in the sink, and a
 * check with a limit of its own keeps it. The toy store (fixtures/toy-driver), the runner's runtime.
 */
import { capabilities, type CheckDefinition, type MemoryCollection, type MemoryStore } from '@memory-matrix/spec';
import { runToyCell } from './cli-helpers';

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
  const slow = check('X01', async (cell) => {
    cell.noteStep('recall (exact) of 10 probes', 3);
    await new Promise((r) => setTimeout(r, 2_000));
    return { figures: {}, failures: [] };
  });
  const own = check('X02', async () => ({ figures: {}, failures: [] }), 50);
  const { results, tests } = await runToyCell([slow, own], { options: { checkTimeoutMs: 100, livenessLimitMs: 1000 } });
  expect(results.map((r) => [r.id, r.status, r.error?.code])).toEqual([
    ['X01', 'failed', 'TIMEOUT'],
    ['X02', 'passed', undefined],
  ]);
  expect(results[0]!.error!.message).toBe(
    'toy@1: X01 probe-x01 exceeded 100 ms × host factor 2 = 200 ms (while recall (exact) of 10 probes, 3 done); raise it with limits.checkTimeoutMs of the target (matrix/targets.yaml or memory-matrix.yaml) or MM_CHECK_TIMEOUT_MS=<ms> for the run',
  );
  expect(tests[0]).toMatchObject({ status: 'failed', error: expect.objectContaining({ code: 'TIMEOUT' }) });
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
  const reads = { ...check('X03', async () => ({ figures: {}, failures: [] })), fixtures: ['exact-replay' as const] };
  const caps = capabilities({ vectors: true, exactScan: true, metrics: ['cosine', 'ip', 'l2'] });
  const { steps } = await runToyCell([reads], { caps, wrap: hangRecall, options: { checkTimeoutMs: 100, livenessLimitMs: 1000 } });
  const replay = steps.find((s) => s.step === 'exact-replay')!;
  expect(replay).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' } });
  // The queries this cell replays (those its capabilities can run), named twice: in what ran and in the step.
  expect(replay.error!.message).toMatch(
    /^toy@1: the golden replay on the exact path \((\d+) queries, prepared before the checks\) exceeded 100 ms × host factor 2 = 200 ms \(while recall \(exact\) of \1 golden queries, 0 done\); raise it with limits\.checkTimeoutMs of the target \(matrix\/targets\.yaml or memory-matrix\.yaml\) or MM_CHECK_TIMEOUT_MS=<ms> for the run$/,
  );
}, 60_000);
