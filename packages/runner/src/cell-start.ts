import { startTimeoutScale, type ResolvedTarget, type StartedBackend } from '@memory-matrix/backends';

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
 * A cell's setup limit, ms: the target's `start.setupTimeoutMs` (default 120000) × `MM_START_TIMEOUT_SCALE`.
 * Image builds and pulls are not in it (image-prep.ts obtains them before the cell).
 */
export function setupLimitMs(target: Pick<ResolvedTarget, 'start'>): number {
  return Math.round((target.start?.setupTimeoutMs ?? 120_000) * startTimeoutScale());
}
