import { writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { loadGoldenDataset, selectChecks, type CheckDefinition, type Expectation, type GoldenDataset } from '@memory-matrix/spec';
import { dockerStatus, loadCatalog, redactUrl, type ImageSource, type ResolvedTarget } from '@memory-matrix/backends';
import { watchInterrupt } from '../baseline/interrupt';
import { loadExpectation } from '../golden';
import { datasetDir, ensureReportDir, runIdOf } from '../run';
import { catalogFile, selectTargets } from '../select';
import { TOOL_VERSION } from '../version';
import { runCatalogue } from './catalogue-run';
import { exitCodeOf, judgeClean, judgeMutant, notApplicable, summarize, type SelftestReport, type TargetSelftest } from './model';
import { faultStore, selectMutants, type Mutant } from './mutants';
import { renderSelftestConsole, renderSelftestMarkdown, verdictText } from './render';

/** The profile whose targets a selftest without `--backend` covers. */
export const SELFTEST_DEFAULT_PROFILE = 'embedded';

/** Options of `memory-matrix selftest`. */
export interface SelftestOptions {
  /** `--backend` targets; empty = the `SELFTEST_DEFAULT_PROFILE` profile's targets. */
  backends: string[];
  /** `--mutant` names; empty = every mutant. */
  mutants: string[];
  /** `--first`: stop each mutant's run at its first catching check. */
  first: boolean;
  dataset: string;
  /** Absolute dir for selftest.json and selftest.md. */
  reportDir: string;
  imageSource?: ImageSource;
  argv: string[];
  out?: (line: string) => void;
}

/**
 * The checks of a mutant run, in run order: with `--first`, ordered by the clean run's wall time
 * per check (cheapest first, ties in catalogue order), so a run stops as early as it can; without
 * it, catalogue order.
 */
export function mutantCheckOrder(checks: readonly CheckDefinition[], cleanMs: ReadonlyMap<string, number>, first: boolean): CheckDefinition[] {
  if (!first) return [...checks];
  return [...checks].sort((a, b) => (cleanMs.get(a.id) ?? 0) - (cleanMs.get(b.id) ?? 0) || a.id.localeCompare(b.id));
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
    argv: opts.argv.map(redactUrl),
    startedAt: startedAt.toISOString(),
    durationMs: 0,
    first: opts.first,
    dataset: null,
    targets: [],
    summary: summarize([]),
    exitCode: 2,
  };
  const settle = (): void => {
    report.durationMs = performance.now() - t0;
    report.summary = summarize(report.targets);
    report.exitCode = exitCodeOf(report.targets, report.error);
  };
  const watch = watchInterrupt(out, (sig) => {
    report.error = { code: 'INTERRUPTED', message: `interrupted by ${sig}; the report holds the runs that completed before it` };
    settle();
    writeSelftestReports(report, opts.reportDir);
  });
  try {
    ensureReportDir(opts.reportDir);
    const mutants = selectMutants(opts.mutants);
    const catalog = loadCatalog(catalogFile());
    const docker = await dockerStatus();
    const { targets, why } = selectTargets(catalog, { backends: opts.backends, profile: SELFTEST_DEFAULT_PROFILE, docker: docker.available, shard: null });
    const dataset = loadGoldenDataset(datasetDir(opts.dataset));
    report.dataset = dataset.manifest.name;
    const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
    const { expectation } = loadExpectation(dataset, { update: false, tieEpsilon });
    out(`memory-matrix ${TOOL_VERSION} selftest: ${targets.length} target(s) from ${why}, ${mutants.length} mutant(s)${opts.first ? ', --first' : ''}`);
    for (const target of targets) {
      report.targets.push(await selftestTarget(target, dataset, expectation, mutants, opts, out, watch));
    }
  } catch (e) {
    if (watch.signal) await new Promise(() => undefined); // the interrupt handler writes the report and exits
    const err = e as { code?: string; message?: string };
    report.error = { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) };
  } finally {
    watch.dispose();
  }
  settle();
  out(renderSelftestConsole(report));
  try {
    writeSelftestReports(report, opts.reportDir);
  } catch (e) {
    // Only when the report dir itself is unusable (checked up front, so nothing ran).
    process.stderr.write(`memory-matrix: cannot write the selftest reports to ${opts.reportDir}: ${(e as Error).message}\n`);
    report.exitCode = 2;
  }
  out(`reports: ${path.relative(process.cwd(), opts.reportDir) || '.'}/{selftest.json,selftest.md}`);
  return report;
}

/** The clean run and every mutant's run on one target. */
async function selftestTarget(
  target: ResolvedTarget,
  dataset: GoldenDataset,
  expectation: Expectation,
  mutants: readonly Mutant[],
  opts: SelftestOptions,
  out: (l: string) => void,
  watch: ReturnType<typeof watchInterrupt>,
): Promise<TargetSelftest> {
  const checks = selectChecks([]);
  let started: Parameters<typeof watch.track>[0] | undefined;
  const common = {
    runId: runIdOf(new Date()),
    imageSource: opts.imageSource,
    first: opts.first,
    onStarted: (b: Parameters<typeof watch.track>[0]) => {
      watch.track(b);
      started = b;
    },
    onEnded: () => started && watch.release(started),
  };
  out(`${target.name}: clean run…`);
  const cleanRun = await runCatalogue(target, dataset, expectation, { ...common, checks });
  await watch.checkpoint();
  const clean = judgeClean(cleanRun);
  const result: TargetSelftest = { target: target.name, clean, mutants: [] };
  if (clean.status !== 'clean') {
    out(`${target.name}: clean run ${clean.status === 'void' ? `failed ${clean.failed.join(', ')}: the selftest is void` : `did not start: ${clean.reason}`}`);
    return result;
  }
  out(`${target.name}: clean run passed ${clean.checksRun} checks (${(clean.ms / 1000).toFixed(1)} s)`);
  const order = mutantCheckOrder(checks, new Map(cleanRun.results.map((r) => [r.id, r.durationMs])), opts.first);
  for (const m of mutants) {
    const na = m.requires(target.capabilities);
    if (na) {
      result.mutants.push(notApplicable(m, na));
      continue;
    }
    const fault = m.fault(target.capabilities);
    const run = await runCatalogue(target, dataset, expectation, { ...common, checks: order, wrapStore: (s) => faultStore(s, fault) });
    await watch.checkpoint();
    const outcome = judgeMutant(m, run);
    result.mutants.push(outcome);
    out(`${target.name}: ${m.name}: ${verdictText(outcome)}${outcome.caughtBy[0] ? ` — ${outcome.caughtBy[0].firstLine.slice(0, 160)}` : ''} (${(outcome.ms / 1000).toFixed(1)} s)`);
  }
  return result;
}

/** Write selftest.json and selftest.md into `dir`, each through a temporary file renamed into place. */
export function writeSelftestReports(report: SelftestReport, dir: string): void {
  for (const [name, text] of [
    ['selftest.json', JSON.stringify(report, null, 2) + '\n'],
    ['selftest.md', renderSelftestMarkdown(report) + '\n'],
  ] as const) {
    const tmp = path.join(dir, `.${name}.tmp-${process.pid}`);
    writeFileSync(tmp, text);
    renameSync(tmp, path.join(dir, name));
  }
}
