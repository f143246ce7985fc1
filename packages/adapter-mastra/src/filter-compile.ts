import { compileOperatorTree, filterCannot, pushdownFilterExpr, type FilterField, type FilterOperator, type RecallFilter } from '@memory-matrix/spec';
import { ADAPTER, invalid } from './errors';
import { FIELD_KEYS, RESERVED_PREFIX } from './records';

// The filter language (docs/filters.md) compiled to Mastra's MongoDB-like filter (@mastra/core
// BaseFilterTranslator; @mastra/pg PGFilterTranslator + buildFilterQuery, @mastra/libsql
// LibSQLFilterTranslator + buildFilterQuery: each pushes the filter into the SQL WHERE of its
// query). The comparisons are Mastra's SQL over the metadata JSON, never the driver's.

/**
 * The operators pushed down (capability `filterOperators`): `$eq $ne $gt $gte $lt $lte $in $nin
 * $exists $and $or $not`. Not `$contains` (Mastra's `$contains` on a scalar is a substring or JSON
 * containment test, not the language's array membership).
 */
export const MASTRA_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$and', '$or', '$not'];

/**
 * `filter` (the whole RecallFilter, `recallFilterExpr`) with a `where` as Mastra's filter: leaves
 * `{ key: { $op: operand } }` on the metadata key the driver keeps the field under (`mm_namespace`,
 * `mm_kind`, `mm_created_us` — createdAt as epoch microseconds — or the metadata key, a nested path
 * dotted), an instant operand as epoch microseconds; `$and` / `$or` → `{ $and | $or: [...] }`,
 * `$not f` → `{ $not: f }`. Throws CAPABILITY_MISSING (naming `where`) for an operator outside
 * MASTRA_FILTER_OPERATORS; INVALID_INPUT for a key that is the driver's (`mm_…`) or an operator.
 */
export function compileMastraFilter(filter: RecallFilter, where: string): Record<string, unknown> {
  const expr = pushdownFilterExpr(filter, MASTRA_FILTER_OPERATORS, `${ADAPTER}: ${where}`, (ops) => `operators ${ops} are not compiled for Mastra (capability filterOperators)`)!;
  return compileOperatorTree(expr, {
    key: (field) => keyOf(field, where),
    exists: (key, exists) => ({ [key]: { $exists: exists } }),
    cannot: (what) => filterCannot(`${ADAPTER}: ${where}`, what),
  });
}

/** The metadata key Mastra filters on for `field` (a nested path dotted, as Mastra's translators take it). */
function keyOf(field: FilterField, where: string): string {
  if (field.root === 'namespace') return FIELD_KEYS.namespace;
  if (field.root === 'kind') return FIELD_KEYS.kind;
  if (field.root === 'createdAt') return FIELD_KEYS.createdMicros;
  const head = field.path[0]!;
  if (head.startsWith(RESERVED_PREFIX) || head.startsWith('$')) throw invalid(`${where}: filter key ${JSON.stringify(head)} is the driver's or an operator`);
  return field.path.join('.');
}
