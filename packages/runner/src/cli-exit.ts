import { exitSurely } from './exit-surely';

/** ms the process may stay after its command finished (reports written, exit status set) before it exits anyway. */
export const EXIT_GRACE_MS = 2_000;

/**
 * After the command finished (its reports written, `process.exitCode` set): exit with that status
 * once nothing holds the process any more (the event loop drained: `beforeExit`), or after
 * EXIT_GRACE_MS when something still does. A driver call that never settled (a connect hung past
 * the cell's set-up limit) keeps its socket or timer, and the process lived on idle after writing
 * its reports, deaf to Ctrl-C (the container guard's handler stays installed), until SIGKILL.
 *
 * The exit is explicit (`process.exit`), never the end of a drained event loop, so that a signal
 * that comes after the verdicts are complete and written does not change the exit status: the
 * reports already say what the run found (passed, failed), and the status must say the same. At a
 * drained loop's end Node closes its signal handles before the process is gone (tens of ms with
 * a large heap: PGlite, LanceDB) and a Ctrl-C in that window killed it by the default action,
 * exit 130, beside a report that said passed; `process.exit` keeps the handlers (the container
 * guard's, which only cleans up) until the end. A signal while checks or a cell's teardown still
 * run is an interruption: run.ts records INTERRUPTED in the reports and exits 130 / 143. (A parent
 * such as pnpm, which receives the terminal's Ctrl-C itself, may still report the signal.)
 * After the grace the exit goes through `exitSurely`: when even `process.exit` cannot end the
 * process (a native call that never returns holds a worker thread its exit waits for: a driver's
 * close stuck in its engine), its watchdog ends it with SIGKILL EXIT_WATCHDOG_MS later, saying so on
 * stderr — the reports, written already, hold the run's status.
 */
export function exitWhenDone(): void {
  process.once('beforeExit', () => process.exit(process.exitCode ?? 0));
  setTimeout(() => {
    process.stderr.write(
      `memory-matrix: the command finished ${EXIT_GRACE_MS} ms ago and something it started still holds the process (a connection or timer left by a call that never settled); exiting with status ${Number(process.exitCode ?? 0)}\n`,
    );
    exitSurely(Number(process.exitCode ?? 0));
  }, EXIT_GRACE_MS).unref();
}
