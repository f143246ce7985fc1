import path from 'node:path';
import Table from 'cli-table3';
import { cpuBetween, measureRunCpu, type RunCpu } from '../report/cpu';
import { countsLine } from '../report/figures';
import type { MatrixReport } from '../report/types';
import { runMatrix } from '../run';

/** What `bench --section profiles` prints by default: the PR gate and the main job. */
export const DEFAULT_BENCH_PROFILES = ['pr-gate', 'default'] as const;

/** One catalog profile run in process, as `pnpm matrix --profile <name>` runs it: its report, wall time (ms) and CPU time (report/cpu.ts). */
export interface ProfileRun {
  profile: string;
  report: MatrixReport;
  /** Wall time of the run, ms (performance.now around runMatrix). */
  wallMs: number;
  /** CPU time of the run: this process, ended child processes and containers, seconds (cpuBetween around it). */
  cpu: RunCpu;
}

/**
 * Runs catalog profile `profile` in process (runMatrix, reports under
 * matrix-report/bench-<profile>, console output dropped) and measures its wall and CPU time
 * around it. Throws what runMatrix throws (USAGE for an unknown profile, naming the known ones).
 */
export async function runProfileMeasured(profile: string, dataset: string): Promise<ProfileRun> {
  const t0 = performance.now();
  const cpu0 = measureRunCpu(1);
  const report = await runMatrix({
    backends: [],
    profile,
    dataset,
    reportDir: path.resolve('matrix-report', `bench-${profile}`),
    updateGolden: false,
    checks: [],
    argv: ['run', '--profile', profile],
    out: () => undefined,
  });
  const wallMs = performance.now() - t0;
  return { profile, report, wallMs, cpu: cpuBetween(cpu0, measureRunCpu(wallMs), wallMs) };
}

/**
 * `bench --section profiles`: each named profile run once, one after another, in this process;
 * a row per profile: targets, wall s, CPU s (total and its parts), cores busy, exit status and the
 * counts line. CPU-seconds compare across machines where wall times do not (docs/profiles.md).
 * Returns the table's text and whether every run exited 0.
 */
export async function profileCosts(profiles: readonly string[], dataset: string, out: (l: string) => void): Promise<{ text: string; allPassed: boolean }> {
  const table = new Table({
    head: ['profile', 'targets', 'wall s', 'CPU s', 'this process s', 'ended children s', 'containers s', 'cores busy', 'exit', 'counts'],
    style: { head: [], border: [] },
  });
  let allPassed = true;
  for (const p of profiles) {
    out(`profile ${p}: running …`);
    const r = await runProfileMeasured(p, dataset);
    const c = r.cpu;
    table.push([p, r.report.cells.length, (r.wallMs / 1000).toFixed(1), c.totalS, c.runnerS, c.childProcessesS ?? '–', c.containersS, c.coresBusy, r.report.exitCode, countsLine(r.report.summary)]);
    if (r.report.exitCode !== 0) allPassed = false;
  }
  return { text: table.toString(), allPassed };
}
