import pRetry, { AbortError } from 'p-retry';
import { MemoryMatrixError, hostCalibration } from '@memory-matrix/spec';

/** Options of `pollReady`. */
export interface PollReadyOptions {
  /** Epoch ms after which no new attempt starts. */
  deadline: number;
  /** Pause between attempts, ms (default 200). */
  everyMs?: number;
  /** Leads the error message, e.g. `<backend>@<version> (container <image>)`. */
  where: string;
  /** What was awaited, for the message: e.g. `no successful probe on 127.0.0.1:5433`. */
  what: string;
  /**
   * Checked before every attempt: an error to stop with at once (e.g. the server process exited),
   * or undefined to go on.
   */
  stopIf?: () => Error | undefined | Promise<Error | undefined>;
}

/**
 * THE readiness poller of every provider (container, fault instance, local process): runs
 * `attempt` until it resolves, every `everyMs`, until `deadline` (p-retry, constant interval).
 * Retried because a server's "ready" log line is not proof a client gets through: Docker's port
 * proxy accepts and resets connections while the container's network is wired, and a server can
 * still refuse while starting up. `attempt(remainingMs)` gets the time left. Resolves with the
 * attempt's value and the number of attempts. Throws the `stopIf` error as is, or
 * TARGET_UNAVAILABLE `<where>: <what> before the start deadline (<ms> ms after the wait began, host
 * factor <f>; <n> attempts): <last error>` with the last error as `cause`.
 */
export async function pollReady<T>(attempt: (remainingMs: number) => Promise<T>, o: PollReadyOptions): Promise<{ value: T; attempts: number }> {
  let attempts = 0;
  const t0 = Date.now();
  let last: unknown;
  const everyMs = o.everyMs ?? 200;
  const deadlineError = (): MemoryMatrixError =>
    new MemoryMatrixError(
      'TARGET_UNAVAILABLE',
      `${o.where}: ${o.what} before the start deadline (${Math.max(0, o.deadline - t0)} ms after the wait began, host factor ${hostCalibration().factor}; ${attempts} attempts): ${(last as Error)?.message ?? 'no attempt made'}`,
      { cause: last },
    );
  const value = await pRetry(
    async () => {
      const stop = await o.stopIf?.();
      if (stop) throw new AbortError(stop);
      if (attempts > 0 && Date.now() >= o.deadline) throw new AbortError(deadlineError());
      attempts++;
      try {
        return await attempt(Math.max(1, o.deadline - Date.now()));
      } catch (err) {
        // p-retry retries only an `Error` that is no TypeError (it stops at once on a TypeError, which
        // is what Node's fetch throws for a refused connection, and on a non-Error, e.g. an error of
        // another realm under jest's VM): every other failure is wrapped, keeping its message and cause.
        if (err instanceof Error && !(err instanceof TypeError)) throw err;
        throw Object.assign(new Error(String((err as { message?: unknown })?.message ?? err)), { cause: err });
      }
    },
    {
      forever: true,
      factor: 1,
      minTimeout: everyMs,
      maxTimeout: everyMs,
      randomize: false,
      onFailedAttempt: (err) => {
        last = err;
      },
    },
  );
  return { value, attempts }; // p-retry rejects with an AbortError's original error
}
