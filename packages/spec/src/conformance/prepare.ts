import { MemoryMatrixError } from '../errors';
import { hostCalibration } from '../host';
import type { Capabilities } from '../capabilities';
import type { IndexConfig } from '../types';
import type { DatasetFit } from './fit';
import { type CellLimits, limitMessage, runWithin } from './limits';
import type { CellFixture, ScanMode } from './types';

/** What `prepareFixtures` uses of a cell (a `LiveCell`; declared here so that this module needs no import of cell.ts). */
export interface FixtureHost {
  readonly target: string;
  readonly config: { readonly capabilities: Pick<Capabilities, 'exactScan'>; readonly index: IndexConfig };
  readonly fit: Pick<DatasetFit, 'indexPath'>;
  readonly dataset: { readonly memories: readonly unknown[]; readonly queries: readonly unknown[] };
  /** The golden collection, loaded (and indexed) once. */
  loaded(): Promise<unknown>;
  /** Bulk-load and index-build times once loaded, ms. */
  readonly loadTimings: { loadMs: number; indexMs: number } | undefined;
  /** How far the golden load got: memories written, and whether the index build started. */
  readonly loadProgress: { written: number; indexing: boolean; ms: number };
  /** Tell the golden load (`load`) or the replays on a scan path to stop before their next batch / query (a limit ran out). */
  stop(what: 'load' | ScanMode): void;
  /** What the cell is doing now (`LiveCell.step`), for limit messages. */
  readonly step: string | undefined;
  /** The golden replay on one scan path. */
  queryRuns(scan: ScanMode): Promise<unknown>;
  /** Make `fixture` the rejection `err` for every check that reads it (a step past its limit; the cell caches fixtures). */
  failFixture(fixture: CellFixture, err: Promise<never>): void;
  /** The steps prepared so far, in order: `prepareFixtures` appends each as it ends. */
  readonly steps: PreparedStep[];
}

/**
 * One step a cell prepared before its checks (report.json `cells[].steps`): `load` (every golden
 * memory written), `index` (the index built on them: `buildIndex`, also with index `none`),
 * `exact-replay` / `index-replay` (every golden query on that path). `label` says it in words
 * (`load 5111 memories`); `status` `done`, `failed` (its error: code TIMEOUT at its limit), or
 * `not-run` (an earlier step failed); `durationMs` its wall time (null when not run; for a failed
 * load the time until it failed); `limitMs` the limit it ran under before the host factor
 * `hostFactor` (`load` and `index` share `loadTimeoutMs`; each replay has `checkTimeoutMs`).
 */
export interface PreparedStep {
  step: 'load' | 'index' | 'exact-replay' | 'index-replay';
  label: string;
  status: 'done' | 'failed' | 'not-run';
  durationMs: number | null;
  limitMs: number;
  hostFactor: number;
  /** For `load`: memories written (all of them when done). */
  written?: number;
  error?: { code?: string; message: string };
}

const errorOf = (e: unknown): { code?: string; message: string } => {
  const err = e as { code?: unknown; message?: unknown };
  return { ...(typeof err?.code === 'string' ? { code: err.code } : {}), message: String(err?.message ?? e) };
};

/**
 * Prepare a cell's shared `fixtures` (`CheckDefinition.fixtures`) in order: the golden load
 * (memories written, then the index built) within `limits.loadTimeoutMs`, then the exact replay and
 * the index replay (the exact one only on a target with `exactScan`; the index one not when the
 * cell built no index for a dataset wider than `maxIndexDim` and can scan exactly), each within
 * `limits.checkTimeoutMs` — every limit × the host factor when the step starts (host.ts). What
 * registerConformance runs before the first check, so every check reads the same fixtures whatever
 * checks ran before it, and none pays for them inside its own time limit. A step that fails stays
 * failed for every check that reads it (the cell caches the rejected promise); one that exceeds its
 * limit is replaced through `cell.failFixture` by a rejection with code TIMEOUT naming what ran, how far it got,
 * the limit, the factor and how to raise it (limits.ts `limitMessage`), and a load or replay past its
 * limit is told to stop before its next batch or query. The later steps are then not started. Returns every step,
 * in order, as `PreparedStep`s, each also appended to `cell.steps` and given to `onStep` as it ends.
 * registerConformance calls it with the cell directly, so a golden query goes register.ts →
 * prepare.ts → cell.ts → the adapter, each file entered once (docs/design.md "The path of one query"). Never throws.
 */
export async function prepareFixtures(
  cell: FixtureHost,
  fixtures: readonly CellFixture[],
  limits: Pick<CellLimits, 'loadTimeoutMs' | 'checkTimeoutMs'>,
  onStep?: (s: PreparedStep) => void,
): Promise<PreparedStep[]> {
  const want = new Set(fixtures);
  const out: PreparedStep[] = [];
  const emit = (s: PreparedStep): void => {
    out.push(s);
    cell.steps.push(s);
    onStep?.(s);
  };
  if (!want.size) return out;
  const n = cell.dataset.memories.length;
  const q = cell.dataset.queries.length;
  const indexLabel = `build the index (${cell.config.index.type})`;
  const loadLabel = `load ${n} memories`;
  let failed: string | undefined;
  let factor = hostCalibration().factor;
  const t0 = performance.now();
  try {
    await runWithin(
      () => cell.loaded(),
      limits.loadTimeoutMs,
      (f) => {
        cell.stop('load');
        const p = cell.loadProgress;
        const how = p.indexing ? `${indexLabel}; the ${n} memories were written in ${Math.round(p.ms / 1000)} s` : `${loadLabel}, ${p.written} written`;
        return new MemoryMatrixError(
          'TIMEOUT',
          limitMessage(`${cell.target}: the golden load (${loadLabel}, then ${indexLabel}, prepared before the checks)`, limits.loadTimeoutMs, f, 'loadTimeoutMs', how),
        );
      },
      factor,
    );
    const t = cell.loadTimings!;
    emit({ step: 'load', label: loadLabel, status: 'done', durationMs: t.loadMs, limitMs: limits.loadTimeoutMs, hostFactor: factor, written: n });
    emit({ step: 'index', label: indexLabel, status: 'done', durationMs: t.indexMs, limitMs: limits.loadTimeoutMs, hostFactor: factor });
  } catch (e) {
    const error = errorOf(e);
    if (error.code === 'TIMEOUT') {
      const err = Promise.reject(e as Error);
      err.catch(() => undefined); // handled: every check that reads the fixture is recorded not run with it
      cell.failFixture('golden', err);
    }
    failed = error.message.split('\n')[0]!;
    const p = cell.loadProgress;
    const ms = performance.now() - t0;
    if (p.indexing) {
      emit({ step: 'load', label: loadLabel, status: 'done', durationMs: p.ms, limitMs: limits.loadTimeoutMs, hostFactor: factor, written: n });
      emit({ step: 'index', label: indexLabel, status: 'failed', durationMs: ms - p.ms, limitMs: limits.loadTimeoutMs, hostFactor: factor, error });
    } else {
      emit({ step: 'load', label: loadLabel, status: 'failed', durationMs: ms, limitMs: limits.loadTimeoutMs, hostFactor: factor, written: p.written, error });
      emit({ step: 'index', label: indexLabel, status: 'not-run', durationMs: null, limitMs: limits.loadTimeoutMs, hostFactor: factor });
    }
  }
  const replays: Array<[CellFixture, ScanMode]> = [];
  if (want.has('exact-replay') && cell.config.capabilities.exactScan) replays.push(['exact-replay', 'exact']);
  // Above maxIndexDim a target with an exact scan has no index path to replay (LiveCell.scanModes).
  if (want.has('index-replay') && !(cell.fit.indexPath && cell.config.capabilities.exactScan)) replays.push(['index-replay', 'index']);
  for (const [fixture, scan] of replays) {
    const label = `replay ${q} queries (${scan} scan)`;
    const step = fixture as PreparedStep['step'];
    if (failed) {
      emit({ step, label, status: 'not-run', durationMs: null, limitMs: limits.checkTimeoutMs, hostFactor: factor, error: { code: 'NOT_RUN', message: `not run: ${failed}` } });
      continue;
    }
    const s0 = performance.now();
    factor = hostCalibration().factor;
    try {
      await runWithin(
        () => cell.queryRuns(scan),
        limits.checkTimeoutMs,
        (f) => {
          cell.stop(scan);
          return new MemoryMatrixError(
            'TIMEOUT',
            limitMessage(`${cell.target}: the golden replay on the ${scan} path (${q} queries, prepared before the checks)`, limits.checkTimeoutMs, f, 'checkTimeoutMs', cell.step),
          );
        },
        factor,
      );
      emit({ step, label, status: 'done', durationMs: performance.now() - s0, limitMs: limits.checkTimeoutMs, hostFactor: factor });
    } catch (e) {
      const error = errorOf(e);
      if (error.code === 'TIMEOUT') {
        const err = Promise.reject(e as Error);
        err.catch(() => undefined); // handled: every check that reads the fixture awaits it and reports it
        cell.failFixture(fixture, err);
      }
      failed = error.message.split('\n')[0]!;
      emit({ step, label, status: 'failed', durationMs: performance.now() - s0, limitMs: limits.checkTimeoutMs, hostFactor: factor, error });
    }
  }
  return out;
}

/**
 * Why a check that reads `fixtures` (its `CheckDefinition.fixtures`) cannot run in a cell that
 * prepared `steps`: `not run: the golden load failed: <cause>` when it reads any fixture (each
 * stands on the golden collection) and the load or the index build failed; null otherwise (also
 * when nothing was prepared). One cause for every such check, not a failure of each.
 */
export function blockedBy(steps: readonly PreparedStep[], fixtures: readonly CellFixture[] | undefined): string | null {
  if (!fixtures?.length) return null;
  const bad = steps.find((s) => (s.step === 'load' || s.step === 'index') && s.status === 'failed');
  return bad ? `not run: the golden load failed: ${bad.error!.message.split('\n')[0]}` : null;
}
