import { type CheckDefinition, type CheckResult, type Expectation, type GoldenDataset, type TestRuntime } from '@memory-matrix/spec';
import type { ImageSource, ResolvedTarget, StartedBackend } from '@memory-matrix/targets';
import { registerTargetCell } from '../run';
import { MatrixRuntime, timedOutResult } from '../runtime';
import { absorbedByKnown, type CatalogueRun } from './model';
import type { StoreWrap } from './wrap-cell';

/** How one catalogue run of one target goes (`runCatalogue`). */
export interface CatalogueRunOptions {
  /** Checks to run, in this order. */
  checks: readonly CheckDefinition[];
  /** Applied to every store the cell opens (a mutant); absent = a clean run. */
  wrapStore?: StoreWrap;
  /** Stop at the first failing check: the later ones are not run (and not recorded). */
  first: boolean;
  runId: string;
  imageSource?: ImageSource;
  log?: (line: string) => void;
  /** The backend started for this run (stopped by the run itself; the caller tracks it for Ctrl-C). */
  onStarted?: (b: StartedBackend) => void;
  onEnded?: () => void;
}

/**
 * A test runtime that, once a test has failed and `catches()` says the failure counts, turns the
 * remaining tests of the suite into no-ops (their checks are neither run nor recorded); hooks run
 * as registered. `--first`. `catches` (default: every failure) is asked right after the failing
 * test: a failure its target's `knownFailures` absorb does not stop the run.
 */
export function stopAtFirstFailure(rt: TestRuntime, catches: () => boolean = () => true): TestRuntime {
  let failed = false;
  const test = Object.assign(
    (name: string, fn: () => Promise<void>, timeoutMs?: number) =>
      rt.test(
        name,
        async () => {
          if (failed) return;
          try {
            await fn();
          } catch (e) {
            failed = catches();
            throw e;
          }
        },
        timeoutMs,
      ),
    { skip: rt.test.skip.bind(rt.test) },
  );
  return { describe: rt.describe.bind(rt), beforeAll: rt.beforeAll.bind(rt), afterAll: rt.afterAll.bind(rt), test };
}

/**
 * Run the catalogue on `target` once, through the runner's own cell path (`registerTargetCell`:
 * the backend started afresh through its provider, its own store, dropped and stopped after),
 * with `opts.wrapStore` applied to every store. A failed check that the target's `knownFailures`
 * absorb wholly (as the main run's report would settle it) is listed in `known`: not a catch, and
 * with `first` it does not stop the run. Never throws for a check's failure or the cell's
 * setup error: both are in the returned `CatalogueRun`.
 */
export async function runCatalogue(target: ResolvedTarget, dataset: GoldenDataset, expectation: Expectation, opts: CatalogueRunOptions): Promise<CatalogueRun> {
  const t0 = performance.now();
  const mrt = new MatrixRuntime();
  const results: CheckResult[] = [];
  const metric = dataset.manifest.metric;
  const isKnown = (r: CheckResult | undefined): boolean => r !== undefined && absorbedByKnown(r, target.knownFailures, metric);
  registerTargetCell(opts.first ? stopAtFirstFailure(mrt, () => !isKnown(results[results.length - 1])) : mrt, target, dataset, expectation, {
    runId: opts.runId,
    imageSource: opts.imageSource,
    checks: opts.checks,
    log: opts.log,
    onStarted: (b) => opts.onStarted?.(b),
    onEnded: opts.onEnded,
    // A check stopped at its time limit is recorded as TIMEOUT (runtime.ts timedOutResult); its body finishing later is not a second verdict.
    sink: { record: (r) => void (results.some((x) => x.id === r.id) || results.push(r)) },
    wrapStore: opts.wrapStore,
  });
  const out = await mrt.run((t) => {
    const timedOut = timedOutResult(t, opts.checks);
    if (timedOut) results.push(timedOut);
  });
  const suite = `${target.name} × ${dataset.manifest.name}`;
  const err = out.setupErrors.get(suite) ?? out.teardownErrors.get(suite);
  const known = results.filter(isKnown).map((r) => r.id);
  return {
    results,
    ms: performance.now() - t0,
    ...(known.length ? { known } : {}),
    ...(err ? { setupError: { code: (err as { code?: string }).code, message: err.message } } : {}),
  };
}
