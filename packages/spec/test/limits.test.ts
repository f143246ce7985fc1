/**
 * Cell time limits (issue 35 item 2, conformance/limits.ts): defaults, per-target layers, the
 * run's environment over them, a check's own limit stretched with a raised check limit, and the
 * message of a limit that ran out (what ran, the step, the limit, the host factor, how to raise it).
 */
import { checkLimitMs, DEFAULT_CELL_LIMITS, limitMessage, limitOverrides, resolveLimits, runWithin } from '../src/conformance/limits';

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['MM_SETUP_TIMEOUT_MS', 'MM_LOAD_TIMEOUT_MS', 'MM_CHECK_TIMEOUT_MS']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

test('defaults, then each layer in order, then the run environment', () => {
  delete process.env.MM_LOAD_TIMEOUT_MS;
  expect(resolveLimits()).toEqual(DEFAULT_CELL_LIMITS);
  expect(DEFAULT_CELL_LIMITS).toEqual({ setupTimeoutMs: 120_000, loadTimeoutMs: 900_000, checkTimeoutMs: 300_000 });
  expect(resolveLimits({ loadTimeoutMs: 1_800_000, checkTimeoutMs: 600_000 }, { checkTimeoutMs: 900_000, setupTimeoutMs: undefined })).toEqual({
    setupTimeoutMs: 120_000,
    loadTimeoutMs: 1_800_000,
    checkTimeoutMs: 900_000,
  });
  process.env.MM_LOAD_TIMEOUT_MS = '3600000';
  expect(resolveLimits({ loadTimeoutMs: 1_800_000 }).loadTimeoutMs).toBe(3_600_000);
});

test.each(['0', '-5', '1.5', 'ten', '1e400', ' 100', '100 ', '1e3', '0100', '+100', '100.0', '0x10'])('MM_CHECK_TIMEOUT_MS=%s is USAGE naming the variable', (v) => {
  process.env.MM_CHECK_TIMEOUT_MS = v;
  expect(() => limitOverrides()).toThrow(
    expect.objectContaining({
      code: 'USAGE',
      message: `MM_CHECK_TIMEOUT_MS "${v}": expected a positive integer of milliseconds in digits (the checkTimeoutMs of every target of the run), e.g. MM_CHECK_TIMEOUT_MS=1800000`,
    }),
  );
});

test('a limit above 2^31−1 ms (what Node timers hold) is USAGE naming the variable, the value and the maximum; 2^31−1 itself is taken', () => {
  process.env.MM_LOAD_TIMEOUT_MS = '2147483647';
  expect(limitOverrides()).toEqual({ loadTimeoutMs: 2_147_483_647 });
  process.env.MM_LOAD_TIMEOUT_MS = '150000000000';
  expect(() => limitOverrides()).toThrow(
    expect.objectContaining({ code: 'USAGE', message: `MM_LOAD_TIMEOUT_MS "150000000000": above the maximum, 2147483647 ms (2^31−1, ≈ 24.8 days: the longest delay Node's timers hold)` }),
  );
});

test('every malformed variable is named in one error, one line each', () => {
  process.env.MM_SETUP_TIMEOUT_MS = ' 100';
  process.env.MM_CHECK_TIMEOUT_MS = '1e3';
  let err: { code?: string; message: string } | undefined;
  try {
    limitOverrides();
  } catch (e) {
    err = e as typeof err;
  }
  expect(err?.code).toBe('USAGE');
  expect(err?.message.split('\n').map((l) => l.split(':')[0])).toEqual(['MM_SETUP_TIMEOUT_MS " 100"', 'MM_CHECK_TIMEOUT_MS "1e3"']);
});

test("a check's own limit: kept at the default check limit, stretched in proportion above it, never shortened", () => {
  expect(checkLimitMs({}, { checkTimeoutMs: 300_000 })).toBe(300_000);
  expect(checkLimitMs({}, { checkTimeoutMs: 5_000 })).toBe(5_000);
  expect(checkLimitMs({ timeoutMs: 60_000 }, { checkTimeoutMs: 300_000 })).toBe(60_000);
  expect(checkLimitMs({ timeoutMs: 60_000 }, { checkTimeoutMs: 600_000 })).toBe(120_000);
  expect(checkLimitMs({ timeoutMs: 60_000 }, { checkTimeoutMs: 5_000 })).toBe(60_000);
});

test('a limit message names what ran, the step, the limit with the host factor, and how to raise it', () => {
  expect(limitMessage('pg@1: C02 self-recall', 300_000, 1.4, 'checkTimeoutMs', 'recall (exact) of 40 queries, 31 done')).toBe(
    'pg@1: C02 self-recall exceeded 300000 ms × host factor 1.4 = 420000 ms (while recall (exact) of 40 queries, 31 done); raise it with limits.checkTimeoutMs of the target (matrix/targets.yaml or memory-matrix.yaml) or MM_CHECK_TIMEOUT_MS=<ms> for the run',
  );
  expect(limitMessage('pg@1: the golden load', 900_000, 1, 'loadTimeoutMs')).toBe(
    'pg@1: the golden load exceeded 900000 ms; raise it with limits.loadTimeoutMs of the target (matrix/targets.yaml or memory-matrix.yaml) or MM_LOAD_TIMEOUT_MS=<ms> for the run',
  );
});

test('runWithin: the value within the limit; past it the error onLimit builds, with the factor', async () => {
  await expect(
    runWithin(
      async () => 7,
      1000,
      () => new Error('late'),
      1,
    ),
  ).resolves.toBe(7);
  await expect(
    runWithin(
      () => new Promise((r) => setTimeout(r, 500)),
      20,
      (f) => Object.assign(new Error(`late at factor ${f}`), { code: 'TIMEOUT' }),
      2,
    ),
  ).rejects.toMatchObject({
    code: 'TIMEOUT',
    message: 'late at factor 2',
  });
  await expect(
    runWithin(
      () => Promise.reject(Object.assign(new Error('boom'), { code: 'BACKEND_ERROR' })),
      1000,
      () => new Error('late'),
      1,
    ),
  ).rejects.toMatchObject({ code: 'BACKEND_ERROR' });
});

test('runWithin: a call that returns after its limit without yielding (synchronous work) is judged late when it returns', async () => {
  const busy = (ms: number): void => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };
  await expect(
    runWithin(
      async () => {
        busy(64);
        return 7;
      },
      1,
      (f) => Object.assign(new Error(`late at factor ${f}`), { code: 'TIMEOUT' }),
      2,
    ),
  ).rejects.toMatchObject({
    code: 'TIMEOUT',
    message: expect.stringMatching(
      /^late at factor 2 \(it returned after \d+ ms without yielding to the timer: a synchronous call cannot be cut short at its limit, so it is judged when it returns\)$/,
    ),
  });
});
