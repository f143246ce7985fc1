/**
 * The one place a time limit becomes a timer. Node's timers hold a delay of at most 2^31−1 ms
 * (≈ 24.8 days): a larger one prints `TimeoutOverflowWarning` and is set to 1 ms, so the limit
 * fires at once (Node docs, `setTimeout`: "When delay is larger than 2147483647 or less than 1,
 * the delay will be set to 1"). A configured limit above `MAX_LIMIT_MS` is refused where it is
 * parsed (limits.ts `limitOverrides`, the catalog's `limits:`); a limit derived from one (a
 * backstop × `MAX_HOST_FACTOR`, × the host factor, × `MM_START_TIMEOUT_SCALE`) is clamped here.
 */

/** The largest delay Node's timers hold, ms: 2^31−1 (a signed 32-bit integer). */
export const MAX_LIMIT_MS = 2 ** 31 - 1;

/** `… at most 2147483647 ms (2^31−1, ≈ 24.8 days: the longest delay Node's timers hold)`: the maximum, with its source, for messages. */
export const MAX_LIMIT_TEXT = `${MAX_LIMIT_MS} ms (2^31−1, ≈ 24.8 days: the longest delay Node's timers hold)`;

/** `ms` rounded and clamped to [1, MAX_LIMIT_MS]: the delay a timer for a limit of `ms` is armed with (NaN → MAX_LIMIT_MS). */
export function timerDelayMs(ms: number): number {
  if (Number.isNaN(ms)) return MAX_LIMIT_MS;
  return Math.min(MAX_LIMIT_MS, Math.max(1, Math.round(ms)));
}

/**
 * Arm a timer for a limit: `fn` after `ms` (clamped by `timerDelayMs`, so a derived limit past
 * 2^31−1 ms waits that long instead of firing at once). `ref: false` (default) lets the process
 * exit while it waits.
 */
export function armLimitTimer(fn: () => void, ms: number, opts: { ref?: boolean } = {}): NodeJS.Timeout {
  const t = setTimeout(fn, timerDelayMs(ms));
  if (!opts.ref) t.unref();
  return t;
}

/**
 * Run `fn` within `limitMs` (wall ms, already × any factor): resolves with its value, rejects with
 * its error, or with `onLimit()`'s error once the limit has run out — also when `fn` returns after
 * its limit without having let the timer fire (a synchronous start or step: a call that does not
 * yield to the event loop cannot be cut short, so it is judged when it returns; the message then
 * says how long it ran). `fn` is not stopped at the limit; its later rejection is handled.
 */
export async function withinLimit<T>(fn: () => Promise<T> | T, limitMs: number, onLimit: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t0 = performance.now();
  const limit = new Promise<never>((_, reject) => {
    timer = armLimitTimer(() => reject(onLimit()), limitMs);
  });
  const run = Promise.resolve().then(fn);
  run.catch(() => undefined); // past the limit its rejection has no reader
  try {
    const value = await Promise.race([run, limit]);
    const ms = performance.now() - t0;
    if (ms > timerDelayMs(limitMs)) {
      const e = onLimit();
      e.message += ` (it returned after ${Math.round(ms)} ms without yielding to the timer: a synchronous call cannot be cut short at its limit, so it is judged when it returns)`;
      throw e;
    }
    return value;
  } finally {
    clearTimeout(timer);
  }
}
