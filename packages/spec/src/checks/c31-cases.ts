import fs from 'node:fs';
import path from 'node:path';
import type { Capabilities } from '../capabilities';
import { MemoryMatrixError } from '../errors';
import type { Figure, FigureTable } from '../figures';
import { FILTER_OPERATORS, type FilterJson, type FilterOperator } from '../filter-lang/types';
import { filterSetDocuments } from '../filter-set/build';
import { DERIVED_FILTER_KEYS, FILTER_DERIVATION } from '../filter-set/derive';
import { type FilterCase, type FilterSet, type FilterShape, loadFilterSet } from '../filter-set/file';
import type { GoldenDataset } from '../golden/types';
import type { MemoryRecord, MetadataValue } from '../types';

/** The golden filter set of a dataset: `<dataset dir>/../filters/<manifest name>.jsonl` (golden-data/FORMAT.md "Filter sets"). */
export function filterSetPath(dataset: GoldenDataset): string {
  return path.join(path.dirname(dataset.dir), 'filters', `${dataset.manifest.name}.jsonl`);
}

/**
 * The dataset's filter set, or null when it has none (`filterSetPath` does not exist). Throws
 * GOLDEN_INVALID (as `loadFilterSet`, or naming the file when its header is for another dataset
 * fingerprint, derivation or metric: a stale set, rebuild it with build-filter-set.ts).
 */
export function datasetFilterSet(dataset: GoldenDataset): FilterSet | null {
  const file = filterSetPath(dataset);
  if (!fs.existsSync(file)) return null;
  const set = loadFilterSet(file);
  const h = set.header;
  const stale = (what: string, got: unknown, want: unknown) =>
    new MemoryMatrixError(
      'GOLDEN_INVALID',
      `${file}:1: the filter set's ${what} is ${JSON.stringify(got)} but the dataset's is ${JSON.stringify(want)}; rebuild it (packages/spec/scripts/build-filter-set.ts)`,
    );
  if (h.dataset !== dataset.manifest.name) throw stale('dataset', h.dataset, dataset.manifest.name);
  if (h.datasetSha256 !== dataset.datasetSha256) throw stale('datasetSha256', h.datasetSha256, dataset.datasetSha256);
  if (h.derivation !== FILTER_DERIVATION) throw stale('derivation', h.derivation, FILTER_DERIVATION);
  if (h.metric !== dataset.manifest.metric) throw stale('metric', h.metric, dataset.manifest.metric);
  if (h.rows !== dataset.memories.length) throw stale('rows', h.rows, dataset.memories.length);
  return set;
}

/** The shapes a metadata value needs beyond flat scalars: `array` for an array, `nested` for an object (and those of what it holds). */
function shapesOf(v: FilterJson): Set<FilterShape> {
  const out = new Set<FilterShape>();
  const walk = (x: FilterJson): void => {
    if (Array.isArray(x)) {
      out.add('array');
      x.forEach(walk);
    } else if (typeof x === 'object' && x !== null) {
      out.add('nested');
      Object.values(x).forEach(walk);
    }
  };
  walk(v);
  return out;
}

/**
 * What C31 loads and runs on a target: the dataset's memories, each with the derived metadata
 * keys of `filter-fields-v1` whose values the target can store (flat scalars always; a key whose
 * value needs a shape, in ANY memory, only when capability `metadataShapes` declares it), and the
 * split of the cases into `runnable` and `unsupported` (with the reason): a case is unsupported
 * when it uses an operator outside `filterOperators`, needs a shape outside `metadataShapes`, or
 * reads a derived key that was not loaded.
 */
export interface C31Plan {
  records: MemoryRecord[];
  /** The derived keys loaded / left out (with the shapes that kept them out). */
  loadedKeys: string[];
  leftOutKeys: Array<{ key: string; shapes: FilterShape[] }>;
  runnable: FilterCase[];
  unsupported: Array<{ c: FilterCase; reason: string }>;
}

/** Plan C31 for `caps` (see `C31Plan`). Pure. Throws GOLDEN_INVALID when a memory already holds a derived key (`filterSetDocuments`). */
export function planC31(dataset: GoldenDataset, set: FilterSet, caps: Capabilities): C31Plan {
  const docs = filterSetDocuments(dataset);
  const storable = new Set<FilterShape>(caps.metadataShapes);
  const needs = new Map<string, Set<FilterShape>>(DERIVED_FILTER_KEYS.map((k) => [k, new Set<FilterShape>()]));
  for (const d of docs) for (const k of DERIVED_FILTER_KEYS) if (Object.prototype.hasOwnProperty.call(d.metadata, k)) shapesOf(d.metadata[k]!).forEach((s) => needs.get(k)!.add(s));
  const leftOutKeys = DERIVED_FILTER_KEYS.map((key) => ({ key, shapes: [...needs.get(key)!].filter((s) => !storable.has(s)) })).filter((k) => k.shapes.length > 0);
  const leftOut = new Set<string>(leftOutKeys.map((k) => k.key));
  const loadedKeys = DERIVED_FILTER_KEYS.filter((k) => !leftOut.has(k));
  const records = dataset.memories.map((r, i) => {
    const metadata: Record<string, FilterJson> = { ...r.metadata };
    for (const k of loadedKeys) if (Object.prototype.hasOwnProperty.call(docs[i]!.metadata, k)) metadata[k] = docs[i]!.metadata[k]!;
    return { ...r, metadata: metadata as Record<string, MetadataValue> };
  });
  const declared = new Set<FilterOperator>(caps.filterOperators);
  const runnable: FilterCase[] = [];
  const unsupported: C31Plan['unsupported'] = [];
  for (const c of set.cases) {
    const why: string[] = [];
    const ops = c.operators.filter((o) => !declared.has(o));
    if (ops.length) why.push(`operators ${ops.join(', ')} not in filterOperators`);
    const shapes = c.shapes.filter((s) => !storable.has(s));
    if (shapes.length) why.push(`shapes ${shapes.join(', ')} not in metadataShapes`);
    const keys = c.fields.filter((f) => leftOut.has(f.split('.')[1] ?? '')).map((f) => f.split('.')[1]!);
    if (keys.length)
      why.push(
        `reads ${[...new Set(keys)].map((k) => `metadata.${k}`).join(', ')}, not loaded (${[...new Set(keys)].map((k) => leftOutKeys.find((x) => x.key === k)!.shapes.join('+')).join(', ')} values)`,
      );
    if (why.length) unsupported.push({ c, reason: why.join('; ') });
    else runnable.push(c);
  }
  return { records, loadedKeys, leftOutKeys, runnable, unsupported };
}

/** One operator's verdict in a cell: `fail` when a case using it failed, else `pass` when one ran, else `unsupported`. */
export type OperatorStatus = 'pass' | 'fail' | 'unsupported';

/** The title of C31's operator table (the runner's report reads it by this title). */
export const OPERATOR_TABLE_TITLE = 'filter operators';

/**
 * The operator table: one row per operator of `FILTER_OPERATORS` that any case uses, with its
 * status and the number of cases using it that passed, failed and were unsupported. A case counts
 * for EVERY operator it uses (`FilterCase.operators`, `$and` / `$or` / `$not` included), so an
 * operator fails when any case that uses it fails (the table says where to look; the failures
 * say which operator of the case is wrong).
 */
export function operatorTable(verdicts: ReadonlyArray<{ c: FilterCase; status: 'pass' | 'fail' | 'unsupported' }>): FigureTable {
  const rows: Figure[][] = [];
  for (const op of FILTER_OPERATORS) {
    const mine = verdicts.filter((v) => v.c.operators.includes(op));
    if (mine.length === 0) continue;
    const n = (s: string) => mine.filter((v) => v.status === s).length;
    const status: OperatorStatus = n('fail') > 0 ? 'fail' : n('pass') > 0 ? 'pass' : 'unsupported';
    rows.push([op, status, n('pass'), n('fail'), n('unsupported')]);
  }
  return { title: OPERATOR_TABLE_TITLE, columns: ['operator', 'status', 'pass', 'fail', 'unsupported'], rows };
}
