import type { CheckResult, KnownFailureEntry, Metric } from '@memory-matrix/spec';
import { knownVerdict } from '../report/known';
import type { RunTimeZone } from '../time-zone';

/**
 * What one catalogue run (clean or with a mutant) of one target produced: the checks that ran
 * (skipped ones included), and the setup error when the cell did not start.
 */
export interface CatalogueRun {
  results: CheckResult[];
  /** The cell's setup (or teardown) error: the run was not carried out. */
  setupError?: { code?: string; message: string };
  /**
   * Ids of the failed checks whose every failure the target's `knownFailures` entry absorbs
   * (report/known.ts `knownVerdict` → `known`, as the main run's report would settle them): a known
   * upstream defect, not a catch and not a failed clean run. Absent when none.
   */
  known?: string[];
  /** Wall time, ms. */
  ms: number;
}

/** A check that failed in a run, with the first line of its first failure (or its error). */
export interface CatchingCheck {
  id: string;
  name: string;
  firstLine: string;
}

/**
 * One mutant on one target.
 * - `caught`: at least one check failed with the mutant applied (`caughtBy`, in catalogue order);
 *   a check stopped at its time limit (error code TIMEOUT) is not a catch: on a loaded host any
 *   check may run out of time, mutant or not (it is listed in `timedOut`);
 * - `escaped`: every check that ran passed (or was skipped);
 * - `n/a`: the target's capabilities cannot show the bug (`reason`); not counted;
 * - `error`: the run with the mutant could not be carried out (the cell did not start), or no
 *   check caught it but one ran out of time, so whether one would have is unknown (`reason`).
 */
export interface MutantOutcome {
  mutant: string;
  family: string;
  bug: string;
  status: 'caught' | 'escaped' | 'n/a' | 'error';
  caughtBy: CatchingCheck[];
  /** Checks stopped at their time limit in this run (not counted as catches); absent when none. */
  timedOut?: string[];
  reason?: string;
  /** Checks that ran (passed or failed; skipped ones not counted). */
  checksRun: number;
  ms: number;
}

/** The clean run of one target (no mutant): `void` when a check failed — the selftest of that target then means nothing. */
export interface CleanOutcome {
  status: 'clean' | 'void' | 'error';
  /** Ids of the checks that failed on the clean run (`void`). */
  failed: string[];
  /** Why the run is `error` (setup error), or the first line of each failed check (`void`). */
  reason?: string;
  checksRun: number;
  ms: number;
  /** Checks that failed on the clean run inside the target's `knownFailures` (`CatalogueRun.known`): they cannot catch a mutant by failing within that scope. Absent when none. */
  known?: string[];
  /** Wall time of each check that ran, ms, by id (the cost `--first`'s order is measured by; the first check to use the golden collection carries its load). */
  checkMs?: Record<string, number>;
}

/** The selftest of one target. */
export interface TargetSelftest {
  target: string;
  clean: CleanOutcome;
  mutants: MutantOutcome[];
}

/** Counts over every target: `caughtPct` = caught / (caught + escaped) × 100, null when none applied. */
export interface SelftestSummary {
  applicable: number;
  caught: number;
  escaped: number;
  notApplicable: number;
  errors: number;
  caughtPct: number | null;
}

/** selftest.json: format `memory-matrix-selftest`, version 1. */
export interface SelftestReport {
  format: 'memory-matrix-selftest';
  version: 1;
  tool: string;
  /** The zone the selftest's processes ran in (time-zone.ts): `local-time-created-at` is caught only outside UTC. Absent in older reports. */
  timeZone?: RunTimeZone;
  argv: string[];
  startedAt: string;
  durationMs: number;
  /** `--first`: each mutant's run stopped at its first catching check. */
  first: boolean;
  dataset: string | null;
  /** `--profile` (its check tier), or null. */
  profile?: string | null;
  /** Ids of the checks the runs carry, in catalogue order (`--check` and the profile's tier applied); a mutant run with `--first` runs them in `firstOrder`. */
  checks?: string[];
  targets: TargetSelftest[];
  summary: SelftestSummary;
  /** A run-level error (bad arguments, dataset, catalog): nothing or only part was run. */
  error?: { code?: string; message: string };
  /** 0 every applicable mutant caught; 1 one escaped; 2 not carried out (an error, or a clean run that failed: void). */
  exitCode: 0 | 1 | 2;
}

/**
 * Whether the failed check `r` fails wholly inside its target's `knownFailures` entry for it:
 * report/known.ts `knownVerdict` says `known` (every failure inside the entry's scope), as the
 * main run's report would settle it. A passed, skipped or timed-out check, a check with no entry,
 * or a failure outside the scope → false. `metric`: the dataset's. Pure; never throws.
 */
export function absorbedByKnown(r: CheckResult, entries: readonly KnownFailureEntry[] | undefined, metric?: Metric): boolean {
  if (r.status !== 'failed') return false;
  return (
    knownVerdict(
      r,
      entries?.find((k) => k.check === r.id),
      metric,
    )?.verdict === 'known'
  );
}

/** The first line of a failed check's first failure, or of its error. */
export function firstLine(r: CheckResult): string {
  const msg = r.error ? `${r.error.code ? `${r.error.code}: ` : ''}${r.error.message}` : (r.failures[0]?.message ?? 'failed');
  return msg.split('\n')[0]!;
}

/**
 * The failed checks of a run, in catalogue order, but those its target's `knownFailures` absorb
 * (`run.known`); `timeout` marks a check stopped at its time limit (runtime.ts `timedOutResult`).
 */
export function failedChecks(run: CatalogueRun): Array<CatchingCheck & { timeout: boolean }> {
  const known = new Set(run.known ?? []);
  return run.results
    .filter((r) => r.status === 'failed' && !known.has(r.id))
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((r) => ({ id: r.id, name: r.name, firstLine: firstLine(r), timeout: r.error?.code === 'TIMEOUT' }));
}

/**
 * Judge the clean run: `error` on a setup error, `void` when a check failed outside the target's
 * `knownFailures` (a known upstream defect, `run.known`, is listed in `known` and voids nothing),
 * else `clean`.
 */
export function judgeClean(run: CatalogueRun): CleanOutcome {
  const ran = run.results.filter((r) => r.status !== 'skipped');
  const checksRun = ran.length;
  const checkMs = Object.fromEntries(ran.map((r) => [r.id, Math.round(r.durationMs)]));
  if (run.setupError) return { status: 'error', failed: [], reason: run.setupError.message.split('\n')[0], checksRun, ms: run.ms, checkMs };
  const failed = failedChecks(run);
  if (failed.length) return { status: 'void', failed: failed.map((f) => f.id), reason: failed.map((f) => `${f.id}: ${f.firstLine}`).join('; '), checksRun, ms: run.ms, checkMs };
  return { status: 'clean', failed: [], ...(run.known?.length ? { known: run.known } : {}), checksRun, ms: run.ms, checkMs };
}

/** Judge one mutant's run: `error` on a setup error, `caught` when a check failed outside the target's `knownFailures` (`failedChecks`), else `escaped`. */
export function judgeMutant(m: { name: string; family: string; bug: string }, run: CatalogueRun): MutantOutcome {
  const base = { mutant: m.name, family: m.family, bug: m.bug, checksRun: run.results.filter((r) => r.status !== 'skipped').length, ms: run.ms };
  if (run.setupError) return { ...base, status: 'error', caughtBy: [], reason: run.setupError.message.split('\n')[0] };
  const failed = failedChecks(run);
  const timedOut = failed.filter((f) => f.timeout).map((f) => f.id);
  const caughtBy = failed.filter((f) => !f.timeout).map(({ timeout: _t, ...c }) => c);
  const t = timedOut.length ? { timedOut } : {};
  if (caughtBy.length) return { ...base, status: 'caught', caughtBy, ...t };
  if (timedOut.length) {
    const reason = `no check caught it, and ${timedOut.join(', ')} ran out of time (${failed.find((f) => f.timeout)!.firstLine}): a time limit of a loaded host is not a catch; run again with fewer runs at once (--parallel)`;
    return { ...base, status: 'error', caughtBy, ...t, reason };
  }
  return { ...base, status: 'escaped', caughtBy };
}

/** A mutant the target's capabilities cannot show. */
export function notApplicable(m: { name: string; family: string; bug: string }, reason: string): MutantOutcome {
  return { mutant: m.name, family: m.family, bug: m.bug, status: 'n/a', caughtBy: [], reason, checksRun: 0, ms: 0 };
}

/** Summary counts over every target's mutants. */
export function summarize(targets: readonly TargetSelftest[]): SelftestSummary {
  const all = targets.flatMap((t) => t.mutants);
  const caught = all.filter((m) => m.status === 'caught').length;
  const escaped = all.filter((m) => m.status === 'escaped').length;
  return {
    applicable: caught + escaped,
    caught,
    escaped,
    notApplicable: all.filter((m) => m.status === 'n/a').length,
    errors: all.filter((m) => m.status === 'error').length,
    caughtPct: caught + escaped ? (100 * caught) / (caught + escaped) : null,
  };
}

/**
 * The exit status: 2 when the run was not carried out (a run-level error, a target whose clean
 * run failed or did not start, a mutant run that did not start), else 1 when a mutant escaped,
 * else 0.
 */
export function exitCodeOf(targets: readonly TargetSelftest[], error?: unknown): 0 | 1 | 2 {
  if (error) return 2;
  if (targets.some((t) => t.clean.status !== 'clean' || t.mutants.some((m) => m.status === 'error'))) return 2;
  if (targets.some((t) => t.mutants.some((m) => m.status === 'escaped'))) return 1;
  return 0;
}
