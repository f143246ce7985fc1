import { startTimeoutEnvScale, type ResolvedTarget, type StartedBackend } from '@memory-matrix/targets';
import { resolveLimits, type CellLimits } from '@memory-matrix/spec';

/** How long a cell's teardown waits for a start its setup limit cut short, ms; after that the start is stopped whenever it completes. */
export const LATE_START_WAIT_MS = 15_000;

/**
 * Stop the backend of a start that completed (or completes) after its cell gave up on it; waits up
 * to LATE_START_WAIT_MS. A start that fails is already cleaned up by its provider. Never throws.
 */
export async function stopLateStart(starting: Promise<StartedBackend>, target: string, log?: (l: string) => void): Promise<void> {
  const stopped = starting.then(
    async (late) => {
      log?.(`${target}: the start cut short by the setup limit completed late; stopping it`);
      await late.stop();
    },
    () => undefined,
  );
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([stopped.catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, LATE_START_WAIT_MS).unref()))]);
  clearTimeout(timer);
}

/**
 * A cell's setup limit, ms: the target's `limits.setupTimeoutMs`, else `start.setupTimeoutMs`
 * (default 120000), × `MM_START_TIMEOUT_SCALE`. Image builds and pulls are not in it (image-prep.ts
 * obtains them before the cell).
 */
export function setupLimitMs(target: Pick<ResolvedTarget, 'start' | 'limits'>): number {
  return Math.round((target.limits?.setupTimeoutMs ?? target.start?.setupTimeoutMs ?? 120_000) * startTimeoutEnvScale()); // × the host factor where the limit is applied
}

/**
 * The time limits a cell of `target` runs under, ms before the host factor (spec limits.ts): setup
 * `setupLimitMs`, load and check the target's `limits:` (memory-matrix.yaml `adapters:` limits
 * under them) over the defaults, and `MM_SETUP_TIMEOUT_MS` / `MM_LOAD_TIMEOUT_MS` /
 * `MM_CHECK_TIMEOUT_MS` over all. Throws USAGE for a malformed variable.
 */
export function targetLimits(target: Pick<ResolvedTarget, 'start' | 'limits'>): CellLimits {
  return resolveLimits({ setupTimeoutMs: setupLimitMs(target), loadTimeoutMs: target.limits?.loadTimeoutMs, checkTimeoutMs: target.limits?.checkTimeoutMs });
}
