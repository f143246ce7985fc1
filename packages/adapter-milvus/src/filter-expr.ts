import {
  foldNegationNormalForm,
  isFilterInstant,
  MemoryMatrixError,
  recallFilterExpr,
  type FilterExpr,
  type FilterField,
  type FilterOperator,
  type FilterScalar,
  type Metadata,
  type RecallFilter,
} from '@memory-matrix/spec';
import { jsonPath, quoteString } from './expr';
import { FIELD } from './schema';

// The filter language (docs/filters.md) compiled to a Milvus boolean expression, as
// kylin-ai-vector-engine 1.2 (milvus@lite-1.2) evaluates it (measured, README "Filters"):
// - JSON `==`, `in` are type-strict (`0` ≠ `false` ≠ `""` ≠ `"0"`); a number literal compares
//   by value with a stored integer or double (`7.0` matches a stored 7, `> 2` a stored 2.5);
// - `!=` and `not in` match a row whose JSON value is missing: the reference's `$ne` / `$nin`;
// - ranges match numbers only (never a string, boolean or a missing key);
// - NO `not (…)` ("unsupported expr proto node"), NO `is null`, NO `exists`: negation is pushed
//   to the leaves (De Morgan), each leaf its exact complement, using the type tags this adapter
//   stores per metadata key (`meta_types`, TYPE_TAGS): null is the tag `z`, `$exists` is "the key
//   has a tag", a negated range is "the tag is not `n`, or the complementary range";
// - an `in` list holds one literal type (a mixed list asserts in the server: "value_proto.val_case()
//   == kInt64Val") and may not be empty (asserts "Cannot find field"): lists are split per type
//   (strings, booleans, numbers written as doubles) and constants are folded away;
// - `createdAt` is compared on two Int64 fields, epoch milliseconds and the 0..999 microseconds
//   after them (Milvus has no instant type; epoch µs would not fit a double for years before 1685).

/** The operators `compileFilter` pushes down (capability `filterOperators`): all but `$contains` (the adapter stores flat scalar metadata, no arrays). */
export const MILVUS_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$and', '$or', '$not'];

/** The type tag `meta_types[key]` holds for a metadata value (flat scalars only: the adapter declares no metadataShapes). */
export const TYPE_TAGS = { string: 's', number: 'n', boolean: 'b', null: 'z' } as const;

/** `{ key: tag }` for every metadata key (TYPE_TAGS), what the `meta_types` field stores. */
export function typeTags(metadata: Metadata): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata)) out[k] = v === null ? TYPE_TAGS.null : TYPE_TAGS[typeof v as 'string' | 'number' | 'boolean'];
  return out;
}

/** A compiled part: an expression, or a constant (folded away before anything reaches the server). */
type Part = string | boolean;

/**
 * `expr` as a Milvus boolean expression, or `true` (every row: send no filter) / `false` (no row:
 * do not ask). Meaning is the reference's (docs/filters.md) for every row this adapter wrote
 * (fields: schema.ts FIELD). Per leaf, `neg` meaning it sits under an odd number of `$not`:
 * - metadata `$eq` / `$in`: `metadata["k"] == lit` / `in [...]` per operand type, null as
 *   `meta_types["k"] == "z"`; `$ne` / `$nin` the complements `!=` / `not in` (they match a missing key);
 * - metadata ranges: `metadata["k"] > v`; complement `meta_types["k"] != "n" or metadata["k"] <= v`;
 * - `$exists`: `meta_types["k"] in [tags]` / `not in [tags]`; namespace, kind, createdAt always exist;
 * - namespace / kind: string operands on their VarChar fields; createdAt: instant operands on
 *   `created_ms` / `created_us`; an operand of another type matches nothing (its complement everything);
 * - a metadata path of two or more keys is missing (metadata is flat).
 * Values go through quoteString (INVALID_INPUT for LF / CR), keys through jsonPath (INVALID_INPUT
 * for a control character). Throws CAPABILITY_MISSING for `$contains`. Pure.
 */
export function compileFilter(expr: FilterExpr): Part {
  // `neg`: the leaf is under an odd number of $not, compiled as its exact complement (spec foldNegationNormalForm)
  return foldNegationNormalForm<Part>(expr, {
    and,
    or,
    leaf: (e, neg) => {
      switch (e.op) {
        case '$eq':
        case '$in':
          return anyOf(e.field, 'values' in e ? e.values : [e.value], neg);
        case '$ne':
        case '$nin':
          return anyOf(e.field, 'values' in e ? e.values : [e.value], !neg);
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          return range(e.field, neg ? COMPLEMENT[e.op] : e.op, e.value, neg);
        case '$exists': {
          const want = e.exists !== neg;
          if (e.field.root !== 'metadata') return want;
          if (e.field.path.length !== 1) return !want;
          return `${jsonPath(FIELD.metaTypes, e.field.path[0]!)} ${want ? 'in' : 'not in'} ${list(Object.values(TYPE_TAGS).map((t) => quoteString(t)))}`;
        }
        default:
          throw new MemoryMatrixError('CAPABILITY_MISSING', `milvus: filter: ${String((e as { op?: unknown }).op)} is not pushed down (the adapter stores no arrays; capability filterOperators)`);
      }
    },
  });
}

/**
 * The expression of a whole recall filter (`recallFilterExpr`: namespaces, kinds, metadata and
 * `where` ANDed): `''` for no condition, `null` when it matches nothing (the caller answers [] / 0
 * without asking the server). Throws as compileFilter.
 */
export function filterExpr(filter: RecallFilter | undefined): string | null {
  const expr = recallFilterExpr(filter);
  if (expr === undefined) return '';
  const p = compileFilter(expr);
  return p === true ? '' : p === false ? null : p;
}

const COMPLEMENT = { $gt: '$lte', $gte: '$lt', $lt: '$gte', $lte: '$gt' } as const;
const SYMBOL = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/** `field` equals one of `values` (type-strict), or with `neg` none of them. */
function anyOf(field: FilterField, values: readonly FilterScalar[], neg: boolean): Part {
  const [eq, inOp, combine] = neg ? (['!=', 'not in', and] as const) : (['==', 'in', or] as const);
  const test = (sel: string, lits: string[]): Part => (lits.length === 0 ? neg : lits.length === 1 ? `${sel} ${eq} ${lits[0]}` : `${sel} ${inOp} ${list(lits)}`);
  const uniq = (xs: string[]) => [...new Set(xs)];
  if (field.root === 'namespace' || field.root === 'kind') {
    return test(field.root === 'namespace' ? FIELD.namespace : FIELD.kind, uniq(values.filter((v): v is string => typeof v === 'string').map((v) => quoteString(v))));
  }
  if (field.root === 'createdAt') {
    const parts = values
      .filter(isFilterInstant)
      .map((v) => (neg ? `(${FIELD.createdMs} != ${v.ms}) or (${FIELD.createdUs} != ${v.us})` : `(${FIELD.createdMs} == ${v.ms}) and (${FIELD.createdUs} == ${v.us})`));
    return combine(parts);
  }
  if (field.path.length !== 1) return neg; // a nested path is missing: equal to nothing
  const key = field.path[0]!;
  const m = jsonPath(FIELD.metadata, key);
  const of = <T>(pred: (v: FilterScalar) => v is T & FilterScalar, lit: (v: T) => string) => test(m, uniq(values.filter(pred).map(lit)));
  const nulls = values.includes(null) ? `${jsonPath(FIELD.metaTypes, key)} ${eq} ${quoteString(TYPE_TAGS.null)}` : neg;
  return combine([
    of(
      (v): v is string => typeof v === 'string',
      (v) => quoteString(v),
    ),
    of(
      (v): v is boolean => typeof v === 'boolean',
      (v) => String(v),
    ),
    of((v): v is number => typeof v === 'number', numberLiteral),
    nulls,
  ]);
}

/** `field op value` (ranges compare numbers with numbers, instants with instants); with `neg`, `op` is already the complementary operator and the part adds "not a number here". */
function range(field: FilterField, op: keyof typeof SYMBOL, value: FilterScalar, neg: boolean): Part {
  const sym = SYMBOL[op];
  if (field.root === 'createdAt') {
    if (!isFilterInstant(value)) return neg;
    const outer = op === '$gt' || op === '$gte' ? '>' : '<';
    return `(${FIELD.createdMs} ${outer} ${value.ms}) or ((${FIELD.createdMs} == ${value.ms}) and (${FIELD.createdUs} ${sym} ${value.us}))`;
  }
  if (field.root !== 'metadata' || typeof value !== 'number' || field.path.length !== 1) return neg;
  const cmp = `${jsonPath(FIELD.metadata, field.path[0]!)} ${sym} ${numberLiteral(value)}`;
  return neg ? or([`${jsonPath(FIELD.metaTypes, field.path[0]!)} != ${quoteString(TYPE_TAGS.number)}`, cmp]) : cmp;
}

/**
 * A finite number as a Milvus double literal: JS's shortest round-trip spelling, with `.0` added
 * to an integer (`7` → `7.0`, `1e+21` stays): measured, a double literal matches a stored integer
 * or double by value, and one `in` list must hold one literal type, so every number is a double.
 */
export function numberLiteral(n: number): string {
  if (!Number.isFinite(n)) throw new MemoryMatrixError('INVALID_INPUT', `milvus: filter number ${n} is not finite`);
  const s = String(n === 0 ? 0 : n);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

const list = (lits: readonly string[]) => `[${lits.join(', ')}]`;

/** AND of parts with constants folded. */
function and(parts: readonly Part[]): Part {
  if (parts.includes(false)) return false;
  const kept = parts.filter((p): p is string => typeof p === 'string');
  if (kept.length === 0) return true;
  return kept.length === 1 ? kept[0]! : kept.map((p) => `(${p})`).join(' and ');
}

/** OR of parts with constants folded. */
function or(parts: readonly Part[]): Part {
  if (parts.includes(true)) return true;
  const kept = parts.filter((p): p is string => typeof p === 'string');
  if (kept.length === 0) return false;
  return kept.length === 1 ? kept[0]! : kept.map((p) => `(${p})`).join(' or ');
}
