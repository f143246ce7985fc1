import { cpus, loadavg } from 'node:os';
import { MemoryMatrixError } from './errors';

/**
 * How slow this host is right now, as a factor ≥ 1 that the run's time limits are multiplied by
 * (cell set-up, check limits, C15 / C23 client timeouts, waits): a busy or slow machine stretches
 * them instead of failing a correct store, and a store that still misses the scaled limit fails
 * with the limit and the factor in its message. Two measurements of one fixed CPU workload:
 * - contention: its wall time / this process's CPU time over it (1 when the process had a core to
 *   itself; 3 when it got a third of one: other processes, containers, a CI neighbour);
 * - speed: its CPU time / REFERENCE_CPU_MS (a slower core than the reference machine's).
 * factor = max(1, contention, speed), capped at MAX_HOST_FACTOR: slowness never stretches a limit
 * without bound, so a hang is still a hang.
 */
export interface HostCalibration {
  /** Limits are multiplied by this: max(1, contention, speed) capped at MAX_HOST_FACTOR, 2 decimals; or MM_HOST_FACTOR when set. */
  factor: number;
  /** Wall time / CPU time of the workload (null when MM_HOST_FACTOR set the factor). */
  contention: number | null;
  /** CPU time of one repetition / REFERENCE_CPU_MS (null when MM_HOST_FACTOR set the factor). */
  speed: number | null;
  /** Where the factor came from. */
  source: 'measured' | 'MM_HOST_FACTOR';
  /** 1-minute load average and CPU count when measured (os.loadavg(), os.cpus()). */
  loadAverage: number;
  cpus: number;
  /** When measured, ISO-8601 UTC. */
  at: string;
}

/** Dimension of the workload's vectors: the golden default (agent-memories, 384-d). */
const DIM = 384;
/** Dot products per repetition: 10,000 × 384 multiply-adds ≈ 3.8 M, about 4 ms of CPU on the reference machine. */
const DOTS = 10_000;
/** Timed repetitions after two warm-ups (JIT tiers are not the host's slowness); the figures sum over them. */
const REPS = 10;
/**
 * CPU time of one repetition on the reference machine, ms: the 2-vCPU x86-64 machine this project
 * is built and its CI run on (Node 20), measured 2026-12-06 (about 4 ms; 40 ms over 10 repetitions).
 * Only the speed term uses it: the contention term needs no reference.
 */
export const REFERENCE_CPU_MS = 4;
/** The factor never exceeds this: a limit is stretched at most 8×, never without bound. */
export const MAX_HOST_FACTOR = 8;
/** A process re-measures when its last calibration is older than this, ms. */
export const CALIBRATION_TTL_MS = 15_000;

let sink = 0;

/** Rows of the workload's matrix (the query is scored against each in turn, as the oracle scores memories). */
const ROWS = 64;

/**
 * One repetition: DOTS dot products of a DIM-long Float32Array query with the rows of a ROWS × DIM
 * matrix (the oracle's kernel). Returns its wall time and this process's CPU time over it, ms.
 */
function oneRep(q: Float32Array, m: Float32Array): { wallMs: number; cpuMs: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let s = 0;
  for (let i = 0; i < DOTS; i++) {
    const off = (i % ROWS) * DIM;
    let d = 0;
    for (let j = 0; j < DIM; j++) d += q[j]! * m[off + j]!;
    s += d;
  }
  sink += s; // keeps the loop from being optimised away
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000 };
}

/**
 * `MM_HOST_FACTOR` (a number ≥ 1 and ≤ MAX_HOST_FACTOR), or undefined when unset: a fixed factor
 * instead of a measurement (to replay a run with the limits it had). Throws USAGE naming the
 * variable for any other value.
 */
export function hostFactorOverride(): number | undefined {
  const v = process.env.MM_HOST_FACTOR;
  if (v === undefined || v === '') return undefined;
  const f = Number(v);
  if (!Number.isFinite(f) || f < 1 || f > MAX_HOST_FACTOR)
    throw new MemoryMatrixError('USAGE', `MM_HOST_FACTOR "${v}": expected a number from 1 to ${MAX_HOST_FACTOR} (multiplies every time limit of the run), e.g. MM_HOST_FACTOR=2`);
  return f;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * Measure the host now (12 repetitions, about 50 ms of CPU on the reference machine): factor =
 * max(1, contention, speed) capped at MAX_HOST_FACTOR (see HostCalibration). With MM_HOST_FACTOR
 * set, that figure and no measurement. Throws USAGE for a malformed MM_HOST_FACTOR.
 */
export function calibrateHost(): HostCalibration {
  const base = { loadAverage: round2(loadavg()[0]!), cpus: cpus().length, at: new Date().toISOString() };
  const fixed = hostFactorOverride();
  if (fixed !== undefined) return { ...base, factor: fixed, contention: null, speed: null, source: 'MM_HOST_FACTOR' };
  // Fixed, non-random inputs: the same work on every host (values only need to be finite).
  const q = Float32Array.from({ length: DIM }, (_, i) => Math.sin(i + 1));
  const m = Float32Array.from({ length: DIM * ROWS }, (_, i) => Math.cos(i + 1));
  oneRep(q, m);
  oneRep(q, m);
  let wall = 0;
  let cpu = 0;
  for (let i = 0; i < REPS; i++) {
    const r = oneRep(q, m);
    wall += r.wallMs;
    cpu += r.cpuMs;
  }
  cpu = Math.max(cpu, 0.001);
  const contention = wall / cpu;
  const speed = cpu / REPS / REFERENCE_CPU_MS;
  const factor = Math.min(MAX_HOST_FACTOR, Math.max(1, contention, speed));
  return { ...base, factor: round2(factor), contention: round2(contention), speed: round2(speed), source: 'measured' };
}

let last: { cal: HostCalibration; t: number } | undefined;

/**
 * This process's current calibration: MM_HOST_FACTOR's figure when set (read at every call), else
 * the last measurement when younger than CALIBRATION_TTL_MS, else a new one (calibrateHost).
 * Throws USAGE for a malformed MM_HOST_FACTOR.
 */
export function hostCalibration(): HostCalibration {
  if (hostFactorOverride() !== undefined) return calibrateHost();
  const now = performance.now();
  if (!last || now - last.t > CALIBRATION_TTL_MS) last = { cal: calibrateHost(), t: now };
  return last.cal;
}

/** `baseMs` × the current host factor, rounded to whole ms. */
export function scaledLimitMs(baseMs: number): number {
  return Math.round(baseMs * hostCalibration().factor);
}

/** `1500 ms × host factor 2.4 = 3600 ms` (or `1500 ms` at factor 1): how a scaled limit is named in messages. */
export function describeLimit(baseMs: number, factor = hostCalibration().factor): string {
  return factor === 1 ? `${baseMs} ms` : `${baseMs} ms × host factor ${factor} = ${Math.round(baseMs * factor)} ms`;
}

/** @internal for tests: the value that keeps the workload observable. */
export function calibrationSink(): number {
  return sink;
}

/** Every limit of `t` (ms) × the current host factor, rounded to whole ms: client timeouts scaled as one. */
export function scaledTimeouts<T extends Record<string, number>>(t: T, factor = hostCalibration().factor): T {
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v * factor)])) as T;
}
