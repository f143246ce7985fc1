import { writeFileSync } from 'node:fs';
import { loadGoldenDataset, MemoryMatrixError, selectChecks } from '@memory-matrix/spec';
import { type ImageSource } from '@memory-matrix/backends';
import { watchInterrupt } from '../baseline/interrupt';
import { loadExpectation } from '../golden';
import { runCatalog, selectTargets } from '../select';
import { runCatalogue } from './catalogue-run';
import { faultStore, selectMutants } from './mutants';

/**
 * One catalogue run in a child process (`selftest --parallel n`): the request the parent writes
 * as JSON in argv[2]. `mutant` null = the clean run; `checks` the check ids in run order;
 * `dataset` an absolute folder; `resultFile` where the child writes its `CatalogueRun` JSON.
 */
export interface WorkerRequest {
  target: string;
  mutant: string | null;
  checks: string[];
  first: boolean;
  dataset: string;
  imageSource?: ImageSource;
  runId: string;
  resultFile: string;
}

/**
 * Carry out one `WorkerRequest`: the same `runCatalogue` as the in-process path, on a backend this
 * process starts and stops. Writes the run to `resultFile` and exits 0; on an error before the
 * run (bad request, catalog, dataset) writes `{ error }` there and exits 2. SIGINT / SIGTERM stop
 * the backend and exit 130 / 143 (watchInterrupt).
 */
export async function workerMain(raw: string): Promise<number> {
  const req = JSON.parse(raw) as WorkerRequest;
  const watch = watchInterrupt(
    (l) => process.stderr.write(l + '\n'),
    () => undefined,
  );
  try {
    const catalog = runCatalog();
    const { targets } = selectTargets(catalog, { backends: [req.target], profile: 'default', docker: true, shard: null });
    const target = targets[0]!;
    const dataset = loadGoldenDataset(req.dataset);
    const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
    const { expectation } = loadExpectation(dataset, { update: false, tieEpsilon });
    const byId = new Map(selectChecks([]).map((c) => [c.id, c]));
    const checks = req.checks.map((id) => {
      const c = byId.get(id);
      if (!c) throw new MemoryMatrixError('INVALID_INPUT', `selftest worker: no check ${id}`);
      return c;
    });
    const mutant = req.mutant === null ? null : selectMutants([req.mutant])[0]!;
    const fault = mutant?.fault(target.capabilities);
    const run = await runCatalogue(target, dataset, expectation, {
      checks,
      first: req.first,
      runId: req.runId,
      imageSource: req.imageSource,
      log: (l) => process.stderr.write(l + '\n'),
      onStarted: (b) => watch.track(b),
      ...(fault ? { wrapStore: (s) => faultStore(s, fault) } : {}),
    });
    writeFileSync(req.resultFile, JSON.stringify(run));
    return 0;
  } catch (e) {
    const err = e as { code?: string; message?: string };
    writeFileSync(req.resultFile, JSON.stringify({ error: { code: err.code, message: err.message ?? String(e) } }));
    return 2;
  } finally {
    watch.dispose();
  }
}

if (require.main === module) {
  void workerMain(process.argv[2] ?? '{}').then((code) => process.exit(code));
}
