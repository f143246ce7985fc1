import { compileSqlFilter, FILTER_OPERATORS, isFilterInstant, type FilterExpr, type FilterField, type FilterOperator, type FilterScalar, type SqlComparison } from '@memory-matrix/spec';

// The filter language (docs/filters.md) compiled to PostgreSQL over the table of ddl.ts
// (namespace text, kind text, created_at timestamptz, metadata jsonb): one SQL boolean
// expression that is never NULL, so `NOT` is the language's two-valued negation. Every operand
// travels as a bind parameter; the SQL text holds only `$n` placeholders, casts and operators.

/** The operators `compileFilterSql` pushes down: all of them (capability `filterOperators`). */
export const PGVECTOR_FILTER_OPERATORS: readonly FilterOperator[] = FILTER_OPERATORS;

/**
 * `expr` as a PostgreSQL boolean expression over the recall table, never NULL (SQL three-valued
 * logic is closed off at every leaf with `COALESCE(…, false)` or a test that cannot be NULL), its
 * operands pushed on `params` (placeholders `$n` numbered after what `params` already holds).
 * Per leaf, with v the field's value:
 * - metadata path `a.b`: v = `metadata -> $i::text -> $j::text` (one `->` per key, a text key, so
 *   a step into an array or a scalar is SQL NULL = missing, as the reference; `#>` would index
 *   arrays by a numeric key);
 * - `$eq` / `$in`: jsonb equality (`v = $n::jsonb`, `v = ANY($n::jsonb[])`): same JSON type and
 *   value, numbers by numeric value (`1` = `1.0`), `'null'::jsonb` only for a stored null, an
 *   array or object equal to no scalar; `$ne` / `$nin` are `NOT` of those, so they match a missing key;
 * - ranges: `CASE WHEN jsonb_typeof(v) = 'number' THEN (v)::numeric > $n::numeric END` (type
 *   bracketing; CASE guarantees the cast only sees numbers), compared as numeric;
 * - `$exists`: `v IS [NOT] NULL` (a stored JSON null is `'null'::jsonb`, not SQL NULL);
 * - `$contains`: `jsonb_typeof(v) = 'array' AND v @> $n::jsonb` with `[value]` (jsonb containment
 *   compares JSON types; the typeof test stops the top-level scalar rule `'"a"' @> '"a"'`);
 * - `namespace`, `kind`: the text columns (NOT NULL), compared with string operands only;
 * - `createdAt`: `created_at` against `$n::timestamptz` (UTC instants, microseconds exact).
 * An operand of a type the field never holds (a number for `namespace`, a string range) is the
 * constant the reference gives (`false`), never an error. Throws INVALID_INPUT for a node that
 * is not part of the language.
 */
export function compileFilterSql(expr: FilterExpr, params: unknown[]): string {
  const bind = (v: unknown, cast: string): string => {
    params.push(v);
    return `$${params.length}::${cast}`;
  };
  return compileSqlFilter(expr, {
    where: 'pgvector: filter',
    true: 'true',
    false: 'false',
    equals: (field, values) => equals(field, values, bind),
    range: (field, cmp, value) => range(field, cmp, value, bind),
    exists: (path, exists) => `(${jsonAt(path, bind)} IS ${exists ? 'NOT ' : ''}NULL)`,
    contains: (path, value) => containsSql(jsonAt(path, bind), value, bind),
  });
}

type Bind = (v: unknown, cast: string) => string;

/** `metadata -> $i::text -> …`: the jsonb value at `path`, SQL NULL when any step is missing or not an object. */
function jsonAt(path: readonly string[], bind: Bind): string {
  return `(metadata${path.map((k) => ` -> ${bind(k, 'text')}`).join('')})`;
}

/** The field equals one of `values` (type-strict); `false` for an empty list. */
function equals(field: FilterField, values: readonly FilterScalar[], bind: Bind): string {
  if (field.root === 'namespace' || field.root === 'kind') {
    const strings = values.filter((v): v is string => typeof v === 'string');
    if (strings.length === 0) return 'false';
    return strings.length === 1 ? `(${field.root} = ${bind(strings[0], 'text')})` : `(${field.root} = ANY(${bind(strings, 'text[]')}))`;
  }
  if (field.root === 'createdAt') {
    const instants = values.filter(isFilterInstant).map((v) => v.$date);
    if (instants.length === 0) return 'false';
    return instants.length === 1 ? `(created_at = ${bind(instants[0], 'timestamptz')})` : `(created_at = ANY(${bind(instants, 'timestamptz[]')}))`;
  }
  const json = values.filter((v) => !isFilterInstant(v)).map((v) => JSON.stringify(v)); // an instant equals no metadata value
  if (json.length === 0) return 'false';
  const v = jsonAt(field.path, bind);
  return json.length === 1 ? `COALESCE(${v} = ${bind(json[0], 'jsonb')}, false)` : `COALESCE(${v} = ANY(${bind(json, 'jsonb[]')}), false)`;
}

/** A range: numbers with numbers (numeric), instants with `created_at`; anything else `false`. */
function range(field: FilterField, cmp: SqlComparison, value: number | { $date: string }, bind: Bind): string {
  if (field.root === 'createdAt') return isFilterInstant(value) ? `(created_at ${cmp} ${bind(value.$date, 'timestamptz')})` : 'false';
  if (field.root !== 'metadata' || typeof value !== 'number') return 'false'; // namespace and kind are strings: never in a range
  const v = jsonAt(field.path, bind);
  return `COALESCE(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v})::numeric ${cmp} ${bind(JSON.stringify(value), 'numeric')} END, false)`;
}

/** `v` is a jsonb array holding an element equal (jsonb, type-strict) to the scalar `value`. */
function containsSql(v: string, value: string | number | boolean | null, bind: Bind): string {
  return `COALESCE(jsonb_typeof(${v}) = 'array' AND ${v} @> ${bind(JSON.stringify([value]), 'jsonb')}, false)`;
}
