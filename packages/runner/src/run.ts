import { ensureWritableDir } from './report/dir';
import { signalExitCode } from './baseline/interrupt';
import { releaseBaselines } from './baseline/release';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN_DATA_DIR } from '@memory-matrix/golden-data';
import {
  datasetNamesIn,
  didYouMean,
  loadGoldenDataset,
  LOAD_ORDER_METHOD,
  MemoryMatrixError,
  parseLoadSeed,
  registerConformance,
  datasetFit,
  fitIndex,
  hostCalibration,
  type CellConfig,
  type CheckDefinition,
  type CheckResult,
  type ResultSink,
  type TestRuntime,
  type GoldenDataset,
  type JudgedReplay,
  type LiveCell,
} from '@memory-matrix/spec';
import {
  dockerStatus,
  installGuard,
  redactUrl,
  removeLeftoverVolumes,
  removeRunContainers,
  startParallelism,
  startTarget,
  startTimeoutScale,
  type ImageSource,
  type ResolvedTarget,
  type StartedBackend,
} from '@memory-matrix/backends';
import { loadExpectation } from './golden';
import { Progress } from './progress';
import { renderConsole } from './report/console';
import { emptyReport, type CellReport, type MatrixReport } from './report/model';
import { cellQueries } from './report/queries';
import { settleReport } from './report/settle';
import { reportView, type ReportView } from './report/view';
import { lockReportDir } from './report/lock';
import { writeReports } from './report/write';
import { embeddedMode } from './cell-child/protocol';
import { registerChildCell } from './cell-child/register';
import type { ChildCell } from './cell-child/spawn';
import { cellsFirst, exclusiveSuites, resolveParallelism } from './parallel';
import { prepareImages } from './image-prep';
import { setupLimitMs, stopLateStart } from './cell-start';
import { MatrixRuntime, timedOutResult } from './runtime';
import { catalogFile, runCatalog, checkTier, parseRepeat, parseShard, resolveChecks, selectTargets } from './select';
import { TOOL_VERSION, displayPath } from './version';
import { wrapFaultControl, wrapSpawned, type StoreWrap } from './selftest/wrap-cell';
import { cpuBetween, measureRunCpu, type RunCpu } from './report/cpu';
import { checkedTimeZone } from './time-zone';

/** Options of one `memory-matrix run`. */
export interface RunOptions {
  backends: string[];
  /**
   * `--profile`: without `--backend` its targets and its check tier (`checks` / `excludeChecks` in
   * matrix/targets.yaml); with `--backend` only its check tier. Undefined: the `default` profile's
   * targets, and every check when `--backend` is given.
   */
  profile?: string;
  /** `--parallel N`: cells run at once (as given; validated by parseParallel). Default: `MM_PARALLEL`, else the bound of `defaultParallelism`. */
  parallel?: string;
  /** Dataset folder or a name under golden-data/. */
  dataset: string;
  reportDir: string;
  updateGolden: boolean;
  shard?: string;
  checks: string[];
  /** `--repeat n`: C05 replays the index path n times on fresh index builds (as given; validated by parseRepeat). */
  repeat?: string;
  /** `--load-seed`: seed of the golden load order (as given: an integer or `random`; spec `parseLoadSeed`). Default `DEFAULT_LOAD_SEED`. */
  loadSeed?: string;
  /** Where container images come from: registry | debian | auto (default). */
  imageSource?: ImageSource;
  argv: string[];
  /** Where console output goes (tests capture it). */
  out?: (line: string) => void;
}

/**
 * Resolve `--dataset`: a path to a folder (it contains `/` or starts with `.`), or a dataset name:
 * `golden-data/<name>` of the working directory when that folder exists (a user's own `sample`
 * output, in the folder `memory-matrix init` makes), else the shipped golden data
 * (`@memory-matrix/golden-data`: agent-memories; in the repository, its golden-data/ folder).
 * Throws GOLDEN_MISSING naming both places and every dataset in them when a name is in neither
 * (outside the repository; inside it, loading the missing folder says so).
 */
export function datasetDir(spec: string): string {
  if (spec.includes('/') || spec.startsWith('.')) return path.resolve(spec);
  const own = path.resolve('golden-data', spec);
  if (existsSync(own)) return own;
  const shipped = path.join(GOLDEN_DATA_DIR, spec);
  const ownRoot = path.resolve('golden-data');
  // In the repository both are one folder: the dataset loader's own message lists it.
  if (existsSync(shipped) || ownRoot === path.resolve(GOLDEN_DATA_DIR)) return shipped;
  const all = [...new Set([...datasetNamesIn(ownRoot), ...datasetNamesIn(GOLDEN_DATA_DIR)])].sort();
  const hint = didYouMean(spec, all);
  throw new MemoryMatrixError(
    'GOLDEN_MISSING',
    `--dataset ${spec}: no dataset of that name in ${ownRoot} (yours: \`memory-matrix sample\` writes there) or in the shipped ones (${GOLDEN_DATA_DIR}); ${hint ? `${hint} ` : ''}the datasets are ${all.join(', ') || 'none'}`,
  );
}

/**
 * Run the matrix: select targets, load and verify the golden dataset and its expectation
 * (nothing is started or written to any store before both are valid), run every cell through the
 * conformance suite, write report.json / junit.xml / report.md / report.html (always, also on errors) and return
 * the exit status: 0 all checks pass, 1 a check failed or none ran (every one skipped), 2 the run could not be carried out.
 * Embedded cells of a run of several cells each run in a child process (cell-child/; the report
 * holds their cells as recorded there), unless `MM_EMBEDDED_INPROCESS=1` (USAGE on a value other
 * than 0 / 1).
 */
export async function runMatrix(opts: RunOptions): Promise<MatrixReport> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const startedAt = new Date();
  const t0 = performance.now();
  const cpu0 = measureRunCpu(1); // the CPU the process spent before the run started (module loading) is not the run's
  const report: MatrixReport = emptyReport(opts.argv.map(redactUrl), startedAt.toISOString(), {
    profile: opts.backends.length ? (opts.profile ?? null) : (opts.profile ?? 'default'),
    shard: opts.shard ?? null,
  });
  const progress = new Progress();
  const rt = new MatrixRuntime();
  const started: StartedBackend[] = [];
  /** Embedded cells running in child processes, and the cell each fills in (interrupt: stop them, keep what they recorded). */
  const children = new Map<ChildCell, CellReport>();
  let interrupted = false;
  /** The checks this run was to run in every cell (set once they are resolved): an interrupt lists those a started cell never ran. */
  let planned: ReadonlyArray<{ id: string; name: string }> = [];
  /** Whether this run holds the report dir's lock: a run stopped at the lock writes nothing there (the other run's reports stay whole). */
  let ownsReportDir = false;
  const onSignal = (sig: NodeJS.Signals): void => {
    // From here on nothing more is recorded: checks still running fail only because their backend
    // is being stopped, which is not a verdict on the target. The report lists what completed.
    interrupted = true;
    rt.cancel(); // cells still queued never start
    progress.stop();
    // The count is the targets' backends; fault instances a check started (C15, C16, C23) are removed with them (container guard, instance registry) but not counted here.
    progress.log(
      `\n${sig}: stopping ${started.length} target backend(s) and any fault instances their checks started${children.size ? `, ${children.size} cell process(es)` : ''}, and writing the partial report…`,
    );
    report.error = { code: 'INTERRUPTED', message: `interrupted by ${sig}; the report holds the checks that completed before it` };
    report.exitCode = 2;
    // A child cell stops its own engine and temp dirs on the same signal and writes what it
    // completed, its checks not run naming that signal (it is in a process group of its own: the
    // signal reached this process only).
    const stopChild = async (c: ChildCell, cell: CellReport): Promise<void> => {
      await c.stop(sig === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
      Object.assign(cell, await c.result);
    };
    void Promise.allSettled([...started.map((b) => b.stop()), ...[...children].map(([c, cell]) => stopChild(c, cell))]).finally(() => {
      for (const c of report.cells) {
        const ran = new Set(c.checks.map((r) => r.id));
        for (const p of planned)
          if (!ran.has(p.id))
            c.checks.push({ id: p.id, name: p.name, status: 'skipped', skipReason: `not run: the run was interrupted by ${sig}`, figures: {}, failures: [], notes: [], durationMs: 0 });
        c.checks.sort((a, b) => a.id.localeCompare(b.id));
      }
      if (finish(report, ownsReportDir ? opts.reportDir : null, t0, cpu0).written)
        progress.log(`partial report (INTERRUPTED): ${path.relative(process.cwd(), opts.reportDir) || '.'}/{report.json,junit.xml,report.md,report.html}`);
      process.exit(signalExitCode(sig));
    });
  };
  // The container guard removes this run's containers synchronously on exit and on signals;
  // onSignal then writes the partial report and exits with 130 / 143.
  installGuard({ exitOnSignal: false });
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    ensureReportDir(opts.reportDir);
    lockReportDir(opts.reportDir);
    ownsReportDir = true;
    const userCatalog = catalogFile();
    // Recorded before it is read: a catalog that fails to load is named too. (Appended: the older keys keep their order.)
    if (userCatalog) report.catalog = { file: displayPath(userCatalog).startsWith('..') ? userCatalog : displayPath(userCatalog) }; // outside the repository: absolute
    const catalog = runCatalog();
    const shard = parseShard(opts.shard);
    const repeat = parseRepeat(opts.repeat);
    const loadSeed = parseLoadSeed(opts.loadSeed);
    report.loadOrder = { seed: loadSeed, method: LOAD_ORDER_METHOD };
    const docker = await dockerStatus();
    // How slow the host is now (spec host.ts): recorded; each process's time limits use its own current figure.
    // A bad MM_HOST_FACTOR or MM_TIME_ZONE (kept by the CLI: time-zone.ts) is a USAGE error here, recorded in the reports.
    report.host = { docker: docker.available, dockerReason: docker.reason, calibration: hostCalibration(), timeZone: checkedTimeZone() };
    if (docker.available) {
      // Left-overs of a crashed earlier run (its process is gone): Ryuk cannot run here.
      const removed = await removeRunContainers();
      if (removed.length) out(`removed ${removed.length} container(s) left by an earlier run that died`);
      const volumes = await removeLeftoverVolumes(); // fault instances' data volumes (C15, C16, C23)
      if (volumes.length) out(`removed ${volumes.length} volume(s) left by an earlier run that died`);
    }
    const { targets, why, leftOut } = selectTargets(catalog, { backends: opts.backends, profile: opts.profile ?? 'default', docker: docker.available, shard });
    report.skippedTargets.push(...leftOut); // named in every report (console and report.md: `skipped target …`)
    out(`memory-matrix ${TOOL_VERSION}: ${targets.length} target(s) from ${why}${docker.available ? '' : ` (Docker: ${docker.reason})`}`);
    const cfg = catalog.config;
    if (cfg) out(`config ${cfg.file}: adapters ${cfg.adapters.join(', ') || 'none'}${cfg.replaced.length ? `; replaces the built-in ${cfg.replaced.join(', ')}` : ''}`);
    const tier = checkTier(catalog, opts.backends.length ? opts.profile : (opts.profile ?? 'default'));
    if (tier.why) out(tier.why);
    const parallel = resolveParallelism(opts.parallel, process.env.MM_PARALLEL, targets);
    startTimeoutScale(); // USAGE now, not at the first start, when MM_START_TIMEOUT_SCALE / MM_START_PARALLEL are set wrong
    startParallelism();
    const embedded = targets.some((t) => t.provider === 'embedded') ? embeddedMode(targets.length, process.env.MM_EMBEDDED_INPROCESS) : undefined;
    const embeddedWhy = { child: '; embedded cells each in a child process', inprocess: '; embedded cells in this process, alone, after the others' };
    out(`cells at once: ${parallel.cells} (${parallel.why}${embedded && parallel.cells > 1 ? embeddedWhy[embedded] : ''})`);
    const checks = resolveChecks(opts.checks, tier);
    planned = checks;
    if (repeat > 1 && (!checks.some((c) => c.id === 'C05') || tier.skip.has('C05')))
      throw new MemoryMatrixError(
        'USAGE',
        `--repeat ${repeat}: only C05 (ann-recall) replays its queries n times, and this run does not run C05${tier.skip.has('C05') ? ` (${tier.skip.get('C05')})` : ' (--check leaves it out)'}; add C05 to --check or drop --repeat`,
      );

    const dataset = loadGoldenDataset(datasetDir(opts.dataset));
    const m = dataset.manifest;
    report.dataset = {
      name: m.name,
      version: String(m.version),
      sha256: dataset.datasetSha256,
      dir: displayPath(dataset.dir),
      memories: dataset.memories.length,
      queries: dataset.queries.length,
      dim: m.dim,
      metric: m.metric,
    };
    // The recorded expectation carries the boundary tie group of the widest tieEpsilon in the catalog.
    const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
    const exp = loadExpectation(dataset, { update: opts.updateGolden, tieEpsilon });
    report.expectation = { file: displayPath(exp.file), source: exp.expectation.header.source, sha256: exp.sha256 };
    if (opts.updateGolden) out(`recorded ${exp.expectation.entries.length} oracle expectations in ${report.expectation.file}`);

    out(`golden load order: ${LOAD_ORDER_METHOD}, seed ${loadSeed} (replay it with --load-seed ${loadSeed})`);
    const baselines = releaseBaselines(catalog, opts.backends.length ? opts.profile : (opts.profile ?? 'default'), targets, dataset, opts.backends.length === 0);
    for (const l of baselines.lines) out(l);

    const cells = new Map<string, { report: CellReport; live?: LiveCell; replays: JudgedReplay[] }>();
    for (const target of targets) {
      const cell: CellReport = {
        target: target.name,
        backend: target.backend,
        ...(target.serverTarget ? { server: target.serverTarget.name } : {}),
        provider: target.provider,
        serverVersion: null,
        components: {},
        image: null,
        imageId: null,
        index: fitIndex(target.index, datasetFit(target.capabilities, { metric: m.metric, dim: m.dim })), // none on a dataset wider than maxIndexDim
        tolerances: { ...target.tolerances },
        timings: { startMs: null, loadMs: null, indexMs: null },
        status: 'ran',
        checks: [],
        capabilities: target.capabilities,
        ...(target.knownFailures?.length ? { knownFailures: target.knownFailures } : {}),
        ...(target.cannotShow ? { cannotShow: target.cannotShow } : {}),
      };
      const entry: { report: CellReport; live?: LiveCell; replays: JudgedReplay[] } = { report: cell, replays: [] };
      cells.set(target.name, entry);
      report.cells.push(cell);
      const skipSink: ResultSink = { record: (r) => cell.checks.push(r) };
      if (target.provider === 'embedded' && embedded === 'child') {
        // Registration alone records the checks skipped by the tier or the capabilities (the child
        // records them too): a child that fails leaves the cell as a failed start would (below).
        registerTargetCell(new MatrixRuntime(), target, dataset, exp.expectation, { runId: '', checks, skip: tier.skip, sink: skipSink });
        registerChildCell(
          rt,
          `${target.name} × ${m.name}`,
          {
            spec: { target: target.name, datasetDir: dataset.dir, checks: opts.checks, tierProfile: opts.backends.length ? opts.profile : (opts.profile ?? 'default'), repeat: opts.repeat, loadSeed },
            want: { target: target.name, datasetSha256: dataset.datasetSha256, expectationSha256: exp.sha256 },
            log: (l) => progress.log(l),
            timeoutMs: Math.round(childTimeoutMs(checks.length) * hostCalibration().factor),
          },
          {
            onSpawned: (c) => {
              progress.log(`${target.name}: running in a child process (pid ${c.pid ?? '?'})`);
              children.set(c, cell);
            },
            onCell: (c) => {
              if (!interrupted) Object.assign(cell, c);
            },
            onEnded: () => progress.end(target.name),
          },
        );
        continue;
      }
      registerTargetCell(rt, target, dataset, exp.expectation, {
        runId: runIdOf(startedAt),
        imageSource: opts.imageSource,
        checks,
        skip: tier.skip,
        repeat,
        loadSeed,
        baseline: baselines.byTarget.get(target.name),
        log: (l) => progress.log(l),
        onEnded: () => progress.end(target.name),
        progress: (phase, done, total) => progress.update(target.name, phase, done, total),
        onStarted: (backend, startMs) => {
          started.push(backend);
          cell.timings.startMs = startMs;
          cell.serverVersion = backend.info.serverVersion;
          cell.components = backend.info.components;
          cell.image = backend.info.image ?? null;
          cell.imageId = backend.info.imageId ?? null;
        },
        sink: {
          record: (r: CheckResult, replay?: JudgedReplay) => {
            // A check stopped at its time limit is recorded as TIMEOUT (below); its body finishing later is not a second verdict.
            if (interrupted || cell.checks.some((c) => c.id === r.id)) return;
            cell.checks.push(r);
            if (replay) entry.replays.push(replay);
          },
        },
        onCellReady: (live) => (entry.live = live),
      });
    }
    // Container images first: a cell waits for its image outside its setup limit and pool place (image-prep.ts).
    const inParent = targets.filter((t) => !(t.provider === 'embedded' && embedded === 'child'));
    const images = docker.available ? await prepareImages(new Map(inParent.map((t) => [`${t.name} × ${m.name}`, t])), opts.imageSource ?? 'auto', (l) => progress.log(l)) : undefined;
    const knownIn = new Map(targets.map((t) => [`${t.name} × ${m.name}`, t.knownFailures ?? []]));
    // A setup error fails every test of its cell with the same error: print its message once.
    const shown = new Set<Error>();
    const result = await rt.run(
      (t) => {
        if (interrupted) return;
        const timedOut = timedOutResult(t, checks);
        if (timedOut) cells.get(t.suite.slice(0, -` × ${m.name}`.length))?.report.checks.push(timedOut);
        const mark = t.status === 'passed' ? '✓' : t.status === 'failed' ? '✗' : '○';
        const err = t.status === 'failed' && t.error && !('result' in t.error) && !shown.has(t.error) ? ` — ${t.error.message.split('\n')[0]}` : '';
        if (t.error) shown.add(t.error);
        // A check the target lists in knownFailures is judged when the report is settled (report/known.ts).
        const listed = t.status === 'failed' && knownIn.get(t.suite)?.some((k) => t.title.startsWith(`${k.check} `)) ? ' (listed in knownFailures: judged in the summary)' : '';
        progress.log(`${mark} ${t.suite} › ${t.title}${err}${listed}`);
      },
      // Embedded engines on this process' thread starve it: in-process, those cells run alone (parallel.ts).
      {
        concurrency: parallel.cells,
        ready: images?.ready,
        exclusive: embedded === 'inprocess' ? exclusiveSuites(targets, m.name) : new Set(),
        first: cellsFirst(
          targets,
          checks.filter((c) => !tier.skip.has(c.id)).map((c) => c.id),
          m.name,
        ),
      },
    );
    progress.stop();
    for (const [name, entry] of cells) {
      const suite = `${name} × ${m.name}`;
      const setupError = result.setupErrors.get(suite) ?? result.teardownErrors.get(suite);
      if (setupError) {
        entry.report.status = 'error';
        entry.report.error = { code: (setupError as { code?: string }).code, message: setupError.message };
        // Checks that never ran because the cell did not start are listed as failed with that reason
        // (jest fails them too), so every selected check appears for every target.
        for (const c of checks) {
          if (entry.report.checks.some((r) => r.id === c.id)) continue;
          const why = (setupError as { code?: string }).code === 'CHILD_FAILED' ? 'its cell process failed' : 'did not start';
          const message = `not run: ${name} ${why}: ${setupError.message.split('\n')[0]}`;
          entry.report.checks.push({ id: c.id, name: c.name, status: 'failed', figures: {}, failures: [], notes: [], durationMs: 0, error: { code: 'NOT_RUN', message } });
        }
      }
      entry.report.checks.sort((a, b) => a.id.localeCompare(b.id)); // skips are recorded at registration, the others as they run
      // Load and index times of the golden collection, when a check loaded it (never loads it now).
      const l = entry.live?.loadTimings;
      if (l) Object.assign(entry.report.timings, { loadMs: l.loadMs, indexMs: l.indexMs });
      // Per-query figures of the replays C03 / C05 judged (their comparisons; nothing is compared or queried again).
      const q = cellQueries(entry.replays);
      if (q) entry.report.queries = q;
    }
  } catch (e) {
    const err = e as { code?: string; message?: string };
    report.error = { code: err.code ?? 'INTERNAL', message: err.message ?? String(e) };
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
  const { view, written } = finish(report, ownsReportDir ? opts.reportDir : null, t0, cpu0);
  out(renderConsole(view));
  if (written) out(`reports: ${path.relative(process.cwd(), opts.reportDir) || '.'}/{report.json,junit.xml,report.md,report.html}`);
  return report;
}

/**
 * Settle the report once (summary, capability matrix, durability table, exit code: report/settle.ts),
 * derive its view, and write the four report files atomically (report/write.ts) into `dir` (none
 * when null). Returns the view the console renders and whether the files were written.
 */
function finish(report: MatrixReport, dir: string | null, t0: number, cpu0: RunCpu): { view: ReportView; written: boolean } {
  const settled = settleReport(report);
  settled.finishedAt = new Date().toISOString();
  settled.durationMs = performance.now() - t0;
  settled.cpu = cpuBetween(cpu0, measureRunCpu(settled.durationMs), settled.durationMs);
  const view = reportView(settled);
  if (dir === null) return { view, written: false };
  try {
    writeReports(view, dir);
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
 * Time limit of an embedded cell's child process, ms: the runtime's own limits of its setup
 * (120 s) and teardown (60 s) hooks and 300 s for each selected check (registerConformance's
 * per-test default): the child's own limits end a stuck check first; this one ends a child that
 * no longer answers at all.
 */
export function childTimeoutMs(checks: number): number {
  return 180_000 + checks * 300_000;
}

/** Hooks of `registerTargetCell`. */
export interface TargetCellHooks {
  runId: string;
  imageSource?: ImageSource;
  checks?: readonly CheckDefinition[];
  /** Checks registered as skipped, id → reason (a profile's check tier: `checkTier`). */
  skip?: ReadonlyMap<string, string>;
  /** C05 index-path replays (CellConfig.repeat); default 1. */
  repeat?: number;
  /** Seed of the golden load order (CellConfig.loadSeed); default spec `DEFAULT_LOAD_SEED`. */
  loadSeed?: number;
  /** The release baseline C05 judges against (CellConfig.baseline; profiles with `baselines:`). */
  baseline?: CellConfig['baseline'];
  log?: (line: string) => void;
  progress?: CellConfig['progress'];
  onStarted?: (backend: StartedBackend, startMs: number) => void;
  sink?: ResultSink;
  onCellReady?: (cell: LiveCell) => void;
  /** Called when the cell has ended (its backend stopped, or it never started). */
  onEnded?: () => void;
  /**
   * Applied to every store the cell's checks open — `connect`, the fault instances' and spawned
   * instances' `connect` — e.g. a selftest mutant's fault (selftest/). Absent: the stores as opened.
   */
  wrapStore?: StoreWrap;
}

/**
 * Register one catalog target as a conformance cell: the backend is started in the suite's
 * `beforeAll` through its provider (startTarget) and stopped in `afterAll`, after the cell has
 * dropped what it created. The runner and the jest suites (packages/runner/test) both call this,
 * so `pnpm matrix` and `pnpm test` run the same checks the same way.
 */
export function registerTargetCell(rt: TestRuntime, target: ResolvedTarget, dataset: GoldenDataset, expectation: CellConfig['expectation'], hooks: TargetCellHooks): void {
  let backend: StartedBackend | undefined;
  /** The start in flight: one that completes after its setup limit ended the cell is stopped at once (it held the process open). */
  let starting: Promise<StartedBackend> | undefined;
  // Cells may run at once: every line a start logs names its target (image builds log bare lines).
  const log = hooks.log && ((l: string): void => hooks.log!(l.startsWith(`${target.name}:`) || l.trim() === '' ? l : `${target.name}: ${l.trimStart()}`));
  registerConformance(
    rt,
    { target: target.name, dataset: dataset.manifest.name, capabilities: target.capabilities, shape: { metric: dataset.manifest.metric, dim: dataset.manifest.dim } },
    async () => {
      const s0 = performance.now();
      hooks.log?.(`${target.name}: starting (${target.provider})…`);
      starting = startTarget(target, { runId: hooks.runId, imageSource: hooks.imageSource, log });
      backend = await starting;
      starting = undefined;
      const startMs = performance.now() - s0;
      hooks.onStarted?.(backend, startMs);
      const server = backend.info.serverVersion.split(' on ')[0]!;
      // Components the server line already names ("SQLite 3.53.2 + sqlite-vec 0.1.9") are not repeated.
      const comps = Object.entries(backend.info.components)
        .filter(([k, v]) => !server.toLowerCase().includes(`${k} ${v}`.toLowerCase()))
        .map(([k, v]) => `, ${k} ${v}`)
        .join('');
      hooks.log?.(`${target.name}: ${server}${comps} (${Math.round(startMs)} ms)`);
      const b = backend;
      const wrap = hooks.wrapStore;
      const spawn = (): Promise<StartedBackend> => startTarget(target, { runId: hooks.runId, imageSource: hooks.imageSource, log });
      return {
        target: target.name,
        capabilities: target.capabilities,
        tolerances: target.tolerances,
        index: target.index,
        dataset,
        expectation,
        connect: wrap ? async () => wrap(await b.connect()) : () => b.connect(),
        progress: hooks.progress,
        faults: b.faults && wrap ? wrapFaultControl(b.faults, wrap) : b.faults, // targets with durability configurations (C15, C16, C23)
        // A fresh instance of the same target for checks that change server-wide settings (C19); never for a user's URL.
        spawn: target.provider === 'url' ? undefined : wrap ? async () => wrapSpawned(await spawn(), wrap) : spawn,
        repeat: hooks.repeat,
        loadSeed: hooks.loadSeed,
        baseline: hooks.baseline,
      };
    },
    {
      checks: hooks.checks,
      skip: hooks.skip,
      setupTimeoutMs: setupLimitMs(target),
      sink: hooks.sink,
      onCellReady: hooks.onCellReady,
      teardown: async () => {
        const b = backend;
        backend = undefined;
        try {
          if (b) await b.stop();
          // A start the setup limit cut short goes on: whatever it starts is stopped when it arrives (waited for up to LATE_START_WAIT_MS here).
          else if (starting) await stopLateStart(starting, target.name, hooks.log);
        } finally {
          hooks.onEnded?.();
        }
      },
    },
  );
}

/** A run id: start instant and pid, e.g. `20261130193000-1234`. */
export function runIdOf(d: Date): string {
  return `${d
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}-${process.pid}`;
}
