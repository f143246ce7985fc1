import type { CheckDefinition } from '../checks/check';
import { CHECKS } from '../checks/index';
import { MemoryMatrixError } from '../errors';
import { LiveCell, type CellConfig } from './cell';
import { type DatasetFit, type DatasetShape, datasetFit, fitNote, fitSkipReason } from './fit';
import { CellLiveness, notRunResult, probeLiveness } from './liveness';
import { CheckFailedError, type CheckRun, type ResultSink } from './result';
import { checkLimitMs, limitMessage, resolveLimits, runWithin } from './limits';
import { blockedBy, prepareFixtures, type PreparedStep } from './prepare';
import { MAX_HOST_FACTOR } from '../host';
import { timerDelayMs } from '../timer';
import type { TestRuntime } from './runtime';

/** Options of `registerConformance`. */
export interface RegisterOptions {
  /** Checks to register (default: all of `CHECKS`). */
  checks?: readonly CheckDefinition[];
  /**
   * Checks of `checks` to register as skipped whatever the capabilities, by id (`C15`) → reason
   * (e.g. `profile pr-gate: runs in release`, a profile's check tier). Recorded in the sink as
   * skipped with that reason, so a check a run leaves out is never silently absent.
   */
  skip?: ReadonlyMap<string, string>;
  /** Where results go besides the test verdict (the runner's report). */
  sink?: ResultSink;
  /** Time limit for starting the cell (backend connect), ms. Default 120000 (limits.ts `DEFAULT_CELL_LIMITS`; `MM_SETUP_TIMEOUT_MS` wins). */
  setupTimeoutMs?: number;
  /** Time limit of the golden load step (memories written and index built, before the checks), ms. Default 900000 (`MM_LOAD_TIMEOUT_MS` wins). */
  loadTimeoutMs?: number;
  /**
   * Time limit per check, ms, when the check declares none (a declared one is stretched in
   * proportion above the default: limits.ts `checkLimitMs`), and of each golden replay prepared
   * before the checks. Default 300000 (`MM_CHECK_TIMEOUT_MS` wins).
   */
  checkTimeoutMs?: number;
  /** Called as each step prepared before the checks ends (the golden load, the index build, the replays: prepare.ts `PreparedStep`). */
  onStep?: (step: PreparedStep) => void;
  /** Time limit of the liveness probe after a check that threw or timed out, ms (liveness.ts). Default `LIVENESS_LIMIT_MS` (30 s). */
  livenessLimitMs?: number;
  /** Called once the cell has started (the runner reads load/index timings from it). */
  onCellReady?: (cell: LiveCell) => void;
  /** Runs after the cell is disposed (e.g. stop the backend the caller started). */
  teardown?: () => Promise<void>;
  /**
   * Documented findings of the target (a client library's defect its adapter README measures), by
   * check id → the pattern EVERY failure message of that check must match. The check's jest test
   * then passes only when the check fails exactly so: it fails when the check passes (the finding
   * is gone: update the README and remove the entry), when a failure does not match, or when the
   * check throws. For adapter test suites of client drivers; the sink records the real verdict, and
   * `pnpm matrix` reports the failure as it is (only a catalog `knownFailures` entry with an
   * upstream link changes a matrix verdict).
   */
  findings?: ReadonlyMap<string, RegExp>;
  /**
   * Intermittent findings (a backend race a catalog `knownFailures` entry lists as intermittent,
   * with its upstream link): check id → the pattern every failure message must match when the
   * check fails. The check's jest test passes when the check passes, or fails only so; any other
   * failure, or an error, fails it.
   */
  intermittentFindings?: ReadonlyMap<string, RegExp>;
}

/** The title a check is registered under: `C03 topk-exact`, or with the skip reason appended. */
export function checkTitle(check: CheckDefinition, skipReason?: string): string {
  return skipReason ? `${check.id} ${check.name} [skipped: ${skipReason}]` : `${check.id} ${check.name}`;
}

/**
 * Register the conformance suite of one cell (target × dataset) into a test runtime: one
 * `describe` named `<target> × <dataset>`, one test per check (so failures show per check in jest and JUnit). A check the target's
 * capabilities cannot run is registered with `test.skip` and the missing capability in its title
 * (a check in `options.skip` likewise, with the reason given there), and so is a check the dataset
 * (`cellName.shape`: its metric and dimension) stops on this target (fit.ts `fitSkipReason`:
 * `capability: metrics (ip)`, `capability: maxDim 16000 < dim 20000`, `capability: maxIndexDim 2000 < dim 2048`).
 * Without `shape` the dataset is taken to fit; a cell whose dataset then does not fails its setup
 * (INVALID_INPUT), never runs checks the registration did not skip.
 * `config` is resolved inside `beforeAll`, so starting the backend counts as setup, not as a check;
 * a second `beforeAll` prepares the shared fixtures the registered checks declare
 * (`CheckDefinition.fixtures`: golden collection, replays; prepare.ts `prepareFixtures`) as steps of their
 * own — the golden load within `loadTimeoutMs`, each replay within `checkTimeoutMs`, each reported
 * to `onStep` — so no check's result or time limit depends on which checks ran before it. When the
 * load failed, every check that reads a fixture is recorded failed with code NOT_RUN and the one
 * cause `not run: the golden load failed: <cause>`; the other checks run.
 * Each check runs within its limit (limits.ts `checkLimitMs`) × the host factor; past it the check
 * is recorded failed with code TIMEOUT and a message naming the check, the step it was in
 * (`LiveCell.noteStep`), the limit, the factor and how to raise it (limits.ts `limitMessage`).
 * After a check that threw or was stopped at its time limit, the next check first probes the store
 * (liveness.ts); when it no longer answers, every remaining check of the cell is recorded failed
 * with code NOT_RUN and one cause ("<target> stopped answering during C08 …"), not run.
 */
export function registerConformance(
  rt: TestRuntime,
  cellName: { target: string; dataset: string; capabilities: CellConfig['capabilities']; shape?: DatasetShape },
  config: () => Promise<CellConfig>,
  options: RegisterOptions = {},
): void {
  const checks = options.checks ?? CHECKS;
  // Every limit × the host factor when it starts; a limit that runs out names what ran and how to raise it (limits.ts).
  const limits = resolveLimits({ setupTimeoutMs: options.setupTimeoutMs, loadTimeoutMs: options.loadTimeoutMs, checkTimeoutMs: options.checkTimeoutMs });
  let cell: LiveCell | undefined;
  const fit: DatasetFit = cellName.shape ? datasetFit(cellName.capabilities, cellName.shape) : { vectors: null, metricOnly: false, indexPath: null };
  // After a check that threw or timed out, the next one first asks whether the store still answers (liveness.ts).
  const liveness = new CellLiveness(cellName.target, () => (cell ? probeLiveness(cell, options.livenessLimitMs) : Promise.resolve(null)));
  rt.describe(`${cellName.target} × ${cellName.dataset}`, () => {
    rt.beforeAll(async () => {
      const live = new LiveCell(await config());
      if (JSON.stringify(live.fit) !== JSON.stringify(fit)) {
        const m = live.config.dataset.manifest;
        throw new MemoryMatrixError(
          'INVALID_INPUT',
          `${cellName.target}: dataset ${m.name} (${m.metric}, ${m.dim}-d) does not fit as registered (${JSON.stringify(live.fit)} vs ${JSON.stringify(fit)}); pass its metric and dim as cellName.shape to registerConformance`,
        );
      }
      cell = live;
      options.onCellReady?.(cell);
    }, timerDelayMs(limits.setupTimeoutMs)); // × MM_START_TIMEOUT_SCALE it may pass what a timer holds: clamped (timer.ts)
    // The shared fixtures the registered checks read (golden collection, replays), prepared once
    // before the first check as steps of their own: the load within its own limit, each replay
    // within the check limit (prepare.ts). No check pays for them or sees them change with the
    // checks that ran before it; a failed load is one cause for every check that reads it.
    const fixtures = [...new Set(checks.filter((c) => !(options.skip?.get(c.id) ?? c.requires(cellName.capabilities))).flatMap((c) => c.fixtures ?? []))];
    // The steps enforce their own limits; the hook's is a backstop past the largest host factor.
    const prepareBackstopMs = timerDelayMs((limits.loadTimeoutMs + 2 * limits.checkTimeoutMs) * MAX_HOST_FACTOR + 30_000);
    if (fixtures.length)
      rt.beforeAll(async () => {
        if (cell) await prepareFixtures(cell, fixtures, limits, options.onStep);
      }, prepareBackstopMs);
    rt.afterAll(async () => {
      try {
        await cell?.dispose();
      } finally {
        await options.teardown?.();
      }
    }, 60_000);
    for (const check of checks) {
      const missing = options.skip?.get(check.id) ?? fitSkipReason(check, cellName.capabilities, fit);
      if (missing) {
        options.sink?.record({ id: check.id, name: check.name, status: 'skipped', skipReason: missing, figures: {}, failures: [], notes: [], durationMs: 0 });
        rt.test.skip(checkTitle(check, missing), async () => undefined);
        continue;
      }
      rt.test(
        checkTitle(check),
        async () => {
          if (!cell) throw new Error(`${cellName.target}: the cell did not start (see the setup error)`);
          const blocked = blockedBy(cell.steps, check.fixtures);
          if (blocked) {
            options.sink?.record(notRunResult(check, blocked));
            throw Object.assign(new Error(`${check.id} ${check.name}: ${blocked}`), { code: 'NOT_RUN' });
          }
          const gone = await liveness.before();
          if (gone) {
            options.sink?.record(notRunResult(check, gone));
            throw Object.assign(new Error(`${check.id} ${check.name}: ${gone}`), { code: 'NOT_RUN' });
          }
          cell.takeIndexPathNote(); // a note left by an earlier check's error path is not this check's
          cell.noteStep(undefined);
          liveness.started(check);
          const live = cell;
          const mark = live.mark();
          const t0 = performance.now();
          const ran = await runWithin(
            () => runCheck(check, live),
            checkLimitMs(check, limits),
            (f) => new MemoryMatrixError('TIMEOUT', limitMessage(`${cellName.target}: ${check.id} ${check.name}`, checkLimitMs(check, limits), f, 'checkTimeoutMs', live.step)),
          ).catch((e: MemoryMatrixError) => e);
          if (ran instanceof MemoryMatrixError) {
            // Stopped at its limit: recorded TIMEOUT; it stays "running" for the liveness probe of the next check (an unsettled ending).
            options.sink?.record(failedResult(check, t0, { code: 'TIMEOUT', message: ran.message }));
            throw ran;
          }
          const { result, replay } = ran;
          liveness.settled(check, result);
          await live.releaseSince(mark); // the check's own clients and collections (cleanup.ts); a check stopped at its limit keeps them until dispose
          // What of the check the dataset's fit left out (its memory part, its index path) is said in its notes.
          for (const n of [fitNote(check, cellName.capabilities, fit), cell.takeIndexPathNote()]) if (n) result.notes.push(n);
          options.sink?.record(result, replay);
          if (result.error) throw Object.assign(new Error(`${check.id} ${check.name}: ${result.error.message}`), { code: result.error.code });
          const finding = options.findings?.get(check.id);
          if (finding && result.status !== 'failed')
            throw new Error(`${check.id} ${check.name} passed, but ${cellName.target} documents the finding ${finding}: the finding is gone (update the adapter README, remove the entry)`);
          if (result.status !== 'failed') return;
          // A failed check passes its test only when it fails exactly as a (possibly intermittent) finding says.
          const pattern = finding ?? options.intermittentFindings?.get(check.id);
          const other = pattern ? result.failures.filter((f) => !pattern.test(f.message)) : result.failures;
          if (!pattern || other.length || (!finding && result.failures.length === 0)) throw new CheckFailedError({ ...result, failures: other });
        },
        // The check's own limit is enforced above (with what ran and how to raise it); the runtime's is a backstop.
        timerDelayMs(checkLimitMs(check, limits) * MAX_HOST_FACTOR + 60_000),
      );
    }
  });
}

/**
 * Run one check in a live cell and turn its outcome (or the error it threw) into a `CheckResult`,
 * with the golden replay it judged (`CheckOutcome.replay`) beside it. Never throws: an error the
 * check threw becomes `result.error` (its `code` when it has one) and status `failed`.
 */
export async function runCheck(check: CheckDefinition, cell: LiveCell): Promise<CheckRun> {
  const t0 = performance.now();
  try {
    const out = await check.run(cell);
    const result: CheckRun['result'] = {
      id: check.id,
      name: check.name,
      status: out.failures.length ? 'failed' : 'passed',
      figures: out.figures,
      failures: out.failures,
      notes: out.notes ?? [],
      ...(out.tables ? { tables: out.tables } : {}),
      durationMs: performance.now() - t0,
    };
    return out.replay ? { result, replay: out.replay } : { result };
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown };
    return { result: failedResult(check, t0, { code: typeof err?.code === 'string' ? err.code : undefined, message: String(err?.message ?? e) }) };
  }
}

/** The result of a check that ended in an error (thrown, or stopped at its limit): failed, no figures, `durationMs` since `t0` (performance.now() ms). */
function failedResult(check: { id: string; name: string }, t0: number, error: { code?: string; message: string }): CheckRun['result'] {
  return { id: check.id, name: check.name, status: 'failed', figures: {}, failures: [], notes: [], durationMs: performance.now() - t0, error };
}
