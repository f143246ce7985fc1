import { rmSync } from 'node:fs';
import { installGuard, type StartedBackend } from '@memory-matrix/targets';

/** What `record` and `diff` hold while they run, so that Ctrl-C can undo it (see `watchInterrupt`). */
export interface InterruptWatch {
  /** The signal received, or null while none came. */
  readonly signal: NodeJS.Signals | null;
  /** A backend this command started: stopped on a signal (until `release`d). */
  track(backend: StartedBackend): void;
  release(backend: StartedBackend): void;
  /** A file being written (a baseline's `.tmp-<pid>`): removed on a signal (until `forget`). */
  pending(file: string): void;
  forget(file: string): void;
  /**
   * Let a pending signal be handled, then throw when one came (a plain Error: the caller sees
   * `signal` set and treats it as the interruption). Needed between long steps: an embedded
   * backend (PGlite) answers through promises that settle without a turn of the event loop, so a
   * signal is only dispatched at a point like this one.
   */
  checkpoint(): Promise<void>;
  /** Removes the signal listeners (the command finished on its own). */
  dispose(): void;
}

/** Exit status of a command ended by `sig`, as a shell reports it: 130 SIGINT, 143 SIGTERM. */
export const signalExitCode = (sig: NodeJS.Signals): 130 | 143 => (sig === 'SIGINT' ? 130 : 143);

/**
 * SIGINT / SIGTERM handling of `record`, `diff` and `merge`, as `memory-matrix run` (run.ts) and `migrate`
 * (migrate/run-migration.ts) do it: the container guard is installed with `exitOnSignal: false`
 * (it removes this process's containers synchronously), then on the first signal this logs
 * `<SIG>: stopping n backend(s)…` (when n > 0), stops every tracked backend (errors ignored: they are being
 * torn down), removes the pending temporary files, calls `finish(sig)` (which writes what the
 * command writes when interrupted and prints INTERRUPTED) and exits with 130 (SIGINT) / 143 (SIGTERM).
 * Callers check `signal` in their error paths: after a signal, an error is the teardown's, not a result.
 */
export function watchInterrupt(log: (line: string) => void, finish: (sig: NodeJS.Signals) => void): InterruptWatch {
  const started = new Set<StartedBackend>();
  const files = new Set<string>();
  let signal: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (signal) return;
    signal = sig;
    if (started.size) log(`\n${sig}: stopping ${started.size} backend(s)…`);
    void Promise.allSettled([...started].map((b) => b.stop())).finally(() => {
      for (const f of files) rmSync(f, { force: true });
      try {
        finish(sig);
      } catch (e) {
        process.stderr.write(`memory-matrix: after ${sig}: ${(e as Error).message}\n`);
      }
      process.exit(signalExitCode(sig));
    });
  };
  installGuard({ exitOnSignal: false });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get signal() {
      return signal;
    },
    track: (b) => void started.add(b),
    release: (b) => void started.delete(b),
    pending: (f) => void files.add(f),
    forget: (f) => void files.delete(f),
    checkpoint: async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal) throw new Error(`interrupted by ${signal}`);
    },
    dispose: () => {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}
