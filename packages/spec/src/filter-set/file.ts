import fs from 'node:fs';
import { z } from 'zod';
import { MemoryMatrixError } from '../errors';
import { filterFields, filterOperators } from '../filter-lang/describe';
import { parseFilter } from '../filter-lang/parse';
import { FILTER_OPERATORS, type FilterExpr, type FilterOperator } from '../filter-lang/types';
import { invalidAt, zodMessage } from '../golden/where';
import type { RecallHit } from '../types';

/**
 * A golden filter set (golden-data/FORMAT.md "Filter sets"): JSON Lines, a header line, then one
 * case per line, each with its exact expectation over one golden dataset.
 */
export interface FilterSetHeader {
  kind: 'memory-matrix-filter-set';
  version: 1;
  /** The dataset's manifest name and `datasetSha256`: the data the expectations were computed on. */
  dataset: string;
  datasetSha256: string;
  /** `FILTER_DERIVATION` of derive.ts: the metadata keys added to every memory before filtering. */
  derivation: string;
  metric: 'cosine' | 'ip' | 'l2';
  /** The tie epsilon at unit magnitude the top-k boundary tie groups were computed with (oracle.ts `topK`). */
  tieEpsilon: number;
  /** k of every recorded top-k. */
  k: number;
  /** Number of memories of the dataset (the denominator of each case's selectivity). */
  rows: number;
  /** The fixed query set: ids of golden queries whose vectors every case is recalled with. */
  queries: string[];
}

/**
 * One case: `name` unique `[a-z0-9][a-z0-9-]*`; `filter` the surface syntax (canonical form,
 * describe.ts `filterToSurface`) and `expr` its parsed AST; `operators` and `fields` it uses;
 * `shapes` the metadata shapes it reads beyond flat scalars (`nested`, `array`); `matching` the
 * number of memories it selects (1..rows−1, never vacuous) and `selectivity` = matching / rows;
 * `topk` per query id the oracle's exact filtered top-k (with the boundary tie group, oracle.ts).
 */
export interface FilterCase {
  name: string;
  note?: string;
  filter: Record<string, unknown>;
  expr: FilterExpr;
  operators: FilterOperator[];
  fields: string[];
  shapes: FilterShape[];
  matching: number;
  selectivity: number;
  topk: Record<string, RecallHit[]>;
}

export type FilterShape = 'nested' | 'array';

export interface FilterSet {
  header: FilterSetHeader;
  cases: FilterCase[];
}

const NAME = /^[a-z0-9][a-z0-9-]{0,79}$/;

const headerSchema = z
  .object({
    kind: z.literal('memory-matrix-filter-set'),
    version: z.literal(1),
    dataset: z.string().min(1),
    datasetSha256: z.string().regex(/^[0-9a-f]{64}$/),
    derivation: z.string().min(1),
    metric: z.enum(['cosine', 'ip', 'l2']),
    tieEpsilon: z.number().min(0),
    k: z.number().int().min(1).max(1000),
    rows: z.number().int().min(2),
    queries: z.array(z.string().min(1)).min(1),
  })
  .strict();

const caseSchema = z
  .object({
    name: z.string().regex(NAME, 'must match [a-z0-9][a-z0-9-]{0,79}'),
    note: z.string().optional(),
    filter: z.record(z.unknown()),
    operators: z.array(z.enum(FILTER_OPERATORS)),
    fields: z.array(z.string()),
    shapes: z.array(z.enum(['nested', 'array'])),
    matching: z.number().int().min(1),
    selectivity: z.number().gt(0).lt(1),
    topk: z.record(z.array(z.tuple([z.string().min(1), z.number()]))),
  })
  .strict();

/** The shapes a filter reads: `nested` for a metadata path of 2+ keys, `array` for `$contains`. */
export function filterShapes(expr: FilterExpr): FilterShape[] {
  const out = new Set<FilterShape>();
  const walk = (e: FilterExpr): void => {
    if (e.op === '$and' || e.op === '$or') e.args.forEach(walk);
    else if (e.op === '$not') walk(e.arg);
    else {
      if (e.field.root === 'metadata' && e.field.path.length > 1) out.add('nested');
      if (e.op === '$contains') out.add('array');
    }
  };
  walk(expr);
  return (['nested', 'array'] as const).filter((s) => out.has(s));
}

/** The file's text: header, then one case per line, keys in the order of `FilterCase` (without `expr`), `\n` after each line. */
export function serializeFilterSet(set: FilterSet): string {
  const lines = [JSON.stringify(set.header)];
  for (const c of set.cases) {
    const topk: Record<string, Array<[string, number]>> = {};
    for (const q of set.header.queries) topk[q] = (c.topk[q] ?? []).map((h) => [h.id, h.score]);
    const { name, note, filter, operators, fields, shapes, matching, selectivity } = c;
    lines.push(JSON.stringify({ name, ...(note === undefined ? {} : { note }), filter, operators, fields, shapes, matching, selectivity, topk }));
  }
  return lines.join('\n') + '\n';
}

/**
 * Parse a filter-set file's `text` (`file` names it in errors). Every line is checked: JSON, the
 * schema, a valid filter (parsed again, so the language's rules apply), `operators` / `fields` /
 * `shapes` equal to what the filter uses, `selectivity` = matching / rows, a top-k for every query
 * of the header, unique names. Throws GOLDEN_INVALID `<file>:<line>: …` (the runner exits 2).
 */
export function parseFilterSet(text: string, file: string): FilterSet {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw invalidAt(file, 1, 'empty file: expected a filter-set header line');
  const json = (i: number): unknown => {
    if (lines[i]!.trim() === '') throw invalidAt(file, i + 1, 'blank line');
    try {
      return JSON.parse(lines[i]!);
    } catch (e) {
      throw invalidAt(file, i + 1, `not JSON: ${(e as Error).message}`, e);
    }
  };
  const h = headerSchema.safeParse(json(0));
  if (!h.success) throw invalidAt(file, 1, `header: ${zodMessage(h.error)}`);
  const header = h.data as FilterSetHeader;
  const names = new Map<string, number>();
  const cases: FilterCase[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1;
    const r = caseSchema.safeParse(json(i));
    if (!r.success) throw invalidAt(file, line, zodMessage(r.error));
    const c = r.data;
    const prev = names.get(c.name);
    if (prev !== undefined) throw invalidAt(file, line, `case "${c.name}" repeats the name of line ${prev}`);
    names.set(c.name, line);
    let expr: FilterExpr;
    try {
      expr = parseFilter(c.filter, `case "${c.name}": filter`);
    } catch (e) {
      throw invalidAt(file, line, (e as Error).message, e);
    }
    const derived = { operators: filterOperators(expr), fields: filterFields(expr), shapes: filterShapes(expr) };
    for (const key of ['operators', 'fields', 'shapes'] as const) {
      if (JSON.stringify(c[key]) !== JSON.stringify(derived[key]))
        throw invalidAt(file, line, `case "${c.name}": field "${key}" is ${JSON.stringify(c[key])} but the filter uses ${JSON.stringify(derived[key])}`);
    }
    if (c.matching >= header.rows) throw invalidAt(file, line, `case "${c.name}": matching ${c.matching} is every row (${header.rows}): a vacuous case`);
    if (c.selectivity !== c.matching / header.rows) throw invalidAt(file, line, `case "${c.name}": selectivity ${c.selectivity} ≠ matching / rows = ${c.matching / header.rows}`);
    const extra = Object.keys(c.topk).filter((q) => !header.queries.includes(q));
    const missing = header.queries.filter((q) => !Object.prototype.hasOwnProperty.call(c.topk, q));
    if (extra.length || missing.length)
      throw invalidAt(file, line, `case "${c.name}": topk must have exactly the header's queries (missing ${JSON.stringify(missing)}, unknown ${JSON.stringify(extra)})`);
    for (const q of header.queries) {
      const problem = topkProblem(c.topk[q]!, Math.min(header.k, c.matching), c.matching, header.tieEpsilon);
      if (problem) throw invalidAt(file, line, `case "${c.name}": topk.${q}: ${problem}`);
    }
    const topk: Record<string, RecallHit[]> = {};
    for (const q of header.queries) topk[q] = c.topk[q]!.map(([id, score]) => ({ id, score }));
    cases.push({ ...c, note: c.note, expr, operators: derived.operators, fields: derived.fields, shapes: derived.shapes, topk });
  }
  if (cases.length === 0) throw invalidAt(file, 1, 'no cases after the header');
  return { header, cases };
}

/** Read and parse a filter-set file (`parseFilterSet`). Throws GOLDEN_MISSING when it does not exist, GOLDEN_INVALID as `parseFilterSet`. */
export function loadFilterSet(file: string): FilterSet {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new MemoryMatrixError('GOLDEN_MISSING', `${file}: cannot read the filter set: ${(e as Error).message}`, { cause: e });
  }
  return parseFilterSet(text, file);
}

/**
 * What is wrong with one recorded filtered top-k (`[id, score]` pairs, best first), or null: it
 * holds `want` = min(k, matching) hits, more only for the tie group at rank `want` (each extra
 * within 4 × `tieEpsilon` of the score at rank `want`: the pair tolerance of tolerance.ts for
 * unit-norm vectors, with margin) and never more than `matching`; no id twice. An expectation
 * cut short, padded or recorded for another k would make C31 judge against the wrong ids.
 */
function topkProblem(hits: ReadonlyArray<readonly [string, number]>, want: number, matching: number, tieEpsilon: number): string | null {
  if (hits.length < want) return `${hits.length} hits, expected min(k, matching) = ${want}`;
  if (hits.length > matching) return `${hits.length} hits, more than the ${matching} matching memories`;
  const boundary = want > 0 ? hits[want - 1]![1] : Number.NaN;
  const past = hits.slice(want).findIndex(([, score]) => !(Math.abs(score - boundary) <= 4 * tieEpsilon));
  if (past >= 0) return `hit ${want + past + 1} (${hits[want + past]![0]}) is past min(k, matching) = ${want} and not in the tie group at rank ${want}`;
  const seen = new Set<string>();
  for (const [id] of hits) {
    if (seen.has(id)) return `id ${id} is listed twice`;
    seen.add(id);
  }
  return null;
}
