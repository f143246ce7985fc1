import { compileOperatorTree, pushdownFilterExpr, type FilterExpr, type FilterOperator, type RecallFilter, type TreeNode } from '@memory-matrix/spec';
import { ADAPTER } from './errors';
import { cannot, keyOf, OP } from './filter-compile';
import { AGENT_ID } from './records';

// The filter language (docs/filters.md) compiled to mem0's filters as its pgvector store reads them
// (mem0ai 3.3.1 dist/oss `PGVector.search` / `list` → `buildFilterConditions`, pushed into the SQL
// WHERE). The comparisons are mem0's SQL, never the driver's (README "Filters over pgvector"):
// eq / ne `payload->>'key' = | != $n` with the operand as text (String(v): 5 and "5" are equal,
// null is the text "null"), ranges `(payload->>'key')::numeric > $n` (a row whose value is not
// numeric text makes the query fail), in / nin `= ANY($n::text[])`, a value "*" the existence
// test `payload ? key`. SQL's three-valued logic: a missing key is NULL, so ne / nin exclude it.
//
// The shape: `{ agent_id, $or: [tree] }`, leaves `{ key: { op: value } }`. The store's logic keys
// are `$or: [objects]` (OR of each object's keys ANDed) and `$not: [objects]` (NOT of their OR);
// an object's keys are ANDed, but it holds each key once, and the store has no `$and` (the key
// "$and" fails its identifier check). So `$and [a, b, …]` is `{ $or: [a], $not: [{ $not: [and(b, …)] }] }`:
// (a) AND NOT (NOT (b AND …)), equal under three-valued logic as well.

/**
 * The operators mem0's pgvector store pushes into SQL (capability `filterOperators` of the
 * pgvector targets): `$eq $ne $gt $gte $lt $lte $in $nin $exists $and $or $not`. Not `$contains`
 * (mem0's `contains` is `LIKE '%v%'` on the text, not array membership).
 */
export const MEM0_PG_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$and', '$or', '$not'];

/**
 * A condition no row meets, in the store's syntax: `payload ? 'agent_id' AND NOT (payload ? 'agent_id')`.
 * (An object with no condition is dropped by the store, so false and true are spelt out.)
 */
const FALSE = { agent_id: '*', $not: [{ agent_id: '*' }] };

/**
 * `filter` (the whole RecallFilter, `recallFilterExpr`) with a `where` as the `filters` of
 * `Memory.search` / `getAll` over mem0's pgvector store: `{ agent_id: AGENT_ID, $or: [tree] }`,
 * keys as filter-compile.ts `keyOf` (createdAt as epoch microseconds), `$exists: true` as the value
 * `"*"`, `$exists: false` as `{ $not: [{ key: "*" }] }`. Throws CAPABILITY_MISSING (`where`) for an
 * operator outside MEM0_PG_FILTER_OPERATORS or a nested path; INVALID_INPUT for a key that is the
 * driver's or mem0's own.
 */
export function compileMem0PgFilter(filter: RecallFilter, where: string): Record<string, unknown> {
  const expr = pushdownFilterExpr(filter, MEM0_PG_FILTER_OPERATORS, `${ADAPTER}: ${where}`, (ops) => `operators ${ops}: mem0's pgvector store has no array membership (capability filterOperators)`)!;
  const and = (args: FilterExpr[], walk: (e: FilterExpr) => TreeNode): TreeNode => {
    const [first, ...rest] = args;
    if (first === undefined) return { $not: [FALSE] }; // an empty $and holds for every row
    if (rest.length === 0) return walk(first);
    return { $or: [walk(first)], $not: [{ $not: [and(rest, walk)] }] };
  };
  const tree = compileOperatorTree(expr, {
    key: (field) => keyOf(field, where),
    opName: (op) => OP[op],
    and,
    or: (args, walk) => (args.length ? { $or: args.map(walk) } : FALSE), // an empty $or holds for no row
    not: (child) => ({ $not: [child] }),
    exists: (key, exists) => (exists ? { [key]: '*' } : { $not: [{ [key]: '*' }] }),
    cannot: (what) => cannot(where, what),
  });
  return { agent_id: AGENT_ID, $or: [tree] };
}
