import fs from 'node:fs';
import { MemoryMatrixError } from '../errors';
import { evaluateFilter } from '../filter-lang/evaluate';
import { filterFields, filterOperators, filterToSurface } from '../filter-lang/describe';
import { parseFilter } from '../filter-lang/parse';
import type { FilterDocument } from '../filter-lang/types';
import type { GoldenDataset } from '../golden/types';
import { invalidAt } from '../golden/where';
import { ExactOracle } from '../oracle';
import { DERIVED_FILTER_KEYS, FILTER_DERIVATION, filterSetMetadata } from './derive';
import { type FilterCase, type FilterSet, filterShapes } from './file';

/** k of every recorded filtered top-k. */
export const FILTER_SET_K = 10;
/** How many golden queries the fixed query set has (`pickFilterQueries`). */
export const FILTER_SET_QUERY_COUNT = 4;

/** One hand-written case of a cases file (`readFilterCases`): its name, surface filter, note and 1-based line. */
export interface FilterCaseSource {
  name: string;
  filter: unknown;
  note?: string;
  line: number;
}

/**
 * Read a cases file: JSON Lines of `{ "name", "filter", "note"? }` (no other key). Throws
 * GOLDEN_MISSING (unreadable), GOLDEN_INVALID `<file>:<line>: …` (not JSON, not an object, a
 * missing or extra key, a name not `[a-z0-9][a-z0-9-]*`).
 */
export function readFilterCases(file: string): FilterCaseSource[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new MemoryMatrixError('GOLDEN_MISSING', `${file}: cannot read the filter cases: ${(e as Error).message}`, { cause: e });
  }
  const out: FilterCaseSource[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (e) {
      throw invalidAt(file, line, `not JSON: ${(e as Error).message}`, e);
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalidAt(file, line, 'expected an object { "name", "filter", "note"? }');
    const o = v as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => !['name', 'filter', 'note'].includes(k));
    if (extra.length) throw invalidAt(file, line, `unknown field ${extra.map((k) => `"${k}"`).join(', ')}`);
    if (typeof o.name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,79}$/.test(o.name)) throw invalidAt(file, line, `field "name": expected [a-z0-9][a-z0-9-]{0,79}, got ${JSON.stringify(o.name)}`);
    if (o.filter === undefined) throw invalidAt(file, line, `case "${o.name}": field "filter": missing`);
    if (o.note !== undefined && typeof o.note !== 'string') throw invalidAt(file, line, `case "${o.name}": field "note": expected a string`);
    out.push({ name: o.name, filter: o.filter, line, ...(typeof o.note === 'string' ? { note: o.note } : {}) });
  });
  return out;
}

/**
 * The fixed query set: the ids of the first `count` golden queries (file order) of purpose
 * `held-out` with no filter, threshold or `now` — sentences that are not stored, so no case's
 * top-k is decided by an exact self-match. Throws GOLDEN_INVALID when the dataset has fewer.
 */
export function pickFilterQueries(dataset: GoldenDataset, count = FILTER_SET_QUERY_COUNT): string[] {
  const ids = dataset.queries.filter((q) => q.purpose === 'held-out' && q.filter === undefined && q.minScore === undefined && q.now === undefined).map((q) => q.id);
  if (ids.length < count) throw new MemoryMatrixError('GOLDEN_INVALID', `${dataset.dir}: the filter set needs ${count} unfiltered held-out queries, the dataset has ${ids.length}`);
  return ids.slice(0, count);
}

/** The documents a filter set is evaluated against: each memory with `filterSetMetadata`. Throws GOLDEN_INVALID when a memory already holds a derived key. */
export function filterSetDocuments(dataset: GoldenDataset): FilterDocument[] {
  return dataset.memories.map((r) => {
    const clash = DERIVED_FILTER_KEYS.find((k) => Object.prototype.hasOwnProperty.call(r.metadata, k));
    if (clash !== undefined)
      throw new MemoryMatrixError('GOLDEN_INVALID', `${dataset.dir}: memory ${r.id} has metadata key "${clash}", which ${FILTER_DERIVATION} derives; rename it or change the derivation`);
    return { namespace: r.namespace, kind: r.kind, createdAt: r.createdAt, metadata: filterSetMetadata(r) };
  });
}

/**
 * Build a filter set: each case's filter is parsed (GOLDEN_INVALID `<casesFile>:<line>: …` naming
 * the path inside the filter), evaluated against every document (`filterSetDocuments`), and
 * REJECTED when it selects no memory or every memory (GOLDEN_INVALID naming the case: a vacuous
 * test); a repeated name is rejected too. Each case gets its selectivity and, for every query of
 * the fixed set, the oracle's exact filtered top-`k` with the boundary tie group (`ExactOracle.topK`
 * with `tieEpsilon`, the tie rule of every expectation). Cases keep the cases file's order. Pure
 * apart from the oracle's work: 5,111 memories × 90 cases × 4 queries take about a second.
 */
export function buildFilterSet(dataset: GoldenDataset, sources: readonly FilterCaseSource[], opts: { casesFile: string; k?: number; queries?: string[]; tieEpsilon: number }): FilterSet {
  const k = opts.k ?? FILTER_SET_K;
  const queries = opts.queries ?? pickFilterQueries(dataset);
  const docs = filterSetDocuments(dataset);
  const n = docs.length;
  const { dim, metric } = dataset.manifest;
  const oracle = new ExactOracle({
    ids: dataset.memories.map((r) => r.id),
    namespaces: docs.map((d) => d.namespace),
    kinds: dataset.memories.map((r) => r.kind),
    createdAt: dataset.memories.map((r) => r.createdAt),
    metadata: docs.map((d) => d.metadata),
    vectors: dataset.vectors,
    dim,
    metric,
  });
  const vectors = new Map(dataset.queries.map((q) => [q.id, q.vector]));
  for (const q of queries) if (!vectors.has(q)) throw new MemoryMatrixError('GOLDEN_INVALID', `${dataset.dir}: filter-set query ${q} is not a query of the dataset`);
  const seen = new Map<string, number>();
  const cases: FilterCase[] = [];
  for (const src of sources) {
    const prev = seen.get(src.name);
    if (prev !== undefined) throw invalidAt(opts.casesFile, src.line, `case "${src.name}" repeats the name of line ${prev}`);
    seen.set(src.name, src.line);
    let expr;
    try {
      expr = parseFilter(src.filter, `case "${src.name}": filter`);
    } catch (e) {
      throw invalidAt(opts.casesFile, src.line, (e as Error).message, e);
    }
    let matching = 0;
    for (const d of docs) if (evaluateFilter(expr, d)) matching++;
    if (matching === 0 || matching === n) {
      throw invalidAt(opts.casesFile, src.line, `case "${src.name}" matches ${matching === 0 ? 'no memory' : `every memory (${n})`}: a vacuous test; change its filter`);
    }
    const topk: FilterCase['topk'] = {};
    for (const q of queries) topk[q] = oracle.topK({ vector: vectors.get(q)!, k, filter: { where: expr } }, opts.tieEpsilon).hits;
    cases.push({
      name: src.name,
      ...(src.note === undefined ? {} : { note: src.note }),
      filter: filterToSurface(expr),
      expr,
      operators: filterOperators(expr),
      fields: filterFields(expr),
      shapes: filterShapes(expr),
      matching,
      selectivity: matching / n,
      topk,
    });
  }
  if (cases.length === 0) throw invalidAt(opts.casesFile, 1, 'no cases');
  const header = {
    kind: 'memory-matrix-filter-set',
    version: 1,
    dataset: dataset.manifest.name,
    datasetSha256: dataset.datasetSha256,
    derivation: FILTER_DERIVATION,
    metric,
    tieEpsilon: opts.tieEpsilon,
    k,
    rows: n,
    queries,
  } as const;
  return { header: { ...header, queries: [...queries] }, cases };
}
