import { readFileSync } from 'node:fs';
import { containerCpuMs } from '@memory-matrix/targets';

/**
 * What a run cost in CPU time, next to its wall time, so runs on different machines compare:
 * a 2-core laptop and a 16-core runner differ in wall time, far less in CPU-seconds.
 */
export interface RunCpu {
  /** runnerS + childProcessesS + containersS, seconds. */
  totalS: number;
  /** This process (the CLI, in-process cells, the oracle) since the run started (runMatrix subtracts its start figure): process.cpuUsage() user + system, seconds. */
  runnerS: number;
  /**
   * Processes it started and that have ended (embedded cells' child processes, local servers,
   * store processes, image build steps) and their own ended children: /proc/self/stat cutime +
   * cstime (Linux, clock ticks of 1/100 s: USER_HZ, proc(5)); null where /proc is absent.
   */
  childProcessesS: number | null;
  /** The containers it started (Engine API cpu_usage.total_usage, read before each stop: backends container/cpu.ts), seconds. */
  containersS: number;
  /** Container counters that could not be read (the figure is then a lower bound). */
  containerSegmentsUnread: number;
  /** totalS / wall time: how many cores the run kept busy on average. */
  coresBusy: number;
}

/** USER_HZ: the unit of the times in /proc/<pid>/stat, 100 on every Linux architecture (proc(5), times(2)). */
const USER_HZ = 100;

/** cutime + cstime of this process from /proc/self/stat, seconds; null when it cannot be read (not Linux). */
export function endedChildrenCpuS(stat = '/proc/self/stat'): number | null {
  let text: string;
  try {
    text = readFileSync(stat, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name, which is in parentheses and may itself hold spaces or ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state): field n is rest[n - 3]; cutime is field 16, cstime field 17.
  const cutime = Number(rest[13]);
  const cstime = Number(rest[14]);
  return Number.isFinite(cutime) && Number.isFinite(cstime) ? (cutime + cstime) / USER_HZ : null;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

/** The run's CPU time so far, with `wallMs` (the run's wall time, ms) for the cores-busy figure. */
export function measureRunCpu(wallMs: number): RunCpu {
  const u = process.cpuUsage();
  const runnerS = (u.user + u.system) / 1e6;
  const childProcessesS = endedChildrenCpuS();
  const c = containerCpuMs();
  const totalS = runnerS + (childProcessesS ?? 0) + c.ms / 1000;
  return {
    totalS: round1(totalS),
    runnerS: round1(runnerS),
    childProcessesS: childProcessesS === null ? null : round1(childProcessesS),
    containersS: round1(c.ms / 1000),
    containerSegmentsUnread: c.unread,
    coresBusy: wallMs > 0 ? Math.round((totalS / (wallMs / 1000)) * 100) / 100 : 0,
  };
}

/** `CPU 412.3 s (this process 120.1, ended child processes 200.2, containers 92.0) in 300.1 s wall: 1.37 cores busy on average`. */
export function cpuLine(cpu: RunCpu, wallMs: number): string {
  const parts = [
    `this process ${cpu.runnerS}`,
    `ended child processes ${cpu.childProcessesS ?? 'unknown (no /proc)'}`,
    `containers ${cpu.containersS}${cpu.containerSegmentsUnread ? ` (${cpu.containerSegmentsUnread} counter(s) unread: at least)` : ''}`,
  ];
  return `CPU ${cpu.totalS} s (${parts.join(', ')}) in ${(wallMs / 1000).toFixed(1)} s wall: ${cpu.coresBusy} cores busy on average`;
}

/** `after` − `before` (two measureRunCpu figures of one process): what happened in between, e.g. one in-process run of `pnpm bench`. */
export function cpuBetween(before: RunCpu, after: RunCpu, wallMs: number): RunCpu {
  const d = (f: (c: RunCpu) => number): number => round1(f(after) - f(before));
  const totalS = d((c) => c.totalS);
  return {
    totalS,
    runnerS: d((c) => c.runnerS),
    childProcessesS: before.childProcessesS === null || after.childProcessesS === null ? null : d((c) => c.childProcessesS!),
    containersS: d((c) => c.containersS),
    containerSegmentsUnread: after.containerSegmentsUnread - before.containerSegmentsUnread,
    coresBusy: wallMs > 0 ? Math.round((totalS / (wallMs / 1000)) * 100) / 100 : 0,
  };
}
