import { MemoryMatrixError } from '../errors';
import type { RecallFilter } from '../types';
import { describeValue, parseFilter } from './parse';
import { FILTER_OPERATORS, type FilterExpr, type FilterOperator, type FilterScalar, fieldName, isFilterInstant } from './types';

/**
 * The canonical surface form of `expr` (the inverse of `parseFilter`: `parseFilter(filterToSurface(e))`
 * deep-equals `e`): every comparison explicit (`{ "metadata.x": { "$eq": 1 } }`), logic as
 * `$and` / `$or` / `$not` lists and objects, instants as `{ "$date": "<canonical UTC>" }`. What the
 * golden filter set stores and what messages and reports print. Throws INVALID_INPUT for a node
 * that is not part of the language (naming it).
 */
export function filterToSurface(expr: FilterExpr): Record<string, unknown> {
  if (typeof expr !== 'object' || expr === null) throw new MemoryMatrixError('INVALID_INPUT', `filter node must be an object, got ${describeValue(expr)}`);
  switch (expr.op) {
    case '$and':
    case '$or':
      if (!Array.isArray(expr.args)) throw new MemoryMatrixError('INVALID_INPUT', `filter node ${expr.op}: args must be a list`);
      return { [expr.op]: expr.args.map(filterToSurface) };
    case '$not':
      return { $not: filterToSurface(expr.arg) };
    case '$in':
    case '$nin':
      if (!Array.isArray(expr.values)) throw new MemoryMatrixError('INVALID_INPUT', `filter node ${expr.op}: values must be a list`);
      return { [name(expr)]: { [expr.op]: expr.values.map(surfaceValue) } };
    case '$exists':
      return { [name(expr)]: { $exists: expr.exists } };
    case '$eq':
    case '$ne':
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
    case '$contains':
      return { [name(expr)]: { [expr.op]: surfaceValue(expr.value) } };
    default:
      throw new MemoryMatrixError('INVALID_INPUT', `unknown filter node ${JSON.stringify((expr as { op?: unknown }).op)}`);
  }
}

function name(expr: { op: string; field?: unknown }): string {
  const f = expr.field as { root?: unknown; path?: unknown } | undefined;
  if (typeof f !== 'object' || f === null || typeof f.root !== 'string') throw new MemoryMatrixError('INVALID_INPUT', `filter node ${expr.op}: field must be { root, path? }`);
  if (f.root === 'metadata' && !(Array.isArray(f.path) && f.path.every((k) => typeof k === 'string')))
    throw new MemoryMatrixError('INVALID_INPUT', `filter node ${expr.op}: metadata field needs a path of strings`);
  return fieldName(f as Parameters<typeof fieldName>[0]);
}

function surfaceValue(v: FilterScalar): unknown {
  return isFilterInstant(v) ? { $date: v.$date } : v;
}

/**
 * Check a `FilterExpr` built in code (not by `parseFilter`) against the language's rules: the
 * same messages as the parser, on its surface form. Returns it unchanged; throws INVALID_INPUT
 * `<where>: <path>: …`.
 */
export function validateFilterExpr(expr: FilterExpr, where = 'filter'): FilterExpr {
  let surface: Record<string, unknown>;
  try {
    surface = filterToSurface(expr);
  } catch (e) {
    throw new MemoryMatrixError('INVALID_INPUT', `${where}: ${(e as Error).message}`, { cause: e });
  }
  parseFilter(surface, where);
  return expr;
}

/** The operators `expr` uses, in FILTER_OPERATORS order (an implicit AND of several keys counts as `$and`). */
export function filterOperators(expr: FilterExpr): FilterOperator[] {
  const seen = new Set<FilterOperator>();
  const walk = (e: FilterExpr): void => {
    seen.add(e.op);
    if (e.op === '$and' || e.op === '$or') e.args.forEach(walk);
    else if (e.op === '$not') walk(e.arg);
  };
  walk(expr);
  return FILTER_OPERATORS.filter((o) => seen.has(o));
}

/** The fields `expr` reads, as written (`namespace`, `createdAt`, `metadata.src.corpus`), sorted, each once. */
export function filterFields(expr: FilterExpr): string[] {
  const seen = new Set<string>();
  const walk = (e: FilterExpr): void => {
    if (e.op === '$and' || e.op === '$or') e.args.forEach(walk);
    else if (e.op === '$not') walk(e.arg);
    else seen.add(fieldName(e.field));
  };
  walk(expr);
  return [...seen].sort();
}

/**
 * The operators of `expr` that `declared` (capability `filterOperators`) lacks, in
 * FILTER_OPERATORS order; [] when the target can take the whole filter. A check sends a filter
 * with `where` only when this is empty, and otherwise reports the case as unsupported, naming them.
 */
export function unsupportedFilterOperators(expr: FilterExpr, declared: readonly FilterOperator[]): FilterOperator[] {
  return filterOperators(expr).filter((o) => !declared.includes(o));
}

/**
 * The whole of a `RecallFilter` as one AST, for a native compiler that compiles every part the
 * same way: `namespaces` → `namespace $in`, `kinds` → `kind $in`, each `metadata` key →
 * `metadata.<key> $eq` (one key level: the old shape has flat keys, so a key with a dot is one
 * segment), `where` as it is; ANDed in that order. `undefined` when the filter restricts nothing.
 * Same meaning as `matchesFilter` for every record.
 */
export function recallFilterExpr(filter: RecallFilter | undefined): FilterExpr | undefined {
  if (filter === undefined) return undefined;
  const parts: FilterExpr[] = [];
  if (filter.namespaces !== undefined) parts.push({ op: '$in', field: { root: 'namespace' }, values: [...filter.namespaces] });
  if (filter.kinds !== undefined) parts.push({ op: '$in', field: { root: 'kind' }, values: [...filter.kinds] });
  for (const [key, value] of Object.entries(filter.metadata ?? {})) parts.push({ op: '$eq', field: { root: 'metadata', path: [key] }, value });
  if (filter.where !== undefined) parts.push(filter.where);
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0]! : { op: '$and', args: parts };
}
