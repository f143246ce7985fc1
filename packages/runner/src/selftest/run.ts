import { shownDir } from '../shown-dir';
import os from 'node:os';
import pLimit from 'p-limit';
import { CHECKS, loadGoldenDataset, type CheckDefinition } from '@memory-matrix/spec';
import { dockerStatus, redactUrl, type Catalog, type ImageSource, type ResolvedTarget } from '@memory-matrix/targets';
import { watchInterrupt } from '../baseline/interrupt';
import { loadExpectation } from '../golden';
import { datasetDir, ensureReportDir, runIdOf } from '../run';
import { writeFilesAtomic } from '../report/atomic';
import { lockReportDir } from '../report/lock';
import { parseParallel } from '../parallel';
import { runCatalog, checkTier, resolveChecks, selectTargets } from '../select';
import { WorkerPool } from './pool';
import { currentTimeZone } from '../time-zone';
import { TOOL_VERSION } from '../version';
import { runCatalogue } from './catalogue-run';
import { exitCodeOf, judgeClean, type CatalogueRun, judgeMutant, notApplicable, summarize, type SelftestReport, type TargetSelftest } from './model';
import { faultStore, selectMutants, type Mutant } from './mutants';
import { knownText, renderSelftestConsole, renderSelftestMarkdown, verdictText } from './render';

/** The profile whose check tier names the slow checks `--first` runs last (`slowChecks`). */
export const SLOW_TIER_PROFILE = 'pr-gate';

/** The profile whose targets a selftest without `--backend` covers. */
export const SELFTEST_DEFAULT_PROFILE = 'embedded';

/**
 * Runs at once by default: one more than the CPUs, at most 4 (a catalogue run waits on its
 * backend more than it computes: the clean sqlite run measured 73 s of CPU in 162 s of wall time).
 */
export function defaultSelftestParallel(): number {
  return Math.max(1, Math.min(2, os.availableParallelism()));
}

/** Options of `memory-matrix selftest`. */
export interface SelftestOptions {
  /** `--backend` targets; empty = the `SELFTEST_DEFAULT_PROFILE` profile's targets. */
  backends: string[];
  /** `--mutant` names; empty = every mutant. */
  mutants: string[];
  /** `--check` ids or names: only these checks run (clean and mutant runs); empty = every check of the profile's tier. */
  checks?: string[];
  /**
   * `--profile`: without `--backend` its targets (default `SELFTEST_DEFAULT_PROFILE`'s), and its
   * check tier (matrix/targets.yaml `checks` / `excludeChecks`): the checks it leaves out are not
   * run at all. Undefined: every check.
   */
  profile?: string;
  /** `--first`: stop each mutant's run at its first catching check. */
  first: boolean;
  dataset: string;
  /** Absolute dir for selftest.json and selftest.md. */
  reportDir: string;
  imageSource?: ImageSource;
  /** `--parallel n` as given: runs at once (1 = in this process, one after another; more: worker processes). Default: `MM_PARALLEL`, else `defaultSelftestParallel()`. */
  parallel?: string;
  argv: string[];
  out?: (line: string) => void;
}

/**
 * `--first`'s run order: the checks that catch the most mutants for the least time first, so a mutant's run ends
 * within seconds of its start. Measured on sqlite@3.53-vec0.1.9 (selftest without `--first` of every mutant over the
 * checks that need no golden replay, load average 15-30 on 2 cores; each clean check's time: selftest.json `checkMs`):
 *   C25  0.7 s  filter-dropped, filter-after-topk, k-minus-one, k-plus-one, namespace-leak-* (3), writes-visible-late, delete-keeps-rows, delete-filter-too-wide
 *   C10  0.5 s  score-as-distance, score-half-scale, k-minus-one, vectors-rounded
 *   C24  0.6 s  decay-age-seconds, the score mutants, k±1
 *   C01  2.0 s  falsy-metadata-lost, get-database-order, vectors-rounded, writes-visible-late
 *   C29  0.9 s  write-error-swallowed        C20  1.1 s  history-bad-payload-empty
 *   C21  1.8 s  upsert-keeps-old             C18  (Redis) ttl-missing-one-key
 *   C14 10 s    last-chunk-dropped           C09 13 s    min-score-exclusive (its boundary probe)
 *   C08 16 s    ties-reversed (its probes' exact ties); C09 and C08 load the golden collection (5 s on sqlite)
 *   C22 30 s    lock-wait-dropped (its write-lock step), failed-batch-rolls-back-others (its mixed step)
 * then the other cheap checks (C27 3.6 s, C13 6.7 s, C11, C12, C17; C31 5–8 s the only catcher of filter-op-flip, -ne-missing, -coercion, -or-as-and, -bound-exclusive), the golden
 * replays (C03 first; C02–C07 47-54 s each on sqlite), C30, C26 (187 s); unlisted checks after them, the slow tier last.
 */
export const FIRST_ORDER: readonly string[] = [
  'C25',
  'C10',
  'C24',
  'C01',
  'C29',
  'C20',
  'C21',
  'C18',
  'C14',
  'C09',
  'C08',
  'C22',
  'C27',
  'C13',
  'C11',
  'C12',
  'C17',
  'C31',
  'C03',
  'C06',
  'C04',
  'C07',
  'C02',
  'C05',
  'C28',
  'C30',
  'C26',
];

/**
 * The checks of a mutant run, in run order: with `--first`, `FIRST_ORDER` (then the checks it does
 * not list, in catalogue order), with the `slow` checks last (in catalogue order), so a run that
 * catches stops as early as it can; without it, catalogue order. Static, so the mutant runs need
 * not wait for the clean run.
 */
export function mutantCheckOrder(checks: readonly CheckDefinition[], first: boolean, slow: ReadonlySet<string> = new Set()): CheckDefinition[] {
  if (!first) return [...checks];
  const rank = (c: CheckDefinition, i: number): number => {
    const listed = FIRST_ORDER.indexOf(c.id);
    return (slow.has(c.id) ? 2 * CHECKS.length : 0) + (listed >= 0 && !slow.has(c.id) ? listed : FIRST_ORDER.length + i);
  };
  return checks
    .map((c, i) => ({ c, r: rank(c, i) }))
    .sort((a, b) => a.r - b.r)
    .map(({ c }) => c);
}

/**
 * The checks `--first` runs last: those the catalog's `SLOW_TIER_PROFILE` profile leaves out (its check tier, matrix/targets.yaml:
 * durability, upgrade, eviction and faults, most of a cell's wall time: C15 55 s and C23 55 s of sqlite's 160 s), none without that profile.
 */
export function slowChecks(catalog: Catalog): Set<string> {
  return catalog.profiles.has(SLOW_TIER_PROFILE) ? new Set(checkTier(catalog, SLOW_TIER_PROFILE).skip.keys()) : new Set();
}

/**
 * `memory-matrix selftest`: per target, one clean catalogue run (a failure there makes the target's
 * selftest void: exit 2 naming the checks), then one catalogue run per mutant with its contract
 * fault applied to every store the cell opens, each on a freshly started backend. Prints the mutant
 * → caught by / ESCAPED table and the caught percentage, writes selftest.json and selftest.md into
 * `reportDir` (also when it stops on an error), and returns the report; its `exitCode` is 0 every
 * applicable mutant caught, 1 one escaped, 2 not carried out. Ctrl-C stops the backend it started,
 * writes the partial report and exits 130 / 143.
 */
export async function runSelftest(opts: SelftestOptions): Promise<SelftestReport> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const startedAt = new Date();
  const t0 = performance.now();
  const report: SelftestReport = {
    format: 'memory-matrix-selftest',
    version: 1,
    tool: TOOL_VERSION,
    timeZone: currentTimeZone(),
    argv: opts.argv.map(redactUrl),
    startedAt: startedAt.toISOString(),
    durationMs: 0,
    first: opts.first,
    dataset: null,
    profile: opts.profile ?? null,
    checks: [],
    targets: [],
    summary: summarize([]),
    exitCode: 2,
  };
  const settle = (): void => {
    report.durationMs = performance.now() - t0;
    report.summary = summarize(report.targets);
    report.exitCode = exitCodeOf(report.targets, report.error);
  };
  const pool = new WorkerPool();
  /** Whether this run holds the report dir's lock (report/lock.ts): a run stopped at the lock writes nothing there. */
  let ownsReportDir = false;
  const watch = watchInterrupt(out, (sig) => {
    pool.stop();
    report.error = { code: 'INTERRUPTED', message: `interrupted by ${sig}; the report holds the runs that completed before it` };
    settle();
    if (ownsReportDir) writeSelftestReports(report, opts.reportDir);
  });
  try {
    ensureReportDir(opts.reportDir);
    lockReportDir(opts.reportDir, '--report-dir', 'selftest');
    ownsReportDir = true;
    const mutants = selectMutants(opts.mutants);
    const catalog = runCatalog();
    const docker = await dockerStatus();
    const { targets, why } = selectTargets(catalog, { backends: opts.backends, profile: opts.profile ?? SELFTEST_DEFAULT_PROFILE, docker: docker.available, shard: null });
    const tier = checkTier(catalog, opts.profile);
    const checks = resolveChecks(opts.checks ?? [], tier).filter((c) => !tier.skip.has(c.id));
    report.checks = checks.map((c) => c.id);
    const dataset = loadGoldenDataset(datasetDir(opts.dataset));
    report.dataset = dataset.manifest.name;
    const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
    const { expectation } = loadExpectation(dataset, { update: false, tieEpsilon });
    const parallel =
      opts.parallel !== undefined ? parseParallel(opts.parallel, '--parallel') : process.env.MM_PARALLEL ? parseParallel(process.env.MM_PARALLEL, 'MM_PARALLEL') : defaultSelftestParallel();
    out(
      `memory-matrix ${TOOL_VERSION} selftest: ${targets.length} target(s) from ${why}, ${mutants.length} mutant(s), ${checks.length === CHECKS.length ? 'every check' : `checks ${checks.map((c) => c.id).join(' ')}`}${opts.first ? ', --first' : ''}, ${parallel} run(s) at once${parallel > 1 ? ' (worker processes)' : ''}`,
    );
    const runId = runIdOf(startedAt);
    const runner: Runner =
      parallel > 1
        ? (target, mutant, checks) =>
            pool
              .run(
                { target: target.name, mutant: mutant?.name ?? null, checks: checks.map((c) => c.id), first: opts.first, dataset: dataset.dir, imageSource: opts.imageSource, runId },
                () => undefined,
              )
              .catch((e: { code?: string; message?: string }) => ({ results: [], ms: 0, setupError: { code: e.code, message: e.message ?? String(e) } }))
        : (target, mutant, checks) => {
            const fault = mutant?.fault(target.capabilities);
            return runCatalogue(target, dataset, expectation, {
              checks,
              first: opts.first,
              runId,
              imageSource: opts.imageSource,
              onStarted: (b) => watch.track(b),
              ...(fault ? { wrapStore: (s) => faultStore(s, fault) } : {}),
            });
          };
    for (const target of targets) {
      const into: TargetSelftest = { target: target.name, clean: { status: 'error', failed: [], reason: 'the clean run has not finished', checksRun: 0, ms: 0 }, mutants: [] };
      report.targets.push(into);
      await selftestTarget(target, mutants, checks, opts, parallel, slowChecks(catalog), runner, out, into);
      await watch.checkpoint();
    }
  } catch (e) {
    if (watch.signal) await new Promise(() => undefined); // the interrupt handler writes the report and exits
    const err = e as { code?: string; message?: string };
    report.error = { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) };
  } finally {
    watch.dispose();
    pool.dispose();
  }
  settle();
  out(renderSelftestConsole(report));
  if (!ownsReportDir) return report;
  try {
    writeSelftestReports(report, opts.reportDir);
  } catch (e) {
    // Only when the report dir itself is unusable (checked up front, so nothing ran).
    process.stderr.write(`memory-matrix: cannot write the selftest reports to ${opts.reportDir}: ${(e as Error).message}\n`);
    report.exitCode = 2;
  }
  out(`reports: ${shownDir(opts.reportDir)}/{selftest.json,selftest.md}`);
  return report;
}

/** How a catalogue run is carried out: in this process, or in a worker child process. */
type Runner = (target: ResolvedTarget, mutant: Mutant | null, checks: readonly CheckDefinition[]) => Promise<CatalogueRun>;

/**
 * The clean run and every applicable mutant's run on one target, up to `parallel` at once (the
 * clean run first in the queue), recorded into `into` as they finish; a clean run that failed or
 * did not start makes the target void (its mutants' verdicts are then dropped: they would mean nothing).
 */
async function selftestTarget(
  target: ResolvedTarget,
  mutants: readonly Mutant[],
  checks: readonly CheckDefinition[],
  opts: SelftestOptions,
  parallel: number,
  slow: ReadonlySet<string>,
  run: Runner,
  out: (l: string) => void,
  into: TargetSelftest,
): Promise<void> {
  const order = mutantCheckOrder(checks, opts.first, slow);
  const limit = pLimit(parallel);
  const applicable = mutants.filter((m) => !m.requires(target.capabilities));
  out(`${target.name}: clean run and ${applicable.length} mutant run(s), ${parallel} at once…`);
  const cleanP = limit(() => run(target, null, checks));
  const runs = mutants.map((m) => {
    const na = m.requires(target.capabilities);
    if (na) return Promise.resolve(notApplicable(m, na));
    return limit(async () => {
      const outcome = judgeMutant(m, await run(target, m, order));
      into.mutants.push(outcome); // as they finish: an interrupted run's report keeps them
      out(`${target.name}: ${m.name}: ${verdictText(outcome)}${outcome.caughtBy[0] ? ` — ${outcome.caughtBy[0].firstLine.slice(0, 160)}` : ''} (${(outcome.ms / 1000).toFixed(1)} s)`);
      return outcome;
    });
  });
  const clean = judgeClean(await cleanP);
  into.clean = clean;
  out(
    `${target.name}: clean run ${clean.status === 'clean' ? `passed ${clean.checksRun} checks${knownText(clean.known)}` : clean.status === 'void' ? `FAILED ${clean.failed.join(', ')}: the selftest of this target is void` : `did not start: ${clean.reason}`} (${(clean.ms / 1000).toFixed(1)} s)`,
  );
  const outcomes = await Promise.all(runs);
  into.mutants = clean.status === 'clean' ? outcomes : [];
}

/**
 * Write selftest.json and selftest.md of `report` into `dir` (which must exist) as a group
 * (`writeFilesAtomic`): both rendered, written to temporary names, renamed into place with
 * selftest.json last. Throws the file system's error, whose message names the path (ENOENT `dir`
 * missing, EISDIR / ENOTEMPTY a report's name is a directory, EACCES, ENOSPC, EROFS). After a
 * failure no temporary file is left and selftest.json is as it was.
 */
export function writeSelftestReports(report: SelftestReport, dir: string): void {
  writeFilesAtomic(dir, [
    ['selftest.json', JSON.stringify(report, null, 2) + '\n'],
    ['selftest.md', renderSelftestMarkdown(report) + '\n'],
  ]);
}
