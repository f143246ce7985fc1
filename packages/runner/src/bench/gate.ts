import { cpuLine } from '../report/cpu';
import { runProfileMeasured } from './profiles';

/** The PR gate's wall-time goal, ms (containers issue: a whole gate run within 60 s). */
export const GATE_GOAL_MS = 60_000;

/** One printed line of the gate measurement: what, ms, and the goal when it has one. */
export interface GatePhase {
  what: string;
  ms: number;
  goalMs: number | null;
}

/**
 * Time `memory-matrix run --profile pr-gate` in process (profiles.ts runProfileMeasured, reports under
 * matrix-report/bench-pr-gate, console output dropped) and split it into phases from the report:
 * per cell its start, golden load and index build, the sum of its checks' wall times and its
 * three slowest checks; then the whole wall time against GATE_GOAL_MS and its CPU time
 * (report/cpu.ts: this process, ended child processes and containers, measured around the run). Cells run as the runner
 * schedules them (phases of parallel cells overlap, so they need not add up to the wall).
 * Returns the phases, whether the goal was met, and the run's exit code.
 */
export async function timeGate(dataset: string): Promise<{ phases: GatePhase[]; met: boolean; exitCode: number; targets: string[] }> {
  const { report, wallMs, cpu } = await runProfileMeasured('pr-gate', dataset);
  const phases: GatePhase[] = [];
  for (const c of report.cells) {
    const { startMs, loadMs, indexMs } = c.timings;
    if (startMs !== null) phases.push({ what: `${c.target}: start (${c.provider})`, ms: startMs, goalMs: null });
    if (loadMs !== null) phases.push({ what: `${c.target}: golden load`, ms: loadMs, goalMs: null });
    if (indexMs !== null) phases.push({ what: `${c.target}: index build (${c.index.type})`, ms: indexMs, goalMs: null });
    const checks = [...c.checks].sort((a, b) => b.durationMs - a.durationMs);
    phases.push({ what: `${c.target}: ${checks.length} checks (sum of wall times)`, ms: checks.reduce((s, x) => s + x.durationMs, 0), goalMs: null });
    for (const x of checks.slice(0, 3)) phases.push({ what: `${c.target}:   slowest ${x.id} ${x.name}`, ms: x.durationMs, goalMs: null });
  }
  phases.push({ what: `pr-gate wall (exit ${report.exitCode})`, ms: wallMs, goalMs: GATE_GOAL_MS });
  phases.push({ what: `pr-gate CPU time: ${cpuLine(cpu, wallMs)}`, ms: cpu.totalS * 1000, goalMs: null });
  return { phases, met: wallMs <= GATE_GOAL_MS, exitCode: report.exitCode, targets: report.cells.map((c) => c.target) };
}
