import { DEFAULT_CELL_LIMITS, type CellLimits } from '@memory-matrix/spec';
import { ensureWritableDir } from '../report/dir';
import type { MatrixReport } from '../report/model';
import { settleReport } from '../report/settle';
import { reportView, type ReportView } from '../report/view';
import { writeReportsAsync } from '../report/write';
import { cpuBetween, measureRunCpu, type RunCpu } from '../report/cpu';

/**
 * Settle the report (summary, capability matrix, durability table, exit code: report/settle.ts),
 * derive its view, and write the four report files atomically (report/write.ts, on the worker pool:
 * a signal is heard meanwhile) into `dir` (none when null). `t0` is the run's start
 * (`performance.now()`, ms), `cpu0` the CPU spent before it. Resolves to the view the console
 * renders and whether the files were written. Calls for one `dir` must not overlap (run/interrupt.ts chains them).
 */
export async function finish(report: MatrixReport, dir: string | null, t0: number, cpu0: RunCpu): Promise<{ view: ReportView; written: boolean }> {
  const settled = settleReport(report);
  settled.finishedAt = new Date().toISOString();
  settled.durationMs = performance.now() - t0;
  settled.cpu = cpuBetween(cpu0, measureRunCpu(settled.durationMs), settled.durationMs);
  const view = reportView(settled);
  if (dir === null) return { view, written: false };
  try {
    await writeReportsAsync(view, dir);
    return { view, written: true };
  } catch (e) {
    // Only when the report dir itself is unusable (checked up front, so this run did nothing):
    // the console still says why; the exit status says the run was not carried out.
    process.stderr.write(`memory-matrix: cannot write the reports to ${dir}: ${(e as Error).message}\n`);
    report.exitCode = 2;
    return { view, written: false };
  }
}

/**
 * Make sure the report dir can be written BEFORE any backend starts, so a typo does not cost a
 * whole run's results. USAGE naming the flag and the reason (a file in the way, no permission).
 */
export function ensureReportDir(dir: string): void {
  ensureWritableDir(dir, 'reports');
}

/**
 * Time limit of an embedded cell's child process, ms: its cell's limits (spec limits.ts; default
 * setup 120 s, load 900 s, check 300 s) — setup, teardown (60 s), the golden load, its two
 * replays and each selected check: the child's own limits end a stuck step first; this one ends a
 * child that no longer answers at all.
 */
export function childTimeoutMs(checks: number, limits: CellLimits = DEFAULT_CELL_LIMITS): number {
  return limits.setupTimeoutMs + 60_000 + limits.loadTimeoutMs + (checks + 2) * limits.checkTimeoutMs;
}

/** A run id: start instant and pid, e.g. `20261130193000-1234`. */
export function runIdOf(d: Date): string {
  return `${d
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${process.pid}`;
}
