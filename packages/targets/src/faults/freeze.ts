import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * How many times `docker pause` is issued before the pause counts as failed.
 *
 * With cgroup v1 (this machine, and GitHub's ubuntu runners before 22.04) runc freezes a container
 * by writing FROZEN to `freezer.state` and polling until the kernel says FROZEN; when a task of the
 * cgroup does not reach the freezer in time (uninterruptible I/O, e.g. a PostgreSQL backend in
 * fsync), runc thaws the cgroup again and fails with "unable to freeze" (runc's own comment calls
 * freezing "a game of chances": opencontainers/runc pull 2791; moby/moby issue 48205). Measured
 * here: 1 failure in 200 `docker pause` calls on pgvector@pg17 under an insert loop with both CPUs
 * busy; 0 in 150 on an idle fsync loop. A failed attempt leaves the container running as before
 * (runc thaws it), so a new attempt injects the same fault: 3 attempts make a pause failing because
 * of the freezer alone (p ≈ 1/200 each) about 1 in 8 million.
 */
export const FREEZE_ATTEMPTS = 3;

/** runc's message when the cgroup v1 freezer gave up (the container was thawed again). */
const UNABLE_TO_FREEZE = /unable to freeze/;

/**
 * Runs `pause` (one `docker pause` of the container `where` names) until it succeeds, at most
 * `attempts` times, repeating it only when it failed with runc's "unable to freeze". This repeats
 * the fault injection, never a call to the server: the server has not been touched by a failed
 * freeze. Throws the first error that is not "unable to freeze" as it is, and after `attempts`
 * freezer failures a BACKEND_ERROR that says the Docker engine, not the server, could not
 * freeze `where` (the last engine message as `cause`).
 */
export async function freezeWithRetry(pause: () => Promise<unknown>, where: string, attempts = FREEZE_ATTEMPTS): Promise<void> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      await pause();
      return;
    } catch (err) {
      if (!UNABLE_TO_FREEZE.test((err as Error)?.message ?? '')) throw err;
      last = err;
    }
  }
  throw new MemoryMatrixError(
    'BACKEND_ERROR',
    `${where}: the Docker engine could not freeze the container in ${attempts} attempts (runc's cgroup v1 freezer: "unable to freeze"); the fault was not injected, so this is not a finding about the server: ${(last as Error).message}`,
    { cause: last },
  );
}
