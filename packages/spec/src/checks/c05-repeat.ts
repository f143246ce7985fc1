import type { LiveCell, QueryRun } from '../conformance/cell';
import { toRecallQuery } from '../conformance/cell';
import { summarize, type Summary } from '../stats';

/**
 * ANN noise (`--repeat n`, `CellConfig.repeat`). An HNSW graph depends on random level draws made
 * while it is built; querying the same graph again returns the same result, so a repeat that only
 * re-ran the queries would measure nothing. Repeat 1 is the cell's shared golden collection (the
 * replay C04 and the report use); each further repeat loads the golden memories into a FRESH
 * collection with the same index config, builds the index, replays every golden query on the
 * index path and drops the collection. No backend of the catalog takes a seed for its index build
 * (each adapter README says where its index build draws its randomness; none has a seed
 * parameter), so every repeat records `seed: null` — a backend that takes one would
 * record it here.
 *
 * The gate rule (`judgeRepeats`), with n repeats, floors F (cell mean) and Fq (per query):
 * - regression: the MEAN over the n runs of the per-run mean recall@k is below F;
 * - noise: a run whose mean is below F while the mean over runs is not (named, not failed);
 * - a query fails when its recall@k averaged over the runs is below Fq; a query below Fq in some
 *   run but not on average is counted as noise.
 * With n = 1 this is exactly the single-run rule. The spread (min / mean / max / population stdev
 * of the per-run means) is reported next to the verdict.
 */

/** One index-path replay of every golden query. */
export interface Replay {
  run: number;
  runs: Map<string, QueryRun>;
  /** Index build of this repeat, ms (repeat 1: the shared collection's). */
  buildMs: number;
  /** The seed of the index build, when the backend takes one (none does today). */
  seed: number | null;
}

/** Repeat `run` (1-based) of the index-path replay (see the module comment). */
export async function indexReplay(cell: LiveCell, run: number): Promise<Replay> {
  if (run === 1) {
    const runs = await cell.queryRuns('index');
    return { run, runs, buildMs: (await cell.loaded()).indexMs, seed: null };
  }
  const { store, collection } = await cell.scratch(`c05_r${run}`, { index: cell.config.index });
  try {
    const all = cell.dataset.memories;
    for (let i = 0; i < all.length; i += 500) await collection.upsert(all.slice(i, i + 500));
    const t0 = performance.now();
    await collection.buildIndex();
    const buildMs = performance.now() - t0;
    const runs = new Map<string, QueryRun>();
    for (const q of cell.dataset.queries) {
      const q0 = performance.now();
      const hits = await collection.recall(toRecallQuery(q, 'index'));
      runs.set(q.id, { query: q, scan: 'index', hits, ms: performance.now() - q0 });
    }
    return { run, runs, buildMs, seed: null };
  } finally {
    await store.dropCollection(collection.spec.name);
  }
}

/** The verdict of `judgeRepeats`. */
export interface RepeatVerdict {
  /** Per-run mean recall@k, in run order, and their spread. */
  runMeans: number[];
  spread: Summary;
  /** Runs (1-based) whose mean is below the floor while the mean over runs is not. */
  noiseRuns: number[];
  /** The mean over runs is below the floor. */
  regression: boolean;
  /** Per query: recall@k averaged over the runs. */
  perQuery: Map<string, number>;
  /** Queries whose average is below the per-query floor. */
  failingQueries: string[];
  /** Queries below the per-query floor in some run but not on average. */
  noiseQueries: string[];
}

/** Apply the gate rule of the module comment to per-run, per-query recall@k values (each map: query id → recall). */
export function judgeRepeats(runs: ReadonlyArray<ReadonlyMap<string, number>>, floor: number, perQueryFloor: number): RepeatVerdict {
  const runMeans = runs.map((m) => summarize([...m.values()]).mean);
  const spread = summarize(runMeans);
  const regression = !(spread.mean >= floor);
  const noiseRuns = regression ? [] : runMeans.flatMap((m, i) => (m < floor ? [i + 1] : []));
  const perQuery = new Map<string, number>();
  const failingQueries: string[] = [];
  const noiseQueries: string[] = [];
  for (const qid of runs[0]?.keys() ?? []) {
    const values = runs.map((m) => m.get(qid) ?? 0);
    const mean = summarize(values).mean;
    perQuery.set(qid, mean);
    if (mean < perQueryFloor) failingQueries.push(qid);
    else if (values.some((v) => v < perQueryFloor)) noiseQueries.push(qid);
  }
  return { runMeans, spread, noiseRuns, regression, perQuery, failingQueries, noiseQueries };
}
