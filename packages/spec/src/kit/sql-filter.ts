// The SQL filter skeleton (issue 33 kit): the filter language (docs/filters.md) compiled to one SQL
// boolean whose every fragment is two-valued (never NULL), so the language's `$not` is SQL `NOT`.
// pgvector, SQLite and LanceDB each walked the tree the same way; what differs (how a key is read,
// compared, quoted, bound) is the dialect an adapter gives.
import { MemoryMatrixError } from '../errors';
import type { FilterExpr, FilterField, FilterRangeValue, FilterScalar } from '../filter-lang/types';

/** A range operator of the language. */
export type SqlRangeOp = '$gt' | '$gte' | '$lt' | '$lte';

/** A SQL comparison operator. */
export type SqlComparison = '>' | '>=' | '<' | '<=';

/** The SQL comparison of each range operator. */
export const SQL_RANGE_OP: Readonly<Record<SqlRangeOp, SqlComparison>> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/**
 * What a store's SQL gives `compileSqlFilter`; every function returns a two-valued SQL boolean and
 * pushes its bind parameters (if any) in the order of their placeholders, as it is called (the
 * walk calls them in text order).
 * - `where`: error prefix, e.g. `pgvector: filter`;
 * - `true` / `false`: the dialect's constants (`true`, or `1` in SQLite);
 * - `equals(field, values)`: the field equals one of `values` (`$eq` is one value, `$in` many;
 *   `$ne` / `$nin` are `NOT` of it);
 * - `range(field, cmp, value)`: `$gt` … `$lte`, given as their SQL comparison `cmp` (`>` … `<=`);
 * - `exists(path, exists)`: whether the metadata value at `path` is [not] present (record fields
 *   are always present: the constant, without calling it);
 * - `contains(path, value)`: the metadata value at `path` is an array holding `value` (a record
 *   field contains nothing: `false`); absent: `$contains` throws CAPABILITY_MISSING
 *   `<where> $contains is not pushed down (<noContains>)`.
 */
export interface SqlFilterDialect {
  where: string;
  true: string;
  false: string;
  equals(field: FilterField, values: readonly FilterScalar[]): string;
  range(field: FilterField, cmp: SqlComparison, value: FilterRangeValue): string;
  exists(path: readonly string[], exists: boolean): string;
  contains?(path: readonly string[], value: string | number | boolean | null): string;
  noContains?: string;
}

/**
 * `expr` as one SQL boolean of `dialect`, never NULL: `$and` / `$or` joined in parentheses,
 * `$not` / `$ne` / `$nin` as `(NOT …)`, leaves by the dialect. Throws INVALID_INPUT `<where>:
 * unknown filter node <op>` for a node outside the language, CAPABILITY_MISSING for `$contains`
 * without `dialect.contains`, and whatever the dialect throws.
 */
export function compileSqlFilter(expr: FilterExpr, dialect: SqlFilterDialect): string {
  const d = dialect;
  const walk = (e: FilterExpr): string => {
    switch (e.op) {
      case '$and':
      case '$or':
        return `(${e.args.map(walk).join(e.op === '$and' ? ' AND ' : ' OR ')})`;
      case '$not':
        return `(NOT ${walk(e.arg)})`;
      case '$eq':
        return d.equals(e.field, [e.value]);
      case '$ne':
        return `(NOT ${d.equals(e.field, [e.value])})`;
      case '$in':
        return d.equals(e.field, e.values);
      case '$nin':
        return `(NOT ${d.equals(e.field, e.values)})`;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return d.range(e.field, SQL_RANGE_OP[e.op], e.value);
      case '$exists':
        if (e.field.root !== 'metadata') return e.exists ? d.true : d.false; // record fields are always present
        return d.exists(e.field.path, e.exists);
      case '$contains':
        if (!d.contains) throw new MemoryMatrixError('CAPABILITY_MISSING', `${d.where} $contains is not pushed down (${d.noContains ?? 'no array test'})`);
        if (e.field.root !== 'metadata') return d.false; // a record field is never an array
        return d.contains(e.field.path, e.value);
      default:
        throw new MemoryMatrixError('INVALID_INPUT', `${d.where}: unknown filter node ${JSON.stringify((e as { op?: unknown }).op)}`);
    }
  };
  return walk(expr);
}
