import {
  hostCalibration,
  MemoryMatrixError,
  registerConformance,
  type CellConfig,
  type PreparedStep,
  type CheckDefinition,
  type ResultSink,
  type TestRuntime,
  type GoldenDataset,
  type LiveCell,
} from '@memory-matrix/spec';
import { startTarget, targetRuntime, type ImageSource, type ResolvedTarget, type StartedBackend, type TargetRuntime } from '@memory-matrix/targets';
import type { Progress } from '../progress';
import { registerChildCell } from '../cell-child/register';
import { childCommand } from '../cell-child/spawn';
import { stopLateStart, targetLimits } from '../cell-start';
import { MatrixRuntime } from '../runtime';
import { wrapFaultControl, wrapSpawned, type StoreWrap } from '../selftest/wrap-cell';
import type { CellCollector } from './collect';
import { childTimeoutMs } from './finish';
import type { RunOptions } from './options';
import type { RunPlan } from './plan';

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
  /** Set: the target cannot start here (e.g. no Docker engine answers); the setup fails with this cause (TARGET_UNAVAILABLE) without trying. */
  unavailable?: string;
  /** Called as each step prepared before the checks ends (golden load, index build, replays: spec `PreparedStep`). */
  onStep?: (step: PreparedStep) => void;
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
      // A container target with no Docker engine: the cause said up front (docker-missing.ts), not the first docker command's error.
      if (hooks.unavailable) throw new MemoryMatrixError('TARGET_UNAVAILABLE', hooks.unavailable);
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
      ...targetLimits(target), // setup, load and check limits: the target's `limits:`, the run's MM_*_TIMEOUT_MS
      onStep: hooks.onStep,
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

/**
 * Register every target of `plan` on `rt`, each as a cell `collector` records: an embedded
 * target of a run that puts those in child processes (`plan.embedded === 'child'`) as a child
 * cell (cell-child/; its registration alone here records the checks skipped by the tier or the
 * capabilities, so a child that fails leaves the cell as a failed start would), every other as a
 * `registerTargetCell` cell started in this process under run id `runId`. A target with a catalog
 * `runtime` this process does not run on is always a child cell, on that runtime's Node (targets
 * runtime.ts); one whose runtime is not installed here fails its setup with TARGET_UNAVAILABLE
 * naming the target and the package, before anything starts.
 */
export function registerRunCells(rt: MatrixRuntime, plan: RunPlan, opts: Pick<RunOptions, 'checks' | 'repeat' | 'imageSource'>, runId: string, collector: CellCollector, progress: Progress): void {
  const { dataset, exp, checks, tier } = plan;
  for (const target of plan.targets) {
    const cell = collector.add(target, dataset);
    // A catalog `runtime` (another Node, e.g. Mastra 1.x on Node 22): the cell runs in a child process on it, unless this
    // process is that Node (the child itself). Not installed here: the cell's setup says so (TARGET_UNAVAILABLE), nothing starts.
    let runtime: TargetRuntime | undefined;
    let noRuntime: string | undefined;
    try {
      runtime = targetRuntime(target);
    } catch (e) {
      noRuntime = (e as Error).message;
    }
    const onRuntime = runtime !== undefined && !runtime.here;
    if ((target.provider === 'embedded' && plan.embedded === 'child' && noRuntime === undefined) || onRuntime) {
      registerTargetCell(new MatrixRuntime(), target, dataset, exp.expectation, { runId: '', checks, skip: tier.skip, sink: collector.skipSink(cell) });
      registerChildCell(
        rt,
        cell.suite,
        {
          spec: { target: target.name, datasetDir: dataset.dir, checks: opts.checks, tierProfile: plan.tierProfile, repeat: opts.repeat, loadSeed: plan.loadSeed },
          want: { target: target.name, datasetSha256: dataset.datasetSha256, expectationSha256: exp.sha256 },
          log: (l) => progress.log(l),
          timeoutMs: Math.round(childTimeoutMs(checks.length, targetLimits(target)) * hostCalibration().factor),
          ...(onRuntime ? { command: childCommand(runtime!.node) } : {}),
        },
        {
          onSpawned: (c) => {
            const on = onRuntime ? ` on Node ${runtime!.version} (${runtime!.package})` : '';
            progress.log(`${target.name}: running in a child process${on} (pid ${c.pid ?? '?'})`);
            collector.children.set(c, cell.report);
          },
          onCell: (c) => collector.onChildCell(cell, c),
          onDied: (death) => collector.onChildDied(cell, death),
          onEnded: () => progress.end(target.name),
        },
      );
      continue;
    }
    registerTargetCell(rt, target, dataset, exp.expectation, {
      runId,
      imageSource: opts.imageSource,
      checks,
      skip: tier.skip,
      repeat: plan.repeat,
      loadSeed: plan.loadSeed,
      baseline: plan.baselines.byTarget.get(target.name),
      unavailable: noRuntime ?? plan.dockerMissing.get(target.name),
      // The suite's hooks go straight to the progress display and the collector, not back through this file.
      ...progress.cellHooks(target.name), // log, progress, onEnded
      ...collector.cellHooks(cell), // sink, onStep, onStarted, onCellReady
    });
  }
}
