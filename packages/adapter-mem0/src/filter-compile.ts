import { compileOperatorTree, filterCannot, instantAsMicros, pushdownFilterExpr, type FilterField, type FilterOperator, type RecallFilter } from '@memory-matrix/spec';
import { ADAPTER, invalid } from './errors';
import { AGENT_ID, FIELD_KEYS, MEM0_KEYS } from './records';

// The filter language (docs/filters.md) compiled to mem0's filters (mem0ai 3.3.1, dist/oss:
// `Memory.search` / `getAll` → `MemoryVectorStore.filterVector` / `matchFieldCondition`). mem0's
// embedded store pushes NOTHING into SQL: `search`, `keywordSearch` and `list` run
// `SELECT * FROM vectors` and keep the rows whose JSON payload `filterVector` accepts, in JS. What a
// mem0 user gets is that JS filter, so the driver declares it as the layer's own filtering (README
// "Filters"): the comparisons are mem0's — `===` for eq / ne / in / nin (type-strict), JS `>`
// `>=` `<` `<=` for ranges (which convert strings, booleans and null to numbers) — never the
// driver's.
//
// The shape: `{ agent_id, $and: [compiled] }`, leaves `{ key: { op: value } }` with ONE operator
// each (matchFieldCondition honours only the first operator of an object), logic as the store's
// own `$and` / `$or` / `$not` lists, which `filterVector` evaluates at any depth. Not mem0's
// documented top-level `AND` / `OR` / `NOT`: `Memory._processMetadataFilters` flattens those
// with Object.assign — two clauses on one key in an `AND` keep only the last, and an `OR` inside
// an `AND` becomes `{ OR: { in: … } }`, which the store throws on (README "Filters", findings).

/**
 * The operators mem0's filter evaluates (capability `filterOperators`): `$eq $ne $gt $gte $lt
 * $lte $in $nin $and $or $not`. Not `$exists` (mem0 has no existence test) nor `$contains` (mem0's
 * `contains` is a substring test on strings, not membership in an array).
 */
export const MEM0_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$and', '$or', '$not'];

/** mem0's names of the leaf operators (`matchFieldCondition` / `buildFilterConditions`: eq, ne, gt, gte, lt, lte, in, nin). */
export const OP = { $eq: 'eq', $ne: 'ne', $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte', $in: 'in', $nin: 'nin' } as const;

/**
 * `filter` (the whole RecallFilter, `recallFilterExpr`) with a `where` as mem0's `filters`:
 * `{ agent_id: AGENT_ID, $and: [tree] }` (mem0 refuses a search without a user, agent or run id),
 * each leaf `{ key: { eq|ne|gt|gte|lt|lte|in|nin: operand } }` on the payload key the driver
 * keeps the field under (`mm_namespace`, `mm_kind`, `mm_created_us` — createdAt as epoch
 * microseconds, a number, records.ts — or the metadata key), an instant operand as epoch
 * microseconds; `$and` / `$or` → `{ $and | $or: [...] }`, `$not f` → `{ $not: [f] }`.
 * Throws CAPABILITY_MISSING (`where` naming it) for an operator outside MEM0_FILTER_OPERATORS or a
 * nested metadata path (mem0 reads top-level payload keys only); INVALID_INPUT for a metadata key
 * that is the driver's (`mm_…`) or mem0's own (MEM0_KEYS).
 */
export function compileMem0Filter(filter: RecallFilter, where: string): Record<string, unknown> {
  const expr = pushdownFilterExpr(
    filter,
    MEM0_FILTER_OPERATORS,
    `${ADAPTER}: ${where}`,
    (ops) => `operators ${ops}: mem0's filter has no existence test and no array membership (capability filterOperators)`,
  )!;
  return {
    agent_id: AGENT_ID,
    $and: [compileOperatorTree(expr, { key: (field) => keyOf(field, where), opName: (op) => OP[op], not: (child) => ({ $not: [child] }), cannot: (what) => cannot(where, what) })],
  };
}

/** The payload key mem0 filters on for `field`. CAPABILITY_MISSING for a nested path, INVALID_INPUT for a key that is the driver's or mem0's. */
export function keyOf(field: FilterField, where: string): string {
  if (field.root === 'namespace') return FIELD_KEYS.namespace;
  if (field.root === 'kind') return FIELD_KEYS.kind;
  if (field.root === 'createdAt') return FIELD_KEYS.createdMicros;
  if (field.path.length !== 1) throw cannot(where, `nested path metadata.${field.path.join('.')}: mem0 filters on top-level payload keys`);
  const key = field.path[0]!;
  if (key.startsWith('mm_') || MEM0_KEYS.has(key) || key.startsWith('$') || key === 'AND' || key === 'OR' || key === 'NOT') {
    throw invalid(`${where}: filter key ${JSON.stringify(key)} is the driver's or mem0's own`);
  }
  return key;
}

/** An instant as epoch microseconds (createdAt's stored number); anything else as it is. */
export const operand = instantAsMicros;

/** CAPABILITY_MISSING `mem0: <where>: filter: <what>`. */
export function cannot(where: string, what: string): ReturnType<typeof filterCannot> {
  return filterCannot(`${ADAPTER}: ${where}`, what);
}
