import {
  compileSqlFilter,
  FILTER_OPERATORS,
  isFilterInstant,
  type FilterExpr,
  type FilterField,
  type FilterOperator,
  type FilterRangeValue,
  type FilterScalar,
  type SqlComparison,
} from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * The filter-language operators this compiler pushes down (capability `filterOperators`): all of
 * them. Every node becomes SQL over the records table `r` (metadata stored as JSON text), with
 * every value a bind parameter.
 */
export const SQLITE_FILTER_OPERATORS: readonly FilterOperator[] = FILTER_OPERATORS;

/**
 * Compile a `FilterExpr` (spec filter-lang, docs/filters.md) to a SQL boolean over the records
 * table aliased `r`; values are pushed to `params` in the order their `?` appear. Every
 * fragment is TWO-VALUED (never NULL), so `NOT` is the reference's negation with no COALESCE:
 * - a metadata value is read with `json_each`, one level per path key, by exact key (`key = ?`,
 *   so a key holding `.`, `"` or `[` needs no JSON-path quoting), stepping only into objects
 *   (`type = 'object'`): a step into a scalar, array or missing key finds no row, i.e. missing;
 *   each leaf is `EXISTS (…)`, false for a missing key;
 * - type-strict equality on json_each's `type` (`null`, `true`, `false`, `integer`, `real`,
 *   `text`, `array`, `object`) before `atom`: `json_extract` alone gives `false` = `0` and
 *   `null` = missing; numbers compare by value (`integer` 1 = `real` 1.0);
 * - `$ne` / `$nin` / `$not`: `NOT (…)` of the two-valued test, so a missing key matches;
 * - ranges: only `type IN ('integer','real')` (SQLite would otherwise order every TEXT after every
 *   number); on `createdAt`: the row value `(created_ms, created_us)` against the operand's
 *   UTC epoch ms and µs (codec.ts stores them at write);
 * - `$exists`: whether the path finds a row (a stored `null` is present);
 * - `$contains v`: the value is an `array` with an element passing the `$eq v` test;
 * - `namespace` / `kind`: the TEXT columns, `=` with a bound string.
 * Throws INVALID_INPUT for a node it does not know (validateRecallFilter ran first).
 */
export function whereSql(e: FilterExpr, params: unknown[]): string {
  return compileSqlFilter(e, {
    where: `${ADAPTER}: filter.where`,
    true: '1',
    false: '0',
    equals: (field, values) => eqSql(field, values, params),
    range: (field, cmp, value) => rangeSql(field, cmp, value, params),
    exists: (path, exists) => `(${exists ? '' : 'NOT '}${pathExists(path, null, params)})`,
    contains: (path, value) =>
      pathExists(
        path,
        (leaf) => `${leaf}.type = 'array' AND EXISTS (SELECT 1 FROM json_each(CASE WHEN ${leaf}.type = 'array' THEN ${leaf}.value ELSE '[]' END) el WHERE ${scalarTest('el', value, params)})`,
        params,
      ),
  });
}

/** `$eq` with one of `values` (`$in`; an empty list is `0`). */
function eqSql(field: FilterField, values: readonly FilterScalar[], params: unknown[]): string {
  if (values.length === 0) return '0';
  if (field.root === 'metadata') return pathExists(field.path, (leaf) => `(${values.map((v) => scalarTest(leaf, v, params)).join(' OR ')})`, params);
  if (field.root === 'createdAt') {
    const tests = values.map((v) => {
      if (!isFilterInstant(v)) return '0'; // the parser allows instants only on createdAt
      params.push(v.ms, v.us);
      return '(r.created_ms, r.created_us) = (?, ?)';
    });
    return `(${tests.join(' OR ')})`;
  }
  const col = field.root === 'namespace' ? 'r.namespace' : 'r.kind';
  const tests = values.map((v) => {
    if (typeof v !== 'string') return '0'; // a TEXT column equals strings only
    params.push(v);
    return `${col} = ?`;
  });
  return `(${tests.join(' OR ')})`;
}

function rangeSql(field: FilterField, cmp: SqlComparison, value: FilterRangeValue, params: unknown[]): string {
  if (field.root === 'createdAt') {
    if (!isFilterInstant(value)) return '0';
    params.push(value.ms, value.us);
    return `((r.created_ms, r.created_us) ${cmp} (?, ?))`;
  }
  if (field.root !== 'metadata' || typeof value !== 'number') return '0'; // strings are never ordered; metadata holds no instant
  return pathExists(
    field.path,
    (leaf) => {
      params.push(value);
      return `${leaf}.type IN ('integer', 'real') AND ${leaf}.atom ${cmp} ?`;
    },
    params,
  );
}

/**
 * The type-strict `$eq` of the json_each row `alias` and a scalar operand (see `whereSql`).
 * An instant operand equals no metadata value.
 */
function scalarTest(alias: string, v: FilterScalar, params: unknown[]): string {
  if (v === null) return `${alias}.type = 'null'`;
  if (typeof v === 'boolean') return `${alias}.type = '${v ? 'true' : 'false'}'`;
  if (typeof v === 'string') {
    params.push(v);
    return `(${alias}.type = 'text' AND ${alias}.atom = ?)`;
  }
  if (typeof v === 'number') {
    params.push(v);
    return `(${alias}.type IN ('integer', 'real') AND ${alias}.atom = ?)`;
  }
  return '0';
}

/**
 * `EXISTS (SELECT 1 FROM json_each(r.metadata) j1, json_each(<j1.value if an object, else '{}'>) j2 …
 * WHERE j1.key = ? AND j1.type = 'object' AND j2.key = ? … AND <leaf test>)`: the metadata value at
 * `path` exists (and passes `test`, built on the last alias, when given). The CASE keeps json_each
 * from parsing a text value as JSON (a step into a string would raise "malformed JSON"). The path
 * keys are pushed before the test's parameters, in the order of their `?`.
 */
function pathExists(path: readonly string[], test: ((leaf: string) => string) | null, params: unknown[]): string {
  const from: string[] = [];
  const conds: string[] = [];
  path.forEach((key, i) => {
    const a = `j${i + 1}`;
    from.push(i === 0 ? `json_each(r.metadata) ${a}` : `json_each(CASE WHEN j${i}.type = 'object' THEN j${i}.value ELSE '{}' END) ${a}`);
    if (i > 0) conds.push(`j${i}.type = 'object'`);
    params.push(key);
    conds.push(`${a}.key = ?`);
  });
  if (test) conds.push(test(`j${path.length}`));
  return `EXISTS (SELECT 1 FROM ${from.join(', ')} WHERE ${conds.join(' AND ')})`;
}
