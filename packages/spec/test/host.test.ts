/**
 * The host calibration (host.ts): a factor ≥ 1 that time limits are multiplied by, measured from a
 * fixed CPU workload or fixed by MM_HOST_FACTOR; a malformed MM_HOST_FACTOR is a USAGE error
 * naming the variable. The measurement itself is real (no mock of the clock).
 */
import { calibrateHost, describeLimit, hostFactorOverride, MAX_HOST_FACTOR, scaledTimeouts } from '../src/host';

afterEach(() => {
  delete process.env.MM_HOST_FACTOR;
});

test('a measured factor is between 1 and the cap, with the contention and speed it came from', () => {
  const h = calibrateHost();
  expect(h.source).toBe('measured');
  expect(h.factor).toBeGreaterThanOrEqual(1);
  expect(h.factor).toBeLessThanOrEqual(MAX_HOST_FACTOR);
  expect(h.contention).toBeGreaterThan(0);
  expect(h.speed).toBeGreaterThan(0);
  // The factor is the larger of the two (capped), never below 1.
  expect(h.factor).toBeCloseTo(Math.min(MAX_HOST_FACTOR, Math.max(1, h.contention!, h.speed!)), 1);
  expect(h.cpus).toBeGreaterThanOrEqual(1);
  expect(Number.isNaN(Date.parse(h.at))).toBe(false);
});

test('MM_HOST_FACTOR fixes the factor without a measurement', () => {
  process.env.MM_HOST_FACTOR = '2.5';
  expect(calibrateHost()).toMatchObject({ factor: 2.5, source: 'MM_HOST_FACTOR', contention: null, speed: null });
});

test.each(['0.5', '0', 'abc', '9', 'NaN', '-1'])('MM_HOST_FACTOR=%s is a USAGE error naming the variable', (v) => {
  process.env.MM_HOST_FACTOR = v;
  expect(() => hostFactorOverride()).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(`MM_HOST_FACTOR "${v}"`) }));
});

test('a limit names its factor when it was stretched; timeouts scale as one', () => {
  expect(describeLimit(1500, 1)).toBe('1500 ms');
  expect(describeLimit(1500, 2.4)).toBe('1500 ms × host factor 2.4 = 3600 ms');
  expect(scaledTimeouts({ connectMs: 1500, queryMs: 30_000 }, 1.5)).toEqual({ connectMs: 2250, queryMs: 45_000 });
});
