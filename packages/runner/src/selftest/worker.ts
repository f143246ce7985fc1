import { loadGoldenDataset, MemoryMatrixError, selectChecks, type Expectation, type GoldenDataset } from '@memory-matrix/spec';
import { type Catalog, type ImageSource, type StartedBackend } from '@memory-matrix/targets';
import { watchInterrupt, type InterruptWatch } from '../baseline/interrupt';
import { loadExpectation } from '../golden';
import { runCatalog, selectTargets } from '../select';
import { runCatalogue } from './catalogue-run';
import type { CatalogueRun } from './model';
import { faultStore, selectMutants } from './mutants';

/**
 * One catalogue run in a worker child process (`selftest --parallel n`, pool.ts), sent by the
 * parent over IPC. `mutant` null = the clean run; `checks` the check ids in run order; `dataset`
 * an absolute folder.
 */
export interface WorkerRequest {
  target: string;
  mutant: string | null;
  checks: string[];
  first: boolean;
  dataset: string;
  imageSource?: ImageSource;
  runId: string;
}

/** The child's answer to one `WorkerRequest`: the run, or the error that kept it from running. */
export type WorkerReply = { run: CatalogueRun } | { error: { code?: string; message: string } };

/** What a worker loads once and keeps for its later runs: the catalog, and per dataset folder the dataset and its expectation. */
const loaded: { catalog?: Catalog; datasets: Map<string, { dataset: GoldenDataset; expectation: Expectation }> } = { datasets: new Map() };

/**
 * Carry out one `WorkerRequest`: the same `runCatalogue` as the in-process path, on a backend this
 * process starts and stops (tracked by `watch`, so SIGINT / SIGTERM stop it). Never throws: an
 * error before the run (bad request, catalog, dataset) is the `error` reply.
 */
export async function workerRun(req: WorkerRequest, watch: InterruptWatch): Promise<WorkerReply> {
  try {
    const catalog = (loaded.catalog ??= runCatalog());
    const { targets } = selectTargets(catalog, { backends: [req.target], profile: 'default', docker: true, shard: null });
    const target = targets[0]!;
    let data = loaded.datasets.get(req.dataset);
    if (!data) {
      const dataset = loadGoldenDataset(req.dataset);
      const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
      data = { dataset, expectation: loadExpectation(dataset, { update: false, tieEpsilon }).expectation };
      loaded.datasets.set(req.dataset, data);
    }
    const byId = new Map(selectChecks([]).map((c) => [c.id, c]));
    const checks = req.checks.map((id) => {
      const c = byId.get(id);
      if (!c) throw new MemoryMatrixError('INVALID_INPUT', `selftest worker: no check ${id}`);
      return c;
    });
    const mutant = req.mutant === null ? null : selectMutants([req.mutant])[0]!;
    const fault = mutant?.fault(target.capabilities);
    let backend: StartedBackend | undefined;
    const run = await runCatalogue(target, data.dataset, data.expectation, {
      checks,
      first: req.first,
      runId: req.runId,
      imageSource: req.imageSource,
      log: (l) => process.stderr.write(l + '\n'),
      onStarted: (b) => {
        backend = b;
        watch.track(b);
      },
      onEnded: () => backend && watch.release(backend), // stopped by the run itself
      ...(fault ? { wrapStore: (s) => faultStore(s, fault) } : {}),
    });
    return { run };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    return { error: { code: err.code, message: err.message ?? String(e) } };
  }
}

/**
 * The worker's main loop: each IPC message is a `WorkerRequest`, carried out one at a time (the
 * pool sends the next only after the reply), each answered with a `WorkerReply`. Exits 0 when the
 * parent closes the channel; SIGINT / SIGTERM stop the backend of the run in progress and exit
 * 130 / 143 (watchInterrupt).
 */
export function workerMain(): void {
  const watch = watchInterrupt(
    (l) => process.stderr.write(l + '\n'),
    () => undefined,
  );
  process.on('message', (req: WorkerRequest) => {
    void workerRun(req, watch).then((reply) => process.send?.(reply));
  });
  process.on('disconnect', () => {
    watch.dispose();
    process.exit(0);
  });
}

if (require.main === module) workerMain();
