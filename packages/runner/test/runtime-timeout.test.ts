/**
 * A check stopped at its time limit (runtime.ts `timedOutResult`): it never reaches the result
 * sink, so the run records it as failed with code TIMEOUT — in the matrix report (run.ts) and in a
 * selftest's catalogue run (selftest/catalogue-run.ts). Measured: before, a clean sqlite run at
 * load average 15-21 printed `✗ … C23 fault-surfaced exceeded 240000 ms` while report.json had no
 * C23 row at all. No backend.
 */
import { CHECKS } from '@memory-matrix/spec';
import { MatrixRuntime, timedOutResult, type RanTest } from '../src/runtime';

const C23 = CHECKS.find((c) => c.id === 'C23')!;

// Exact limits in the messages below: a fixed host factor of 1 (spec host.ts), whatever the load.
beforeEach(() => {
  process.env.MM_HOST_FACTOR = '1';
});
afterEach(() => {
  delete process.env.MM_HOST_FACTOR;
});

test('a test past its limit is failed with timedOut; timedOutResult makes its check a failed TIMEOUT row', async () => {
  const rt = new MatrixRuntime();
  const seen: RanTest[] = [];
  rt.describe('t × d', () => {
    rt.test(`${C23.id} ${C23.name}`, () => new Promise<void>(() => undefined), 30);
    rt.test('C01 write-read', async () => undefined, 1000);
    rt.test('C02 self-recall', async () => Promise.reject(new Error('rank 1 missing')), 1000);
  });
  await rt.run((t) => seen.push(t));
  expect(seen.map((t) => [t.title, t.status, t.timedOut ?? false])).toEqual([
    ['C23 fault-surfaced', 'failed', true],
    ['C01 write-read', 'passed', false],
    ['C02 self-recall', 'failed', false],
  ]);
  expect(timedOutResult(seen[0]!, CHECKS)).toMatchObject({ id: 'C23', name: 'fault-surfaced', status: 'failed', error: { code: 'TIMEOUT', message: 't × d: C23 fault-surfaced exceeded 30 ms' } });
  // Only a test's own time limit: a plain failure or a pass is the check's own verdict, recorded by the sink.
  expect(timedOutResult(seen[1]!, CHECKS)).toBeUndefined();
  expect(timedOutResult(seen[2]!, CHECKS)).toBeUndefined();
});

test('a setup that exceeds its limit fails the tests with the setup error, not as timed-out checks', async () => {
  const rt = new MatrixRuntime();
  const seen: RanTest[] = [];
  rt.describe('t × d', () => {
    rt.beforeAll(() => new Promise<void>(() => undefined), 30);
    rt.test(`${C23.id} ${C23.name}`, async () => undefined, 1000);
  });
  const out = await rt.run((t) => seen.push(t));
  expect(out.setupErrors.get('t × d')?.message).toBe('t × d: setup exceeded 30 ms');
  expect(seen[0]).toMatchObject({ status: 'failed' });
  expect(timedOutResult(seen[0]!, CHECKS)).toBeUndefined();
});

test('a setup that runs synchronously past its limit (an embedded start that never yields) is judged when it returns: the setup error', async () => {
  const rt = new MatrixRuntime();
  const seen: RanTest[] = [];
  rt.describe('t × d', () => {
    // An embedded engine's open (better-sqlite3, mkdtempSync): 64 ms of work with no turn of the event loop, so the timer cannot fire.
    rt.beforeAll(async () => {
      const end = performance.now() + 64;
      while (performance.now() < end);
    }, 1);
    rt.test(`${C23.id} ${C23.name}`, async () => undefined, 1000);
  });
  const out = await rt.run((t) => seen.push(t));
  expect(out.setupErrors.get('t × d')).toMatchObject({
    code: 'TIMEOUT',
    message: expect.stringMatching(
      /^t × d: setup exceeded 1 ms \(it returned after (6[4-9]|[7-9]\d|\d{3,}) ms without yielding to the timer: a synchronous call cannot be cut short at its limit, so it is judged when it returns\)$/,
    ),
  });
  expect(seen[0]).toMatchObject({ status: 'failed' });
});

test('a loaded host stretches every limit by its factor, and the message names the limit and the factor', async () => {
  process.env.MM_HOST_FACTOR = '4';
  const rt = new MatrixRuntime();
  const seen: RanTest[] = [];
  rt.describe('t × d', () => {
    // 40 ms of work under a 30 ms limit: passes at factor 4 (120 ms), where a factor-1 run fails it.
    rt.test('C01 write-read', () => new Promise<void>((r) => setTimeout(r, 40)), 30);
    rt.test(`${C23.id} ${C23.name}`, () => new Promise<void>(() => undefined), 30);
  });
  await rt.run((t) => seen.push(t));
  expect(seen.map((t) => t.status)).toEqual(['passed', 'failed']);
  expect(seen[1]!.error?.message).toBe('t × d: C23 fault-surfaced exceeded 30 ms × host factor 4 = 120 ms');
});
