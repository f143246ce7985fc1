import { describeLimit, hostCalibration } from '@memory-matrix/spec';
import { shownDir } from '../shown-dir';
import type { ChildCell, ChildDeath } from '../cell-child/spawn';
import { signalExitCode } from '../baseline/interrupt';
import { exitSurely } from '../exit-surely';
import type { Progress } from '../progress';
import type { CellReport, MatrixReport } from '../report/model';
import type { RunCpu } from '../report/cpu';
import type { ReportView } from '../report/view';
import type { MatrixRuntime } from '../runtime';
import type { CellCollector } from './collect';
import { finish } from './finish';

/**
 * How long an interrupted run waits for its backends and cell processes to stop before it writes
 * its partial report anyway, ms; a child cell (`--cell-journal`) waits `CHILD_STOP_MS`, so that it
 * has written its partial report before its parent's `CHILD_GRACE_MS` ends it.
 * The budget of an interrupt is 10 s from the signal to the end of the process (docs/usage.md):
 * STOP_MS + REPORT_MS + exit-surely.ts EXIT_WATCHDOG_MS = 8 s, with 2 s to spare for a loaded host;
 * on a busy host the report's part stretches with the host factor (REPORT_MS × factor, spec host.ts).
 */
export const STOP_MS = 5_000;
export const CHILD_STOP_MS = 2_000;
/** ms between the signal passed on to a child cell and SIGKILL to its process group (its verdicts are in its journal: cell-child/journal.ts). */
export const CHILD_GRACE_MS = 4_000;
/**
 * How long the partial report may take to write, ms, × the host factor (at load average ≈ 70 on 2
 * cores, a newcomer's Ctrl-C after 58 min lost every verdict at a fixed 1.5 s); past it the process
 * ends without it and says so.
 */
export const REPORT_MS = 1_500;

/** `p`, or `undefined` once `ms` have passed (the timer does not outlive the race). */
async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** What `RunInterrupt` needs of its run. */
export interface InterruptContext {
  report: MatrixReport;
  collector: CellCollector;
  rt: MatrixRuntime;
  progress: Progress;
  /** The run's report dir, or null while this run does not hold its lock (nothing is written there). */
  reportDir: () => string | null;
  t0: number;
  cpu0: RunCpu;
  /** Whether this process is a child cell (it must be done before its parent's CHILD_GRACE_MS). */
  child: boolean;
}

/**
 * SIGINT / SIGTERM through every phase of a run — start, golden load, checks, teardown, and the
 * writing of the reports — until `release()`: the first signal stops the run (no more verdicts
 * are recorded, queued cells never start), stops its backends and cell processes (each child gets
 * the same signal, SIGKILL to its process group after CHILD_GRACE_MS; the verdicts of one that
 * died keep from its journal), waits for them up to STOP_MS, writes the partial report
 * (INTERRUPTED; the checks never run listed as skipped naming the signal) within REPORT_MS, and
 * ends the process with 130 / 143 (`exitSurely`: also when a stuck native call holds the exit).
 * The reports of the run are written through `write()`, one after another (their temporary names
 * are shared).
 */
export class RunInterrupt {
  /** The signal that interrupted the run, once one did. */
  signal?: NodeJS.Signals;
  private writing: Promise<unknown> = Promise.resolve();
  private readonly handler = (sig: NodeJS.Signals): void => void this.onSignal(sig);

  constructor(private readonly ctx: InterruptContext) {}

  /** Listen for SIGINT and SIGTERM (once each; the container guard's own handlers stay). */
  install(): void {
    process.once('SIGINT', this.handler);
    process.once('SIGTERM', this.handler);
  }

  /** Stop listening: the run's reports are written; a later signal does not change the exit status (cli-exit.ts). */
  release(): void {
    process.removeListener('SIGINT', this.handler);
    process.removeListener('SIGTERM', this.handler);
  }

  /** Settle and write the reports (run/finish.ts) after any write in flight; resolves to what finish resolves to. */
  write(): Promise<{ view: ReportView; written: boolean }> {
    const { report, reportDir, t0, cpu0 } = this.ctx;
    const next = this.writing.then(() => finish(report, reportDir(), t0, cpu0));
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** A promise that never settles: what the run's own path awaits once a signal came (the interrupt ends the process). */
  ending(): Promise<never> {
    return new Promise<never>(() => undefined);
  }

  private async onSignal(sig: NodeJS.Signals): Promise<void> {
    if (this.signal) return;
    this.signal = sig;
    try {
      await this.stopAndReport(sig);
    } catch (e) {
      process.stderr.write(`memory-matrix: INTERNAL while stopping on ${sig}: ${(e as Error).stack ?? String(e)}\n`);
    } finally {
      for (const [c] of this.ctx.collector.children) c.kill(); // any still running: SIGKILL to its group now
      exitSurely(signalExitCode(sig), sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
    }
  }

  private async stopAndReport(sig: NodeJS.Signals): Promise<void> {
    const { collector, rt, progress, report } = this.ctx;
    // From here on nothing more is recorded: checks still running fail only because their backend
    // is being stopped, which is not a verdict on the target. The report lists what completed.
    collector.interrupted = true;
    rt.cancel(); // cells still queued never start
    progress.halt(); // no more progress lines, also those a child cell relays while it stops
    const { started, children } = collector;
    // The count is the targets' backends; fault instances a check started (C15, C16, C23) are removed with them (container guard, instance registry) but not counted here.
    progress.log(
      `\n${sig}: stopping ${started.length} target backend(s) and any fault instances their checks started${children.size ? `, ${children.size} cell process(es)` : ''}, and writing the partial report…`,
    );
    report.error = { code: 'INTERRUPTED', message: `interrupted by ${sig}; the report holds the checks that completed before it` };
    report.exitCode = 2;
    // A child cell stops its own engine and temp dirs on the same signal and writes what it
    // completed, its checks not run naming that signal (it is in a process group of its own: the
    // signal reached this process only). One that does not in time is killed; its journal has its verdicts.
    const stopChild = async (c: ChildCell, cell: CellReport): Promise<void> => {
      await c.stop(sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM', CHILD_GRACE_MS);
      try {
        Object.assign(cell, await c.result);
      } catch (e) {
        const death = (e as { death?: ChildDeath }).death;
        if (!death) return;
        collector.keepJournal(cell, death.journal);
        progress.log(`${cell.target}: its cell process ${death.what} during ${death.during}; the ${death.journal.results.length} result(s) its journal holds are kept`);
      }
    };
    const stopMs = this.ctx.child ? CHILD_STOP_MS : STOP_MS;
    const stopped = await within(Promise.allSettled([...started.map((b) => b.stop()), ...[...children].map(([c, cell]) => stopChild(c, cell))]), stopMs);
    if (!stopped) progress.log(`${sig}: what the run started had not all stopped after ${stopMs} ms; writing the partial report without waiting longer (cell processes are killed)`);
    collector.markNotRun(sig);
    const dir = this.ctx.reportDir();
    const factor = hostCalibration().factor;
    const done = await within(
      this.write().catch(() => undefined),
      Math.round(REPORT_MS * factor),
    );
    if (done?.written) progress.log(`partial report (INTERRUPTED): ${shownDir(dir!)}/{report.json,junit.xml,report.md,report.html}`);
    else if (dir && !done)
      process.stderr.write(
        `memory-matrix: the partial report could not be written to ${shownDir(dir)} within ${describeLimit(REPORT_MS, factor)} (the host is too busy or the file system does not answer); exiting without it\n`,
      );
  }
}
