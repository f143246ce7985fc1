import { foldNegationNormalForm, MemoryMatrixError, isFilterInstant, type FilterExpr, type FilterField, type FilterOperator, type FilterScalar } from '@memory-matrix/spec';

// The filter language (docs/filters.md) compiled to Chroma's `where`, as Chroma 1.0.0 and 1.4.4
// evaluate it (measured with scripts/where-probe.ts, README "Filters"):
// - type-strict between string, boolean and number (`0` ≠ `false` ≠ `"0"`); ranges take numbers
//   only and never match a string or boolean; `$ne` / `$nin` match a record without the key;
// - NO `$exists`, NO `$not` (refused: "Expected operator to be one of $gt, …, $not_contains"),
//   `$in` / `$nin` need a non-empty list of one type, `$and` / `$or` two or more clauses, one
//   operator per clause;
// - a non-integer operand v is compared with an integer-typed stored value as trunc(v) (the
//   server casts it): `$eq 1.5` matches a stored 1, `$gte 1.5` a stored 1, `$lt 1.5` misses a
//   stored 1. Integer operands are exact against both. The compiler adds integer-operand clauses
//   that take the spurious integer out and put the right ones back (`guarded`, below).
// Chroma 1.4.4 also stores arrays and answers `$contains` on them; 1.0.0 refuses array values.
// `$exists` and `$not` need "the key holds no number", which no Chroma operator says: this adapter
// stores a type tag per metadata key (`t.<key>` = s / b / n / z) and compiles them on it; a layout
// without tags (langchain-chroma) does not get them. `$contains` is not pushed down.

/** A Chroma `where` clause (the JSON object the server receives). */
export type Where = Record<string, unknown>;

/** The operators `compileWhere` pushes down on Chroma 1.0.0 and 1.4.4 for a layout without type tags (langchain-chroma's documents). */
export const CHROMA_PLAIN_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$and', '$or'];

/** The operators `compileWhere` pushes down for this adapter's typed layout (type tags `t.<key>`): all but `$contains` (capability `filterOperators`). */
export const CHROMA_FILTER_OPERATORS: readonly FilterOperator[] = [...CHROMA_PLAIN_FILTER_OPERATORS, '$exists', '$not'];

/** A scalar type as Chroma keeps it apart (null only when the layout stores it). */
export type StoredType = 'string' | 'boolean' | 'number' | 'null';

/**
 * Where a layout keeps a record's fields in Chroma metadata:
 * - `namespace`, `kind`: keys holding strings;
 * - `createdAtMs`, `createdAtUs`: keys holding epoch milliseconds (integer) and the 0..999 further
 *   microseconds of createdAt, so instants compare as two integers (Chroma refuses string ranges);
 * - `metadata(key, type)`: the Chroma key holding a memory metadata value of that type, or
 *   `undefined` when the layout cannot hold it (a `$eq` on it then matches nothing); `null` for
 *   a layout that keeps nested values is not supported: metadata is flat.
 */
export interface WhereLayout {
  adapter: string;
  namespace: string;
  kind: string;
  createdAtMs: string;
  createdAtUs: string;
  metadata(key: string, type: StoredType): string | undefined;
  /** The key holding the type tag (TYPE_TAGS) of metadata key `key`; a layout without it gets no `$exists` / `$not`. */
  typeTag?(key: string): string;
}

/** A compiled clause: a `where`, or a constant (folded away before it reaches the server). */
type Clause = Where | boolean;

/**
 * `expr` as a Chroma `where`, or `true` (matches every record: send no `where`) / `false`
 * (matches nothing: do not ask). Meaning is the reference's (docs/filters.md) for every record
 * the layout wrote; per leaf:
 * - `$eq` / `$ne` / `$in` / `$nin` on a metadata key: per operand type on `layout.metadata(key,
 *   type)`, one-type lists; a non-integer number is `guarded`; `$ne` / `$nin` are their exact
 *   complements (so they match a missing key, as Chroma's own `$ne` does);
 * - ranges: numbers on the number key (guarded when not an integer), instants on createdAt's
 *   two integer keys ((ms > M) or (ms = M and us > U)); anything else `false` (type bracketing);
 * - `namespace` / `kind`: string operands on their keys; other operand types the constant the
 *   reference gives; a metadata path of two or more keys is missing (metadata is flat).
 * - `$exists`, `$not` (layouts with `typeTag` only): `$exists` on the key's type tag; `$not` pushed
 *   to the leaves (De Morgan), each leaf its exact complement (`$eq` ↔ `$ne`, `$in` ↔ `$nin`, a range
 *   ↔ "not a number" or the complementary range).
 * Throws CAPABILITY_MISSING for `$contains`, and for `$exists` / `$not` on a layout without `typeTag`.
 */
export function compileWhere(expr: FilterExpr, layout: WhereLayout): Clause {
  const refuse = (op: string, why: string) => new MemoryMatrixError('CAPABILITY_MISSING', `${layout.adapter}: filter: ${op} is not pushed down to Chroma (${why}; capability filterOperators)`);
  // `neg`: the leaf is under an odd number of $not, compiled as its exact complement (spec foldNegationNormalForm)
  return foldNegationNormalForm<Clause>(expr, {
    and,
    or,
    not: () => {
      if (!layout.typeTag) throw refuse('$not', 'Chroma has no $not, and this layout keeps no type tag to complement a range with');
    },
    leaf: (e, neg) => {
      switch (e.op) {
        case '$eq':
        case '$in': {
          const values = 'values' in e ? e.values : [e.value];
          return neg ? noneOf(e.field, values, layout) : anyOf(e.field, values, layout);
        }
        case '$ne':
        case '$nin': {
          const values = 'values' in e ? e.values : [e.value];
          return neg ? anyOf(e.field, values, layout) : noneOf(e.field, values, layout);
        }
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          return neg ? notRange(e.field, e.op, e.value, layout) : range(e.field, e.op, e.value, layout);
        case '$exists':
          if (!layout.typeTag) throw refuse('$exists', 'Chroma has no $exists, and this layout keeps no type tag');
          return exists(e.field, e.exists !== neg, layout);
        default:
          throw refuse(e.op, 'no array $contains: Chroma 1.0 stores no arrays');
      }
    },
  });
}

/** The tags `typeTag` keys hold, one per stored type. */
export const TYPE_TAGS: Record<StoredType, string> = { string: 's', boolean: 'b', number: 'n', null: 'z' };

const COMPLEMENT = { $gt: '$lte', $gte: '$lt', $lt: '$gte', $lte: '$gt' } as const;

/**
 * `not (field op value)`: a number range's complement is "not a number here" (the type tag is not
 * `n`: a missing key, a string, …) or the complementary range; createdAt is always present, so its
 * complement is the complementary range; any pairing `range` makes `false` is `true` here.
 */
function notRange(field: FilterField, op: keyof typeof COMPLEMENT, value: number | { ms: number; us: number }, layout: WhereLayout): Clause {
  if (field.root === 'createdAt') return isFilterInstant(value) ? range(field, COMPLEMENT[op], value, layout) : true;
  if (field.root !== 'metadata' || typeof value !== 'number' || field.path.length !== 1) return true;
  return or([c(layout.typeTag!(field.path[0]!), '$ne', TYPE_TAGS.number), range(field, COMPLEMENT[op], value, layout)]);
}

/** `$exists: want` — metadata: the key's type tag is (not) one of TYPE_TAGS; record fields are always present. */
function exists(field: FilterField, want: boolean, layout: WhereLayout): Clause {
  if (field.root !== 'metadata') return want;
  if (field.path.length !== 1) return !want; // metadata is flat: a nested path is missing
  return c(layout.typeTag!(field.path[0]!), want ? '$in' : '$nin', Object.values(TYPE_TAGS));
}

/** `$and` of clauses with constants folded (Chroma wants two or more operands). */
export function and(parts: Clause[]): Clause {
  if (parts.includes(false)) return false;
  const kept = parts.filter((p): p is Where => p !== true);
  if (kept.length === 0) return true;
  return kept.length === 1 ? kept[0]! : { $and: kept };
}

/** `$or` of clauses with constants folded. */
export function or(parts: Clause[]): Clause {
  if (parts.includes(true)) return true;
  const kept = parts.filter((p): p is Where => p !== false);
  if (kept.length === 0) return false;
  return kept.length === 1 ? kept[0]! : { $or: kept };
}

const c = (key: string, op: string, v: unknown): Where => ({ [key]: { [op]: v } });

/** The integer Chroma compares with an integer-typed value in place of the non-integer v. */
const trunc = (v: number): number => Math.trunc(v) || 0; // no -0 on the wire

/** A key, or `undefined` when the field is a metadata path the flat layout never holds. */
function metaKey(field: FilterField, type: StoredType, layout: WhereLayout): string | undefined {
  if (field.root !== 'metadata' || field.path.length !== 1) return undefined;
  return layout.metadata(field.path[0]!, type);
}

/** Values grouped by stored type (instants apart: they only ever equal createdAt). */
function byType(values: readonly FilterScalar[]) {
  return {
    strings: [...new Set(values.filter((v): v is string => typeof v === 'string'))],
    booleans: [...new Set(values.filter((v): v is boolean => typeof v === 'boolean'))],
    numbers: [...new Set(values.filter((v): v is number => typeof v === 'number').map((v) => v || 0))],
    hasNull: values.includes(null),
    instants: values.filter(isFilterInstant),
  };
}

/**
 * Numbers by how they reach the server (one type per `$in` list): `ints` integers in i64 range
 * (JSON integers, Chroma's int), `bigs` integer-valued beyond it (parsed as floats; an integer-typed
 * value is compared with them saturated, which no value a JS client stores reaches), `floats` the
 * non-integers (need the trunc guard).
 */
function numberGroups(numbers: readonly number[]) {
  const I64 = 2 ** 63;
  return {
    ints: numbers.filter((v) => Number.isInteger(v) && v >= -I64 && v < I64),
    bigs: numbers.filter((v) => Number.isInteger(v) && (v < -I64 || v >= I64)),
    floats: numbers.filter((v) => !Number.isInteger(v)),
  };
}

/** The field equals one of `values`, type-strict. */
function anyOf(field: FilterField, values: readonly FilterScalar[], layout: WhereLayout): Clause {
  const g = byType(values);
  if (field.root === 'namespace' || field.root === 'kind') return g.strings.length ? c(layout[field.root], '$in', g.strings) : false;
  if (field.root === 'createdAt') return or(g.instants.map((i) => and([c(layout.createdAtMs, '$eq', i.ms), c(layout.createdAtUs, '$eq', i.us)])));
  const parts: Clause[] = [];
  const on = (type: StoredType) => metaKey(field, type, layout);
  const [s, b, n, z] = [on('string'), on('boolean'), on('number'), on('null')];
  if (g.strings.length) parts.push(s === undefined ? false : c(s, '$in', g.strings));
  if (g.booleans.length) parts.push(b === undefined ? false : c(b, '$in', g.booleans));
  if (g.hasNull) parts.push(z === undefined ? false : c(z, '$eq', true));
  if (g.numbers.length && n !== undefined) {
    const { ints, bigs, floats } = numberGroups(g.numbers);
    if (ints.length) parts.push(c(n, '$in', ints));
    if (bigs.length) parts.push(c(n, '$in', bigs));
    // $in [1.5] also matches a stored integer 1: take trunc(v) out (no integer in `floats` equals it)
    if (floats.length) parts.push(and([c(n, '$in', floats), c(n, '$nin', [...new Set(floats.map(trunc))])]));
  }
  return or(parts);
}

/** The exact complement of `anyOf` (a missing key, another type or another value). */
function noneOf(field: FilterField, values: readonly FilterScalar[], layout: WhereLayout): Clause {
  const g = byType(values);
  if (field.root === 'namespace' || field.root === 'kind') return g.strings.length ? c(layout[field.root], '$nin', g.strings) : true;
  if (field.root === 'createdAt') return and(g.instants.map((i) => or([c(layout.createdAtMs, '$ne', i.ms), c(layout.createdAtUs, '$ne', i.us)])));
  const parts: Clause[] = [];
  const on = (type: StoredType) => metaKey(field, type, layout);
  const [s, b, n, z] = [on('string'), on('boolean'), on('number'), on('null')];
  if (g.strings.length && s !== undefined) parts.push(c(s, '$nin', g.strings));
  if (g.booleans.length && b !== undefined) parts.push(c(b, '$nin', g.booleans));
  if (g.hasNull && z !== undefined) parts.push(c(z, '$ne', true));
  if (g.numbers.length && n !== undefined) {
    const { ints, bigs, floats } = numberGroups(g.numbers);
    if (ints.length) parts.push(c(n, '$nin', ints));
    if (bigs.length) parts.push(c(n, '$nin', bigs));
    // $nin [1.5] also drops a stored integer 1: put the integers trunc(v) back
    if (floats.length) parts.push(or([c(n, '$nin', floats), c(n, '$in', [...new Set(floats.map(trunc))])]));
  }
  return and(parts);
}

/**
 * A range. Numbers: an integer operand as it is; a non-integer v as `guarded`: Chroma's answer with
 * the integer trunc(v) taken out, OR the integers on the right side of v asked with an integer
 * operand (≥ ceil(v) for `$gt`/`$gte`, ≤ floor(v) for `$lt`/`$lte`). Instants on createdAt's two
 * integer keys. Any other pairing is `false` (strings are never ordered).
 */
function range(field: FilterField, op: '$gt' | '$gte' | '$lt' | '$lte', value: number | { ms: number; us: number }, layout: WhereLayout): Clause {
  if (field.root === 'createdAt') {
    if (!isFilterInstant(value)) return false;
    const strict = op === '$gt' || op === '$lt' ? op : op === '$gte' ? '$gt' : '$lt';
    return or([c(layout.createdAtMs, strict, value.ms), and([c(layout.createdAtMs, '$eq', value.ms), c(layout.createdAtUs, op, value.us)])]);
  }
  if (typeof value !== 'number') return false;
  const n = metaKey(field, 'number', layout);
  if (n === undefined) return false;
  if (Number.isInteger(value)) return c(n, op, value || 0);
  const up = op === '$gt' || op === '$gte';
  return or([and([c(n, op, value), c(n, '$ne', trunc(value))]), c(n, up ? '$gte' : '$lte', up ? Math.ceil(value) : Math.floor(value))]);
}
