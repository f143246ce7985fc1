// Filter pushdown prologue (issue 33 kit): the recall filter as one expression, refused with
// CAPABILITY_MISSING when it holds an operator the layer does not compile, and the instant operand
// as epoch microseconds. The LangChain pgvector, mem0 and Mastra compilers each wrote these lines.
import { MemoryMatrixError } from '../errors';
import { recallFilterExpr, unsupportedFilterOperators } from '../filter-lang/describe';
import { isFilterInstant, type FilterExpr, type FilterOperator, type FilterScalar } from '../filter-lang/types';
import type { RecallFilter } from '../types';

/** CAPABILITY_MISSING `<where>: filter: <what>` (`where` names the adapter and the call). */
export function filterCannot(where: string, what: string): MemoryMatrixError {
  return new MemoryMatrixError('CAPABILITY_MISSING', `${where}: filter: ${what}`);
}

/**
 * The whole recall filter (namespaces, kinds, metadata, where: `recallFilterExpr`) as one
 * expression, undefined when there is none. Throws `filterCannot(where, what(ops))`, `ops` the
 * operators outside `operators` joined by `, `, when the expression uses any.
 */
export function pushdownFilterExpr(filter: RecallFilter | undefined, operators: readonly FilterOperator[], where: string, what: (ops: string) => string): FilterExpr | undefined {
  const expr = recallFilterExpr(filter);
  if (expr === undefined) return undefined;
  const missing = unsupportedFilterOperators(expr, operators);
  if (missing.length) throw filterCannot(where, what(missing.join(', ')));
  return expr;
}

/** An operand as a layer storing createdAt as epoch microseconds takes it: an instant → `ms × 1000 + us`; anything else as it is. */
export function instantAsMicros(v: FilterScalar): unknown {
  return isFilterInstant(v) ? v.ms * 1000 + v.us : v;
}
