import { compareHits, type Failure } from '../comparator';
import type { LiveCell, ScanMode } from '../conformance/cell';
import { whereOf } from '../conformance/where';
import type { FigureTable } from '../conformance/result';
import type { GoldenQuery } from '../golden/types';
import { MAX_RECALL_K } from '../types';
import { every } from './helpers/sampling';

/** Selectivities of the sweep (fraction of all rows matching the filter) and the k values. */
export const SWEEP_SELECTIVITIES = [0.001, 0.01, 0.1, 0.5] as const;
export const SWEEP_K = [1, 10, 50] as const;
/**
 * Large k of the sweep, up to the contract's maximum (`MAX_RECALL_K`): a filter an adapter drops
 * or post-applies only at large k (k ≥ 100) shows here, where golden queries (k ≤ 50) never go.
 */
export const SWEEP_LARGE_K = [100, 500, MAX_RECALL_K] as const;
/** Held-out query vectors per (selectivity, k) for `SWEEP_K`; `LARGE_K_QUERIES` per point for `SWEEP_LARGE_K` (12 recalls per scan path in all). */
const QUERIES_PER_POINT = 5;
const LARGE_K_QUERIES = 1;

/**
 * The namespaces whose memories make up about `fraction` of the dataset: the single namespace
 * closest in size when one is big enough, else the largest ones added until the sum reaches it.
 * Deterministic (ties by name).
 */
export function namespacesFor(sizes: Map<string, number>, total: number, fraction: number): string[] {
  const want = fraction * total;
  const sorted = [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const closest = sorted.reduce((best, cur) => (Math.abs(cur[1] - want) < Math.abs(best[1] - want) ? cur : best));
  if (closest[1] >= want / 2 && closest[1] <= want * 2) return [closest[0]];
  const out: string[] = [];
  let sum = 0;
  for (const [ns, n] of sorted) {
    if (sum >= want || Math.abs(sum + n - want) > Math.abs(sum - want)) break;
    out.push(ns);
    sum += n;
  }
  return out;
}

/**
 * C04's sweep: namespace filters at ≈0.1 %, 1 %, 10 %, 50 % selectivity × k ∈ {1, 10, 50} (five
 * held-out golden query vectors each) and × k ∈ {100, 500, 1000} (`SWEEP_LARGE_K`, one vector
 * each), on one scan path, against the live float64 oracle. Returns a
 * table (per point: actual selectivity, rows returned vs min(k, M), shortfall, mean recall@k) and the
 * count/filter failures.
 */
export async function selectivitySweep(cell: LiveCell, scan: ScanMode): Promise<{ table: FigureTable; failures: Failure[]; shortfall: number }> {
  const { collection } = await cell.loaded();
  const total = cell.dataset.memories.length;
  const sizes = new Map<string, number>();
  for (const m of cell.dataset.memories) sizes.set(m.namespace, (sizes.get(m.namespace) ?? 0) + 1);
  const vectors: GoldenQuery[] = every(
    cell.dataset.queries.filter((q) => q.purpose === 'held-out' && !q.filter),
    QUERIES_PER_POINT,
  );
  const rows: FigureTable['rows'] = [];
  const failures: Failure[] = [];
  let shortfall = 0;
  for (const fraction of SWEEP_SELECTIVITIES) {
    const namespaces = namespacesFor(sizes, total, fraction);
    const matching = namespaces.reduce((s, ns) => s + (sizes.get(ns) ?? 0), 0);
    for (const k of [...SWEEP_K, ...SWEEP_LARGE_K]) {
      let returned = 0;
      let expected = 0;
      let recall = 0;
      const pointFailures: Failure[] = [];
      const pointVectors = (SWEEP_K as readonly number[]).includes(k) ? vectors : vectors.slice(0, LARGE_K_QUERIES);
      for (const q of pointVectors) {
        const query = { vector: q.vector, k, filter: { namespaces } };
        const exp = cell.oracle.topK(query, cell.config.tolerances.tieEpsilon);
        const hits = await collection.recall({ ...query, scan });
        const tolerances = cell.oracle.tolerancesFor(q.vector, cell.config.tolerances);
        const c = compareHits(
          exp,
          hits,
          { dataset: cell.datasetName, target: cell.target, queryId: `${q.id}@${namespaces.length}ns/k${k}`, ...whereOf(query, scan, cell.dataset.manifest.metric) },
          {
            k,
            mode: 'ann',
            tieEpsilon: cell.config.tolerances.tieEpsilon,
            scoreTolerance: cell.config.tolerances.scoreTolerance,
            tolerances,
            matches: (id) => cell.matches(id, query.filter),
          },
        );
        returned += hits.length;
        expected += c.expectedCount;
        recall += c.recallAtK;
        for (const f of c.failures) {
          if (f.kind === 'count' || f.kind === 'filter') pointFailures.push({ ...f, message: `${scan} scan, sweep ${(100 * fraction).toFixed(1)}% (${matching} rows) k=${k}: ${f.message}` });
        }
      }
      const missing = expected - Math.min(returned, expected);
      shortfall += missing;
      // The exact path has no margin; the index path may miss up to annShortfallMax of the rows.
      const margin = scan === 'exact' ? 0 : cell.config.tolerances.annShortfallMax;
      failures.push(...pointFailures.filter((f) => f.kind === 'filter' || missing > margin * expected));
      rows.push([scan, `${(100 * fraction).toFixed(1)}%`, Number(((100 * matching) / total).toFixed(2)), k, returned, expected, expected - Math.min(returned, expected), recall / pointVectors.length]);
    }
  }
  return {
    table: { title: `C04 selectivity sweep (${scan} scan)`, columns: ['scan', 'target selectivity', 'actual %', 'k', 'returned', 'min(k,M)', 'shortfall', 'recall@k'], rows },
    failures,
    shortfall,
  };
}
