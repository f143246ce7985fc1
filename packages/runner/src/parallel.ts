import os from 'node:os';
import { MemoryMatrixError } from '@memory-matrix/spec';
import type { ResolvedTarget } from '@memory-matrix/targets';

/**
 * Memory one running cell costs on this host, bytes, by provider. Measured on agent-memories (5111
 * memories, 384 dimensions), sampling the runner's RSS and `docker stats` every 5 s: the runner
 * peaked at 1074 MiB running the 3 embedded cells one after another (≈ 250 MiB of it the runner
 * itself; a PGlite cell ≈ 400–500 MiB while it loads and builds its index), so 512 MiB per
 * embedded cell (local: a Chroma process, taken as the same); a PostgreSQL container peaked at
 * 126 MiB in pr-gate (load, HNSW build, queries; 33–44 MiB idle) while the runner, with two
 * container cells and no embedded one running, stayed near 250 MiB; C15, C16 and C23 start one
 * more instance each at a time (≈ 126 MiB again), so 126 × 2 + a 250 MiB runner share ≈ 500 MiB,
 * and 768 MiB leaves half again as margin. A url target starts nothing (256 MiB: the runner's share).
 * An embedded cell in a child process of its own (cell-child/; the default when a run has more
 * than one cell) carries its own node, runner modules and golden dataset: its RSS, sampled every
 * 2 s, peaked at 745 MiB (pglite-pg18 in pr-gate), 711 / 751 / 640 MiB (pglite-pg16, pglite-pg18,
 * sqlite in the embedded profile, all three at once), so 768 MiB, as a container cell.
 */
export const CELL_WEIGHT_BYTES: Readonly<Record<ResolvedTarget['provider'], number>> = {
  embedded: 768 * 2 ** 20,
  container: 768 * 2 ** 20,
  local: 512 * 2 ** 20,
  url: 256 * 2 ** 20,
};

/**
 * Cells per CPU the default bound allows (most of a cell's wall time is waiting; see defaultParallelism).
 * Not more: the full default (12 targets) on this 2-CPU host, quiet, took 517 s at 4 cells at once
 * and 565 s at 6 (`--parallel 6`, same verdicts; vmstat: CPU idle 10 %). At 4 the host's CPU
 * accounting (cgroup cpuacct) counted 961 CPU-s in 532 s of wall, 90 % of what 2 CPUs give:
 * the runner and its children 515 s (the embedded and local cells: lancedb ≈ 160, sqlite ≈ 64,
 * the two PGlite cells ≈ 65, chroma@1.0 ≈ 52, each measured alone), containers 271 s, dockerd and
 * containerd 29 s. More cells at once only share the same CPUs (2026-12-04).
 */
export const CELLS_PER_CPU = 2;
/** Share of the free memory at the start of a run that the running cells may take together. */
export const MEMORY_SHARE = 0.5;
/** Largest `--parallel` / `MM_PARALLEL` accepted. */
export const MAX_PARALLEL = 64;

/** What the default bound is computed from (tests pass their own). */
export interface HostResources {
  /** `os.availableParallelism()`: CPUs this process may use. */
  cpus: number;
  /** `os.freemem()`, bytes. */
  freeBytes: number;
}

/** The host as node sees it now. */
export function hostResources(): HostResources {
  return { cpus: os.availableParallelism(), freeBytes: os.freemem() };
}

/** A bound and the sentence that explains it (printed at the start of a run). */
export interface Parallelism {
  /** Cells that may run at once, ≥ 1 (1 = one after another). */
  cells: number;
  why: string;
}

/**
 * The embedded cells of a run whose embedded cells stay in the runner's process
 * (`MM_EMBEDDED_INPROCESS=1`, or a run of that one cell: cell-child/protocol.ts `embeddedMode`):
 * they run alone, one at a time, after the other cells, whatever the bound. Otherwise each runs in
 * a child process of its own and takes a place of the bound like any cell. Their engines run on the runner's one
 * JavaScript thread and a query loop never yields to it: a probe of 3000 PGlite queries in a loop
 * ran 9.2 s with a 10 ms interval timer firing 0 times (expected 921). Measured on this 2-CPU host
 * (load ≈ 17 from other work): the embedded profile with its 3 cells at once failed both PGlite
 * starts ("did not start within 60000 ms"; alone 22–25 s each), and pr-gate with pglite-pg18
 * beside the two PostgreSQL containers stalled their starts for 332 s (the servers had been
 * ready after 3 s), failing both cells. Beside another cell an embedded cell would also distort
 * that cell's timers (start and check time limits, TTL expiry, fault timeouts), so verdicts.
 */
export function exclusiveSuites(targets: readonly Pick<ResolvedTarget, 'provider' | 'name'>[], dataset: string): Set<string> {
  return new Set(targets.filter((t) => t.provider === 'embedded').map((t) => `${t.name} × ${dataset}`));
}

/**
 * The default number of cells run at once for `targets` on `host`: the smallest of
 * - CPU: `cpus × CELLS_PER_CPU` — a cell spends most of its wall time waiting (container starts,
 *   kill -9 / restart cycles, TTL sleeps, the network), not computing;
 * - memory: the largest n such that the n heaviest of the selected cells (CELL_WEIGHT_BYTES by
 *   provider) fit in `MEMORY_SHARE` of the free memory;
 * - the number of targets;
 * and at least 1 (embedded cells kept in this process run alone all the same: exclusiveSuites). Pure: no I/O.
 */
export function defaultParallelism(targets: readonly Pick<ResolvedTarget, 'provider'>[], host: HostResources): Parallelism {
  const cpu = Math.max(1, Math.floor(host.cpus)) * CELLS_PER_CPU;
  const budget = host.freeBytes * MEMORY_SHARE;
  const weights = targets.map((t) => CELL_WEIGHT_BYTES[t.provider]).sort((a, b) => b - a);
  let mem = 0;
  for (let sum = 0; mem < weights.length && sum + weights[mem]! <= budget; mem++) sum += weights[mem]!;
  const cells = Math.max(1, Math.min(cpu, mem, targets.length));
  const gib = (b: number): string => (b / 2 ** 30).toFixed(1);
  return {
    cells,
    why: `default: min(${host.cpus} CPU × ${CELLS_PER_CPU} = ${cpu}, ${mem} cell(s) in ${MEMORY_SHARE * 100} % of ${gib(host.freeBytes)} GiB free, ${targets.length} target(s))`,
  };
}

/** `--parallel` / `MM_PARALLEL`: an integer 1..MAX_PARALLEL; USAGE naming where it came from otherwise. */
export function parseParallel(spec: string, where: string): number {
  if (!/^\d+$/.test(spec.trim()) || Number(spec) < 1 || Number(spec) > MAX_PARALLEL) {
    throw new MemoryMatrixError(
      'USAGE',
      `${where} "${spec}": expected an integer from 1 to ${MAX_PARALLEL} (how many cells run at once; 1 = one after another), e.g. ${where === 'MM_PARALLEL' ? 'MM_PARALLEL=2' : '--parallel 2'}`,
    );
  }
  return Number(spec);
}

/**
 * How many cells a run executes at once: `--parallel N` when given, else `MM_PARALLEL` when set
 * (non-empty), else `defaultParallelism` on this host. Throws USAGE (exit 2) on a malformed value.
 */
export function resolveParallelism(flag: string | undefined, env: string | undefined, targets: readonly Pick<ResolvedTarget, 'provider'>[], host: HostResources = hostResources()): Parallelism {
  if (flag !== undefined) {
    const n = parseParallel(flag, '--parallel');
    return { cells: n, why: '--parallel' };
  }
  if (env !== undefined && env !== '') {
    const n = parseParallel(env, 'MM_PARALLEL');
    return { cells: n, why: 'MM_PARALLEL' };
  }
  return defaultParallelism(targets, host);
}

/** Checks that start instances of their own and kill, restart or pause them (C15, C16, C23): most of a cell's wall time where they run. */
export const FAULT_INSTANCE_CHECKS: ReadonlySet<string> = new Set(['C15', 'C16', 'C23']);

/**
 * The cells to start before the others when several run at once: those that run a check of
 * FAULT_INSTANCE_CHECKS on a target with the `faults` capability. Longest first, so the short
 * cells fill the gaps at the end instead of a long cell starting last and running alone. In the
 * full default on this 2-core host (4 at once) those cells took 172–264 s of checks each and the
 * others 37–80 s; in catalog order chroma@1.4 (172 s) started last, ≈ 80 s after the run's
 * other cells had ended. Pure: no I/O.
 */
export function cellsFirst(targets: readonly Pick<ResolvedTarget, 'name' | 'capabilities'>[], checkIds: readonly string[], dataset: string): Set<string> {
  const faultChecks = checkIds.some((id) => FAULT_INSTANCE_CHECKS.has(id));
  return new Set(targets.filter((t) => faultChecks && t.capabilities.faults).map((t) => `${t.name} × ${dataset}`));
}
