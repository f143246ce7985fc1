import { datasetFilterSet, filterSetPath, planC31, recallAtK, type IndexConfig, type LiveCell, type ScanMode } from '@memory-matrix/spec';
import { displayPath } from '../version';
import type { BaselineRun, FilteredResults } from './model';

/** Golden memories written per upsert while the filtered collection loads (as C31). */
const LOAD_CHUNK = 500;

/** The key of one filtered result in `FilteredResults.runs.*.queries`: `<case name>/<query id>`. */
export const filteredKey = (caseName: string, queryId: string): string => `${caseName}/${queryId}`;

/**
 * Replay the dataset's golden filter set (golden-data/filters/<dataset>.jsonl, FORMAT.md "Filter
 * sets") on `cell`'s target as C31 does (spec c31-cases.ts `planC31`): a fresh collection holding
 * every memory with the derived metadata the target can store, the target's ANN index built after
 * the load, then every case the target can push down (operators ⊆ `filterOperators`, shapes ⊆
 * `metadataShapes`) recalled with `filter: { where }` for each query of the set, on the index path
 * (when the cell has an ANN index) and the exact path (with `exactScan`). Each result is kept as
 * its top-k ids and scores under `filteredKey(case, query)`, with recall@k against the set's exact
 * expectation; the cases the target cannot run are listed with the reason, never dropped.
 * Returns null when the dataset has no filter set (nothing to record). Throws what the adapter
 * throws (BACKEND_ERROR, CAPABILITY_MISSING …) and GOLDEN_INVALID for a stale set.
 */
export async function recordFiltered(cell: LiveCell, log: (line: string) => void): Promise<FilteredResults | null> {
  const set = datasetFilterSet(cell.dataset);
  if (set === null) return null;
  const plan = planC31(cell.dataset, set, cell.config.capabilities);
  const h = set.header;
  const out: FilteredResults = {
    set: { file: displayPath(filterSetPath(cell.dataset)), derivation: h.derivation, k: h.k, queries: [...h.queries], cases: set.cases.length },
    unsupported: plan.unsupported.map((u) => ({ case: u.c.name, reason: u.reason })),
    runs: {},
  };
  if (plan.runnable.length === 0) return out;
  const paths = cell.scanModes().filter((m) => m === 'exact' || cell.config.index.type !== 'none');
  const modes: ScanMode[] = paths.length ? paths : ['index'];
  const index: IndexConfig = modes.includes('index') ? cell.config.index : { type: 'none' };
  const { collection } = await cell.scratch('filtered', { index });
  for (let i = 0; i < plan.records.length; i += LOAD_CHUNK) await collection.upsert(plan.records.slice(i, i + LOAD_CHUNK));
  await collection.buildIndex();
  const vectors = new Map(cell.dataset.queries.map((q) => [q.id, q.vector]));
  for (const scan of modes) {
    const queries: BaselineRun['queries'] = [];
    let sum = 0;
    let min = 1;
    for (const c of plan.runnable) {
      for (const qid of h.queries) {
        const t0 = performance.now();
        const hits = (await collection.recall({ vector: vectors.get(qid)!, k: h.k, filter: { where: c.expr }, scan })).slice(0, h.k);
        const ms = performance.now() - t0;
        queries.push({ query: filteredKey(c.name, qid), k: h.k, ids: hits.map((x) => x.id), scores: hits.map((x) => x.score), ms: Math.round(ms * 1000) / 1000 });
        const r = recallAtK({ hits: c.topk[qid]!, matching: c.matching }, hits, h.k, h.tieEpsilon);
        sum += r;
        min = Math.min(min, r);
      }
    }
    out.runs[scan] = { scan, index: scan === 'exact' ? { type: 'none' } : index, oracleRecall: { mean: queries.length ? sum / queries.length : 1, min }, queries };
  }
  log(`${cell.target}: replayed ${plan.runnable.length} of ${set.cases.length} filter cases × ${h.queries.length} queries on ${modes.join(' and ')} (${plan.unsupported.length} unsupported)`);
  return out;
}
