import { datasetFit, fitIndex, type CheckDefinition, type PreparedStep, type CheckResult, type GoldenDataset, type JudgedReplay, type LiveCell, type ResultSink } from '@memory-matrix/spec';
import type { ResolvedTarget, StartedBackend } from '@memory-matrix/targets';
import type { CellReport, MatrixReport } from '../report/model';
import { cellQueries } from '../report/queries';
import type { ChildCell, ChildDeath } from '../cell-child/spawn';
import type { CellJournal, JournalRead } from '../cell-child/journal';
import { timedOutResult, type RanTest, type SuitePhase } from '../runtime';
import { targetLimits } from '../cell-start';
import { stepLine } from '../report/steps';

/** One cell of a run as it is collected: its report row, its live cell once ready, the replays C03 / C05 judged. */
export interface CollectedCell {
  report: CellReport;
  /** The suite name the runtime reports its tests under: `<target> × <dataset>`. */
  suite: string;
  /** The target's knownFailures (a failed check listed there is judged when the report is settled). */
  known: NonNullable<ResolvedTarget['knownFailures']>;
  live?: LiveCell;
  replays: JudgedReplay[];
}

/**
 * What a run records while its cells run, written into `report.cells` (one `CellReport` per
 * target, in the order added): every check result the conformance suite hands its sink, the
 * started backends and the child processes (so an interrupt can stop them), the per-test progress
 * lines, and once the run is over the checks a cell never ran. After `interrupted` is set, nothing
 * more is recorded.
 */
export class CellCollector {
  /** Set by an interrupt: checks still running fail only because their backend is being stopped, which is no verdict. */
  interrupted = false;
  /** The target backends started so far (an interrupt stops them). */
  readonly started: StartedBackend[] = [];
  /** Embedded cells running in child processes, and the cell each fills in (interrupt: stop them, keep what they recorded). */
  readonly children = new Map<ChildCell, CellReport>();
  /** The checks this run was to run in every cell (set once they are resolved): an interrupt lists those a started cell never ran. */
  planned: readonly CheckDefinition[] = [];
  /** A child cell's journal (`--cell-journal`): every step started and result recorded is appended (cell-child/journal.ts). */
  journal?: CellJournal;
  private readonly cells = new Map<string, CollectedCell>();
  /** A setup error fails every test of its cell with the same error: its message is printed once. */
  private readonly shown = new Set<Error>();

  constructor(
    private readonly report: MatrixReport,
    private readonly log: (line: string) => void,
  ) {}

  /** Add `target`'s cell on `dataset` to the report: nothing ran yet, its index fitted to the dataset (none on one wider than maxIndexDim). */
  add(target: ResolvedTarget, dataset: GoldenDataset): CollectedCell {
    const m = dataset.manifest;
    const report: CellReport = {
      target: target.name,
      backend: target.backend,
      ...(target.serverTarget ? { server: target.serverTarget.name } : {}),
      provider: target.provider,
      serverVersion: null,
      components: {},
      image: null,
      imageId: null,
      index: fitIndex(target.index, datasetFit(target.capabilities, { metric: m.metric, dim: m.dim })),
      tolerances: { ...target.tolerances },
      timings: { startMs: null, loadMs: null, indexMs: null },
      limits: targetLimits(target),
      status: 'ran',
      checks: [],
      capabilities: target.capabilities,
      ...(target.knownFailures?.length ? { knownFailures: target.knownFailures } : {}),
      ...(target.cannotShow ? { cannotShow: target.cannotShow } : {}),
    };
    const cell: CollectedCell = { report, suite: `${target.name} × ${m.name}`, known: target.knownFailures ?? [], replays: [] };
    this.cells.set(cell.suite, cell);
    this.report.cells.push(report);
    return cell;
  }

  /** The sink of registration alone: it records the checks skipped by the tier or the capabilities. */
  skipSink(cell: CollectedCell): ResultSink {
    return { record: (r) => cell.report.checks.push(r) };
  }

  /** The sink of a cell's checks: each result once (a check its time limit stopped is recorded by `onTest`), with the replay it judged. */
  sink(cell: CollectedCell): ResultSink {
    return {
      record: (r: CheckResult, replay?: JudgedReplay) => {
        // A check stopped at its time limit is recorded as TIMEOUT (onTest); its body finishing later is not a second verdict.
        if (this.interrupted || cell.report.checks.some((c) => c.id === r.id)) return;
        cell.report.checks.push(r);
        this.journal?.append({ result: r });
        if (replay) cell.replays.push(replay);
      },
    };
  }

  /**
   * What the conformance suite of `cell` reports to the collector, bound to the cell, for
   * registerTargetCell's hooks: `sink` (the check results), `onStep` (the steps prepared before the
   * checks), `onStarted` (its backend) and `onCellReady` (the live cell, read for load timings at
   * `settle`). Handed down as they are, so a result goes from the suite straight here (docs/design.md
   * "The path of one query").
   */
  cellHooks(cell: CollectedCell): {
    sink: ResultSink;
    onStep: (step: PreparedStep) => void;
    onStarted: (backend: StartedBackend, startMs: number) => void;
    onCellReady: (live: LiveCell) => void;
  } {
    return {
      sink: this.sink(cell),
      onStep: (step) => this.onStep(cell, step),
      onStarted: (backend, startMs) => this.onStarted(cell, backend, startMs),
      onCellReady: (live) => (cell.live = live),
    };
  }

  /** A step prepared before the checks ended (golden load, index build, replay): recorded in the cell's `steps`, and a line printed as for a check. */
  onStep(cell: CollectedCell, step: PreparedStep): void {
    if (this.interrupted) return;
    (cell.report.steps ??= []).push(step);
    this.log(stepLine(cell.suite, step));
  }

  /** Record a started backend: what it runs (server version, components, image) and how long its start took, ms. */
  onStarted(cell: CollectedCell, backend: StartedBackend, startMs: number): void {
    this.started.push(backend);
    const c = cell.report;
    c.timings.startMs = startMs;
    c.serverVersion = backend.info.serverVersion;
    c.components = backend.info.components;
    c.image = backend.info.image ?? null;
    c.imageId = backend.info.imageId ?? null;
    this.journal?.append({ started: { serverVersion: c.serverVersion, components: c.components, image: c.image, imageId: c.imageId, startMs } });
  }

  /** The runtime's callback before each step of a suite: appended to the journal of a child cell. (Bound: handed to `MatrixRuntime.run` as it is.) */
  readonly onPhase = (_suite: string, phase: SuitePhase): void => {
    if (!this.interrupted) this.journal?.append({ phase });
  };

  /**
   * A child cell that ended without its report (cell-child/spawn.ts `ChildDeath`): the verdicts its
   * journal holds are kept (`keepJournal`); unless the run was interrupted (its own rows say so),
   * every planned check it did not reach is failed NOT_RUN "not run: the cell's process died
   * (SIGSEGV) during C08 score-canonical". With at least one verdict (a check that ran: passed or
   * failed, not a skip, not NOT_RUN) the cell stays `ran` with `error` CELL_DIED (how, during
   * which step, how many verdicts are kept, the child's last output) and true is returned: the
   * target failed, exit 1. Without one, false: the caller makes its CHILD_FAILED error the cell's
   * setup error (status `error`, exit 2, as a backend that did not start).
   */
  onChildDied(cell: CollectedCell, death: ChildDeath): boolean {
    this.keepJournal(cell.report, death.journal);
    if (this.interrupted) return true;
    const message = `not run: the cell's process ${death.what} during ${death.during}`;
    for (const c of this.planned)
      if (!cell.report.checks.some((r) => r.id === c.id))
        cell.report.checks.push({ id: c.id, name: c.name, status: 'failed', figures: {}, failures: [], notes: [], durationMs: 0, error: { code: 'NOT_RUN', message } });
    const verdicts = death.journal.results.filter((r) => r.status !== 'skipped' && r.error?.code !== 'NOT_RUN').length;
    if (verdicts === 0) return false;
    cell.report.error = {
      code: 'CELL_DIED',
      message: `${cell.report.target}: the cell's process ${death.what} during ${death.during}; the ${verdicts} verdict(s) it reached before are kept${death.output}`,
    };
    return true;
  }

  /** Add to `report` the results of a child's journal it lacks, and what its backend runs (once started). */
  keepJournal(report: CellReport, journal: JournalRead): void {
    for (const r of journal.results) if (!report.checks.some((c) => c.id === r.id)) report.checks.push(r);
    const s = journal.started;
    if (s) Object.assign(report, { serverVersion: s.serverVersion, components: s.components, image: s.image, imageId: s.imageId, timings: { ...report.timings, startMs: s.startMs } });
  }

  /** Take the cell a child process recorded (cell-child/), unless the run was interrupted. */
  onChildCell(cell: CollectedCell, recorded: CellReport): void {
    if (!this.interrupted) Object.assign(cell.report, recorded);
  }

  /** The runtime's callback per test: a check stopped at its time limit is recorded as TIMEOUT, and a progress line is printed. (Bound: handed to `MatrixRuntime.run` as it is.) */
  readonly onTest = (t: RanTest): void => {
    if (this.interrupted) return;
    const timedOut = timedOutResult(t, this.planned);
    const cell = this.cells.get(t.suite);
    if (timedOut) cell?.report.checks.push(timedOut);
    if (timedOut) this.journal?.append({ result: timedOut });
    const mark = t.status === 'passed' ? '✓' : t.status === 'failed' ? '✗' : '○';
    const err = t.status === 'failed' && t.error && !('result' in t.error) && !this.shown.has(t.error) ? ` — ${t.error.message.split('\n')[0]}` : '';
    if (t.error) this.shown.add(t.error);
    // A check the target lists in knownFailures is judged when the report is settled (report/known.ts).
    const listed = t.status === 'failed' && cell?.known.some((k) => t.title.startsWith(`${k.check} `)) ? ' (listed in knownFailures: judged in the summary)' : '';
    this.log(`${mark} ${t.suite} › ${t.title}${err}${listed}`);
  };

  /**
   * Close every cell once the runtime is done: a cell whose setup failed is `error` and lists each
   * planned check it did not run as failed (NOT_RUN, with that reason), so every
   * selected check appears for every target; a cell whose teardown failed after its setup keeps its
   * verdicts and gets `teardownError` (exit code at least 1, report/settle.ts); checks are sorted by id; the load and index times
   * and the per-query figures of the replays C03 / C05 judged are added (nothing is queried again).
   */
  settle(result: { setupErrors: Map<string, Error>; teardownErrors: Map<string, Error> }): void {
    for (const cell of this.cells.values()) {
      const { report, suite } = cell;
      const name = report.target;
      const setupError = result.setupErrors.get(suite);
      const teardownError = result.teardownErrors.get(suite);
      // A teardown that failed after a setup that succeeded: the verdicts stand, the failure is its own problem.
      if (!setupError && teardownError) report.teardownError = { code: (teardownError as { code?: string }).code, message: teardownError.message };
      if (setupError) {
        report.status = 'error';
        report.error = { code: (setupError as { code?: string }).code, message: setupError.message };
        for (const c of this.planned) {
          if (report.checks.some((r) => r.id === c.id)) continue;
          const why = (setupError as { code?: string }).code === 'CHILD_FAILED' ? 'its cell process failed' : 'did not start';
          const message = `not run: ${name} ${why}: ${setupError.message.split('\n')[0]}`;
          report.checks.push({ id: c.id, name: c.name, status: 'failed', figures: {}, failures: [], notes: [], durationMs: 0, error: { code: 'NOT_RUN', message } });
        }
      }
      report.checks.sort((a, b) => a.id.localeCompare(b.id)); // skips are recorded at registration, the others as they run
      const l = cell.live?.loadTimings;
      if (l) Object.assign(report.timings, { loadMs: l.loadMs, indexMs: l.indexMs });
      const q = cellQueries(cell.replays);
      if (q) report.queries = q;
    }
  }

  /** After an interrupt by `sig`: every cell lists each planned check it never ran as skipped, and its checks are sorted by id. */
  markNotRun(sig: NodeJS.Signals): void {
    for (const c of this.report.cells) {
      const ran = new Set(c.checks.map((r) => r.id));
      for (const p of this.planned)
        if (!ran.has(p.id)) c.checks.push({ id: p.id, name: p.name, status: 'skipped', skipReason: `not run: the run was interrupted by ${sig}`, figures: {}, failures: [], notes: [], durationMs: 0 });
      c.checks.sort((a, b) => a.id.localeCompare(b.id));
    }
  }
}
