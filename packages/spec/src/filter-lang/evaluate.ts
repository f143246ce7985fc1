import { MemoryMatrixError } from '../errors';
import { parseInstant } from '../time';
import { type FilterDocument, type FilterExpr, type FilterField, type FilterJson, type FilterScalar, isFilterInstant } from './types';

/**
 * The reference semantics of the filter language, implemented once (docs/filters.md has the
 * table, with the source of each choice and where backends differ). `matchesFilter` (filter.ts)
 * and so the oracle's filtered top-k use it. Two-valued and type-strict:
 * - a value is one of: missing, null, boolean, number, string, array, object — `0`, `false`, `""`,
 *   `null` and a missing key are five different things and equal only themselves;
 * - `$eq v`: the key is present and holds a value of v's JSON type equal to v (numbers by `===`,
 *   so NaN equals nothing, −0 equals 0); an array or object never equals a scalar;
 * - `$ne v` is exactly `$not $eq v`: it MATCHES a missing key (MongoDB `$ne`; SQL's `<>` does not);
 * - `$in` is `$eq` with any listed value, `$nin` is `$not $in` (matches a missing key);
 * - ranges: only a number with a number, an instant with an instant (type bracketing as MongoDB):
 *   a number range never matches a string, boolean, null, array or a missing key; NaN matches no range;
 * - instants: `createdAt` is compared by its UTC instant (epoch ms, then microseconds);
 * - `$exists: true` a present key (null included), `false` an absent one;
 * - `$contains v`: the value is an array with an element `$eq` v; a scalar never contains anything;
 * - `$not` negates (a missing key makes `$gt` false, so `$not $gt` true); `$and` / `$or` as usual.
 * Pure. Throws INVALID_INPUT only when the filter reads `createdAt` of a document that has none
 * (never a silent false), or for a node it does not know.
 */
export function evaluateFilter(expr: FilterExpr, doc: FilterDocument): boolean {
  switch (expr.op) {
    case '$and':
      return expr.args.every((e) => evaluateFilter(e, doc));
    case '$or':
      return expr.args.some((e) => evaluateFilter(e, doc));
    case '$not':
      return !evaluateFilter(expr.arg, doc);
    case '$eq':
      return equalsAt(expr.field, expr.value, doc);
    case '$ne':
      return !equalsAt(expr.field, expr.value, doc);
    case '$in':
      return expr.values.some((v) => equalsAt(expr.field, v, doc));
    case '$nin':
      return !expr.values.some((v) => equalsAt(expr.field, v, doc));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const c = compareAt(expr.field, expr.value, doc);
      if (c === null) return false;
      return expr.op === '$gt' ? c > 0 : expr.op === '$gte' ? c >= 0 : expr.op === '$lt' ? c < 0 : c <= 0;
    }
    case '$exists':
      return (lookup(expr.field, doc) !== MISSING) === expr.exists;
    case '$contains': {
      const v = lookup(expr.field, doc);
      return Array.isArray(v) && v.some((e) => scalarEquals(e, expr.value));
    }
    default:
      throw new MemoryMatrixError('INVALID_INPUT', `evaluateFilter: unknown filter node ${JSON.stringify((expr as { op?: unknown }).op)}`);
  }
}

/** The marker of a missing value (a key absent at some level of the path). */
const MISSING: unique symbol = Symbol('missing');
type Looked = FilterJson | typeof MISSING;

/**
 * The value of `field` in `doc`, or MISSING. A metadata path steps through plain objects by OWN
 * keys only (`toString`, `constructor` are missing, never the prototype's); a step into a scalar,
 * null or an array is missing.
 */
function lookup(field: FilterField, doc: FilterDocument): Looked {
  if (field.root === 'namespace') return doc.namespace;
  if (field.root === 'kind') return doc.kind;
  if (field.root === 'createdAt') {
    if (doc.createdAt === undefined) throw new MemoryMatrixError('INVALID_INPUT', 'evaluateFilter: the filter reads createdAt but the record given has none');
    return doc.createdAt;
  }
  let cur: FilterJson | Readonly<Record<string, FilterJson>> = doc.metadata;
  for (const key of field.path) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !Object.prototype.hasOwnProperty.call(cur, key)) return MISSING;
    cur = (cur as Record<string, FilterJson>)[key]!;
  }
  return cur as FilterJson;
}

/** Strict equality of a stored JSON value and a scalar operand: same type, same value; arrays and objects equal no scalar. */
function scalarEquals(v: FilterJson, operand: FilterScalar): boolean {
  if (typeof operand === 'object' && operand !== null) return false; // an instant equals no metadata value
  if (typeof v === 'object' && v !== null) return false;
  return v === operand;
}

function equalsAt(field: FilterField, operand: FilterScalar, doc: FilterDocument): boolean {
  const v = lookup(field, doc);
  if (v === MISSING) return false;
  if (field.root === 'createdAt') return isFilterInstant(operand) && compareInstant(v as string, operand) === 0;
  return scalarEquals(v, operand);
}

/** Sign of (value − operand) when both are numbers or both instants; null when not comparable (other type, missing, NaN). */
function compareAt(field: FilterField, operand: number | { ms: number; us: number }, doc: FilterDocument): number | null {
  const v = lookup(field, doc);
  if (v === MISSING) return null;
  if (field.root === 'createdAt') return isFilterInstant(operand) ? compareInstant(v as string, operand) : null;
  if (typeof operand !== 'number' || typeof v !== 'number' || Number.isNaN(v)) return null;
  return v < operand ? -1 : v > operand ? 1 : 0;
}

const instantCache = new Map<string, { ms: number; us: number }>();

/** Sign of (createdAt − operand) in UTC: epoch milliseconds, then microseconds. */
function compareInstant(createdAt: string, operand: { ms: number; us: number }): number {
  let t = instantCache.get(createdAt);
  if (t === undefined) {
    t = parseInstant(createdAt, 'evaluateFilter: record createdAt');
    if (instantCache.size > 100_000) instantCache.clear();
    instantCache.set(createdAt, t);
  }
  if (t.ms !== operand.ms) return t.ms < operand.ms ? -1 : 1;
  return t.us < operand.us ? -1 : t.us > operand.us ? 1 : 0;
}
