import { compileSqlFilter, isFilterInstant, type FilterExpr, type FilterField, type FilterOperator, type FilterRangeValue, type FilterScalar, type SqlComparison } from '@memory-matrix/spec';
import { metadataToken } from './codec';
import { ADAPTER } from './context';
import { quoteString } from './quote';

// The filter language (docs/filters.md) compiled to a LanceDB `where` (DataFusion SQL) over the
// columns of codec.ts: namespace, kind, created_at (Utf8, canonical UTC instant) and meta_tokens
// (List<Utf8>, one JSON token `["key",value]` per metadata key). LanceDB has no bind parameters
// for predicates: every operand is a string literal of quote.ts `quoteString`, nothing else is
// concatenated. Each leaf is a boolean that is never NULL, so `NOT` is two-valued.

/**
 * The operators pushed down: all but `$contains` (capability `filterOperators`). The contract
 * stores flat metadata and this table keeps it as one token per key, so an array never exists
 * here to contain anything; `$contains` is not declared rather than compiled to a constant.
 */
export const LANCEDB_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$and', '$or', '$not'];

/** The metadata tokens as one string, each token after a newline (JSON text never holds a raw newline: JSON.stringify escapes it). */
const TOKENS = `concat(chr(10), array_to_string(meta_tokens, chr(10)))`;

/**
 * `expr` as a LanceDB predicate (never NULL), per leaf:
 * - metadata key k, `$eq v` / `$in`: `array_has(meta_tokens, '["k",v]')` — the token is the JSON
 *   text of `[key, value]` (codec.ts `metadataToken`), so the JSON type is part of the test (`0`,
 *   `false`, `""`, `null` are four tokens, a missing key has none); `$ne` / `$nin` are `NOT` of it;
 * - `$exists`: `strpos(tokens, '\n["k",') > 0` over the newline-joined tokens (a token starts
 *   after a newline, so only a token of key k matches);
 * - a number range: the value text after that token's prefix (`split_part`), up to the next
 *   newline, without its closing `]`; only when it starts like a JSON number (`-` or a digit) is it
 *   `TRY_CAST` to DOUBLE and compared with the operand (JSON numbers are the shortest round-trip form, so the
 *   parse gives the stored float64 back); a string, boolean, null or missing key is outside every range;
 * - a metadata path of two or more keys: always missing (flat metadata: no value is an object);
 * - `namespace`, `kind`: the Utf8 columns, string operands only;
 * - `createdAt`: `to_timestamp_micros(created_at)` against `to_timestamp_micros('<UTC instant>')`
 *   (the column is text; compared as text, `…00.123Z` sorts after `…00.123456Z`: README "Filters").
 * Throws CAPABILITY_MISSING for `$contains`, INVALID_INPUT for a node outside the language.
 */
export function compileLanceFilter(expr: FilterExpr): string {
  return compileSqlFilter(expr, {
    where: `${ADAPTER}: filter`,
    true: 'true',
    false: 'false',
    equals,
    range,
    exists: (path, exists) => (path.length !== 1 ? (exists ? 'false' : 'true') : `(${tokenStart(path[0]!)} ${exists ? '>' : '='} 0)`),
    noContains: 'flat metadata: no arrays are stored',
  });
}

/** 1-based position of key's token in the joined tokens (0 when the key is missing). */
function tokenStart(key: string): string {
  return `strpos(${TOKENS}, concat(chr(10), ${quoteString(tokenPrefix(key))}))`;
}

/** `["key",` — how every token of `key` begins (`metadataToken`'s JSON text up to its value). */
function tokenPrefix(key: string): string {
  const token = metadataToken(key, null);
  return token.slice(0, token.length - 'null]'.length);
}

/** The field equals one of `values`, type-strict; `false` for an empty list or operands the field never holds. */
function equals(field: FilterField, values: readonly FilterScalar[]): string {
  let parts: string[];
  if (field.root === 'namespace' || field.root === 'kind') {
    parts = values.filter((v): v is string => typeof v === 'string').map((v) => `${field.root} = ${quoteString(v)}`);
  } else if (field.root === 'createdAt') {
    parts = values.filter(isFilterInstant).map((v) => `${instantOf('created_at')} = ${instantOf(quoteString(v.$date))}`);
  } else if (field.path.length !== 1) {
    parts = []; // a nested path is missing: equal to nothing
  } else {
    const key = field.path[0]!;
    parts = values.filter((v) => !isFilterInstant(v)).map((v) => `array_has(meta_tokens, ${quoteString(metadataToken(key, v as string | number | boolean | null))})`);
  }
  return parts.length === 0 ? 'false' : `(${parts.join(' OR ')})`;
}

function instantOf(sql: string): string {
  return `to_timestamp_micros(${sql})`;
}

/** A range: numbers with a metadata number, instants with `created_at`; anything else `false`. */
function range(field: FilterField, cmp: SqlComparison, value: FilterRangeValue): string {
  if (field.root === 'createdAt') return isFilterInstant(value) ? `(${instantOf('created_at')} ${cmp} ${instantOf(quoteString(value.$date))})` : 'false';
  if (field.root !== 'metadata' || typeof value !== 'number' || field.path.length !== 1) return 'false';
  const key = field.path[0]!;
  // After the token's prefix, up to the next newline: `<value>]` ('' when the key is missing).
  // Lance's filter SQL refuses SUBSTR and CASE ("is not supported SQL in lance"), so split_part cuts it.
  const text = `split_part(split_part(${TOKENS}, concat(chr(10), ${quoteString(tokenPrefix(key))}), 2), chr(10), 1)`;
  return `COALESCE(regexp_like(${text}, '^-?[0-9]') AND TRY_CAST(rtrim(${text}, ']') AS DOUBLE) ${cmp} CAST(${quoteString(JSON.stringify(value))} AS DOUBLE), false)`;
}
