import Table from 'cli-table3';
import path from 'node:path';
import { LiveCell, loadGoldenDataset, MemoryMatrixError } from '@memory-matrix/spec';
import { loadCatalog, resolveTarget, startTarget, type Catalog } from '@memory-matrix/backends';
import { loadExpectation } from '../golden';
import { datasetDir, runIdOf, runMatrix } from '../run';

/** The catalog profile whose targets `bench` times when no --backend is given. */
export const BENCH_PROFILE = 'bench';

/** The `bench` profile's targets. Throws USAGE naming the catalog file when it has none. */
export function benchDefaults(catalog: Catalog): string[] {
  const profile = catalog.profiles.get(BENCH_PROFILE);
  if (!profile) throw new MemoryMatrixError('USAGE', `${catalog.file}: no profile "${BENCH_PROFILE}" (the targets bench times by default); give --backend or add profiles.${BENCH_PROFILE}`);
  return profile.targets;
}

/** Goals from the containers issue, ms: start from a cached image, and a whole two-target run. */
export const GOALS = { startMs: 5_000, wholeRunMs: 60_000 } as const;

/**
 * `memory-matrix bench`: for each target, times the phases of a cell on the default dataset —
 * start (from a cached image for containers), bulk load, index build, every query in exact and
 * index scan, and the comparison against the oracle expectation — then the whole run
 * (`memory-matrix run` on the same targets, all checks). Prints each figure with its goal and the
 * ratio measured/goal, all measured in this one invocation (the machine is noisy: compare ratios,
 * not absolute times across runs). Without `targetNames` it times the catalog's `bench` profile
 * (`BENCH_PROFILE`). Returns 0, or 1 when a goal is missed. Throws USAGE when no target is named
 * and the catalog has no `bench` profile, or for an unknown target (resolveTarget's error).
 */
export async function bench(targetNames: string[], dataset: string, out: (l: string) => void): Promise<number> {
  const catalog = loadCatalog();
  const targets = (targetNames.length ? targetNames : benchDefaults(catalog)).map((n) => resolveTarget(catalog, n));
  const ds = loadGoldenDataset(datasetDir(dataset));
  const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
  const { expectation } = loadExpectation(ds, { update: false, tieEpsilon });
  const rows: Array<[string, string, number, number | null]> = [];
  let missed = false;
  for (const t of targets) {
    const t0 = performance.now();
    const backend = await startTarget(t, { runId: runIdOf(new Date()), log: out });
    const startMs = performance.now() - t0;
    const cell = new LiveCell({ target: t.name, capabilities: t.capabilities, tolerances: t.tolerances, index: t.index, dataset: ds, expectation, connect: () => backend.connect() });
    try {
      const loaded = await cell.loaded();
      const q0 = performance.now();
      const exact = await cell.queryRuns('exact');
      const q1 = performance.now();
      await cell.queryRuns('index');
      const q2 = performance.now();
      for (const run of exact.values()) cell.compare(run, 'exact');
      const q3 = performance.now();
      const n = ds.queries.length;
      rows.push(
        [t.name, `start (${t.provider})`, startMs, t.provider === 'container' ? GOALS.startMs : null],
        [t.name, `load ${ds.memories.length} × ${ds.manifest.dim}`, loaded.loadMs, null],
        [t.name, `index build (${t.index.type})`, loaded.indexMs, null],
        [t.name, `${n} queries, exact scan`, q1 - q0, null],
        [t.name, `${n} queries, index scan`, q2 - q1, null],
        [t.name, `compare ${n} results with the oracle`, q3 - q2, null],
      );
      if (t.provider === 'container' && startMs > GOALS.startMs) missed = true;
    } finally {
      await cell.dispose().catch(() => undefined);
      await backend.stop();
    }
  }
  const w0 = performance.now();
  const report = await runMatrix({
    backends: targets.map((t) => t.name),
    profile: 'default',
    dataset,
    reportDir: path.resolve('matrix-report', 'bench'),
    updateGolden: false,
    checks: [],
    argv: ['bench'],
    out: () => undefined,
  });
  const wholeMs = performance.now() - w0;
  rows.push([targets.map((t) => t.name).join(' + '), `whole run, all checks (exit ${report.exitCode})`, wholeMs, GOALS.wholeRunMs]);
  if (wholeMs > GOALS.wholeRunMs) missed = true;
  const table = new Table({ head: ['target', 'phase', 'ms', 'goal ms', 'ratio'], style: { head: [], border: [] } });
  for (const [target, phase, ms, goal] of rows) table.push([target, phase, ms.toFixed(0), goal ?? '–', goal ? (ms / goal).toFixed(2) : '–']);
  out(table.toString());
  out(missed ? 'a goal was missed (ratio > 1)' : 'every goal met (ratio ≤ 1)');
  return missed || report.exitCode !== 0 ? 1 : 0;
}
