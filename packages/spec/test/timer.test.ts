/**
 * The one place a limit becomes a timer (timer.ts): a derived limit past what Node's timers hold
 * (2^31−1 ms) is clamped instead of firing at once with a TimeoutOverflowWarning.
 */
import { armLimitTimer, MAX_LIMIT_MS, timerDelayMs, withinLimit } from '../src/timer';

test('MAX_LIMIT_MS is 2^31−1; a delay is rounded and clamped to [1, 2^31−1]', () => {
  expect(MAX_LIMIT_MS).toBe(2_147_483_647);
  expect(timerDelayMs(1_204_830_000 * 2)).toBe(MAX_LIMIT_MS);
  expect(timerDelayMs(Number.POSITIVE_INFINITY)).toBe(MAX_LIMIT_MS);
  expect(timerDelayMs(Number.NaN)).toBe(MAX_LIMIT_MS);
  expect(timerDelayMs(0.4)).toBe(1);
  expect(timerDelayMs(1500.6)).toBe(1501);
});

test('a limit past 2^31−1 ms neither warns nor fires at once', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(w.name);
  process.on('warning', onWarning);
  let fired = false;
  const t = armLimitTimer(() => (fired = true), 2_409_660_000);
  await expect(
    withinLimit(
      () => new Promise((r) => setTimeout(() => r('done'), 50)),
      2_409_660_000,
      () => new Error('fired at once'),
    ),
  ).resolves.toBe('done');
  clearTimeout(t);
  await new Promise((r) => setImmediate(r));
  process.off('warning', onWarning);
  expect(fired).toBe(false);
  expect(warnings).not.toContain('TimeoutOverflowWarning');
});
