/**
 * Test helpers for an adapter's golden-filter-set test (adapter-pgvector, adapter-lancedb test/filter.test.ts):
 * the set, its records, the cases a compiler can run, and a result's problems under the tie rule.
 */
import path from 'node:path';
import {
  deriveFilterFields,
  loadFilterSet,
  loadGoldenDataset,
  tieGroups,
  tieGroupViolations,
  unsupportedFilterOperators,
  type FilterCase,
  type FilterOperator,
  type FilterSet,
  type GoldenDataset,
  type MemoryRecord,
  type RecallHit,
} from '../src';

/** The repository root (this file is packages/spec/test/filter-set-cases.ts). */
const ROOT = path.resolve(__dirname, '../../..');

/** The golden dataset and its golden filter set (golden-data/FORMAT.md "Filter sets"). */
export function goldenFilterSet(): { dataset: GoldenDataset; set: FilterSet } {
  const dataset = loadGoldenDataset(path.join(ROOT, 'golden-data/agent-memories'));
  const set = loadFilterSet(path.join(ROOT, 'golden-data/filters/agent-memories.jsonl'));
  return { dataset, set };
}

/**
 * The golden memories as the contract stores them: own metadata plus the derived keys that are
 * flat scalars (`words`, `stance`). The nested and array keys (`src`, `labels`, `scores`) are
 * returned apart, per id, for a test that writes them with the backend's own API.
 */
export function filterSetRecords(dataset: GoldenDataset): { records: MemoryRecord[]; shaped: Map<string, Record<string, unknown>> } {
  const shaped = new Map<string, Record<string, unknown>>();
  const records = dataset.memories.map((r) => {
    const { src, labels, scores, ...flat } = deriveFilterFields(r);
    shaped.set(r.id, { src, labels, scores });
    return { ...r, metadata: { ...r.metadata, ...(flat as MemoryRecord['metadata']) } };
  });
  return { records, shaped };
}

/** The cases whose operators `declared` covers and whose shapes `shapes` holds. */
export function runnableCases(set: FilterSet, declared: readonly FilterOperator[], shapes: readonly string[]): FilterCase[] {
  return set.cases.filter((c) => unsupportedFilterOperators(c.expr, declared).length === 0 && c.shapes.every((s) => shapes.includes(s)));
}

/**
 * Problems of `actual` against a case's expected top-k for one query, under the tie rule
 * (spec `tieGroupViolations` over the expectation's tie groups, the set's tieEpsilon): count = min(k, matching), each
 * rank's id in the expected tie group spanning it. [] when it holds.
 */
export function caseProblems(set: FilterSet, c: FilterCase, queryId: string, actual: RecallHit[]): string[] {
  const k = set.header.k;
  const expected = c.topk[queryId]!;
  const want = Math.min(k, c.matching);
  const out: string[] = [];
  if (actual.length !== want) out.push(`${c.name} ${queryId}: ${actual.length} hits, expected ${want}`);
  for (const v of tieGroupViolations(tieGroups(expected, set.header.tieEpsilon), actual, k)) {
    out.push(`${c.name} ${queryId}: rank ${v.rank} is ${v.hit.id}, expected one of ${v.group.map((h) => h.id).join(', ')}`);
  }
  return out;
}
