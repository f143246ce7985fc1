import { LiveCell, type Expectation, type GoldenDataset } from '@memory-matrix/spec';
import { startTarget, type ResolvedTarget } from '@memory-matrix/targets';
import { runIdOf } from '../run';

/** Goal of a container start from a cached image, ms (containers issue). */
export const START_GOAL_MS = 5_000;

/** One timed phase: target, what, ms, and the goal in ms when it has one. */
export type PhaseRow = [target: string, phase: string, ms: number, goalMs: number | null];

/**
 * The phases of one cell per target on the dataset — start (from a cached image for containers),
 * bulk load (LiveCell: chunks of 500), index build, every query in exact and index scan, and the
 * comparison of the exact runs against the oracle expectation. Each target is started through
 * `startTarget` and stopped at the end. Errors of a start or a phase are passed on.
 */
export async function cellPhases(targets: ResolvedTarget[], ds: GoldenDataset, expectation: Expectation, log: (l: string) => void): Promise<PhaseRow[]> {
  const rows: PhaseRow[] = [];
  for (const t of targets) {
    const t0 = performance.now();
    const backend = await startTarget(t, { runId: runIdOf(new Date()), log });
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
        [t.name, `start (${t.provider})`, startMs, t.provider === 'container' ? START_GOAL_MS : null],
        [t.name, `load ${ds.memories.length} × ${ds.manifest.dim}`, loaded.loadMs, null],
        [t.name, `index build (${t.index.type})`, loaded.indexMs, null],
        [t.name, `${n} queries, exact scan`, q1 - q0, null],
        [t.name, `${n} queries, index scan`, q2 - q1, null],
        [t.name, `compare ${n} results with the oracle`, q3 - q2, null],
      );
    } finally {
      await cell.dispose().catch(() => undefined);
      await backend.stop();
    }
  }
  return rows;
}
