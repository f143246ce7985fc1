import { spawn } from 'node:child_process';

/** ms `exitSurely` gives `process.exit` before its watchdog ends the process another way. */
export const EXIT_WATCHDOG_MS = 1_500;

/**
 * The watchdog's program (`node -e`, argv: pid, signal, ms): it waits on its stdin, a pipe whose
 * other end only the watched process holds, so the end of that process (however it ends) ends the
 * watchdog; when the pipe is still open after `ms`, the process is stuck in its exit: it says so on
 * stderr, sends `signal` (SIGKILL 2 s later if that did not end it) and exits.
 */
const WATCHDOG = `
const [pid, sig, ms] = process.argv.slice(1);
const done = () => process.exit(0);
process.stdin.on('data', () => undefined).on('end', done).on('error', done);
setTimeout(() => {
  process.stderr.write('memory-matrix: the process (pid ' + pid + ') did not end within ' + ms + ' ms of its exit (a native call still running on a worker thread holds it); sending ' + sig + '\\n');
  try { process.kill(Number(pid), sig); } catch { done(); }
  setTimeout(() => { try { process.kill(Number(pid), 'SIGKILL'); } catch {} done(); }, 2000).unref();
}, Number(ms)).unref();
`;

/**
 * End this process with `code`, even when `process.exit` cannot: Node's exit waits for every
 * thread of its worker pool, so a native call that never returns there (a driver's close stuck in
 * its engine, a write to a hung file system) kept a finished CLI alive forever, its JavaScript gone
 * and its signal handlers with it — deaf to SIGINT and SIGTERM, SIGKILL only (measured here:
 * `fs.promises.writeFile` to a FIFO nobody reads, then `process.exit(3)`: still running 5 s later).
 * So a watchdog process (`WATCHDOG`) is started first; when this process has not ended `afterMs`
 * later it sends `signal`: for an interrupt the signal the run got, whose default action (restored
 * here: every listener of it is removed first) ends the process as that signal does — a shell
 * reports 130 / 143 as for `process.exit(130 / 143)` — and SIGKILL otherwise. Never returns.
 */
export function exitSurely(code: number, signal: 'SIGINT' | 'SIGTERM' | 'SIGKILL' = 'SIGKILL', afterMs = EXIT_WATCHDOG_MS): never {
  try {
    const dog = spawn(process.execPath, ['-e', WATCHDOG, String(process.pid), signal, String(afterMs)], { stdio: ['pipe', 'ignore', 'inherit'], detached: true, env: {} });
    dog.on('error', () => undefined); // no watchdog: the exit below is all there is
    dog.unref();
    (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  } catch {
    // as above
  }
  if (signal !== 'SIGKILL') process.removeAllListeners(signal);
  process.exit(code);
}
