import type { Capabilities, FilterExpr, FilterOperator, FilterScalar, MemoryCollection, RecallFilter } from '@memory-matrix/spec';
import type { ContractFault, Mutant } from './proxy';

/**
 * Mutants of the filter language (`RecallFilter.where`, docs/filters.md): each rewrites the
 * FilterExpr a store receives the way a buggy filter layer between the caller and the store would
 * (a memory layer translating its own syntax, an ORM, a client library's filter builder), BEFORE
 * the adapter compiles it natively. The rewrite is the realistic place: these bugs live in
 * translation (the wrong operator emitted, `<>` for `$ne`, `OR` joined as `AND`, values coerced
 * to one type), and the store then runs a well-formed filter that means something else, so the
 * result is a correct answer to the wrong question (not fewer hits, not a score change). Applied
 * to `recall` and `count`, the calls that take a filter; everything else of the filter
 * (namespaces, kinds, metadata) is kept. Each mutant is `n/a` on a target that declares none of
 * the operators it touches (capability `filterOperators`), or not the ones its rewrite emits (the
 * adapter would refuse them, which is not the bug).
 */

/** `expr` rebuilt bottom-up with `fn` applied to every node (children first). Pure. */
export function mapWhere(expr: FilterExpr, fn: (e: FilterExpr) => FilterExpr): FilterExpr {
  switch (expr.op) {
    case '$and':
    case '$or':
      return fn({ op: expr.op, args: expr.args.map((a) => mapWhere(a, fn)) });
    case '$not':
      return fn({ op: '$not', arg: mapWhere(expr.arg, fn) });
    default:
      return fn(expr);
  }
}

/** A fault rewriting `filter.where` with `fn` (node by node, `mapWhere`) in recall and count. */
function whereFault(fn: (e: FilterExpr) => FilterExpr): ContractFault {
  const rewrite = (f: RecallFilter | undefined): RecallFilter | undefined => (f?.where ? { ...f, where: mapWhere(f.where, fn) } : f);
  return {
    collection: (inner: MemoryCollection) => ({
      recall: (q) => inner.recall({ ...q, filter: rewrite(q.filter) }),
      count: (f) => inner.count(rewrite(f)),
    }),
  };
}

/**
 * `requires` of a where mutant: `capability: vectors` / `capability: filterOperators` when
 * missing; n/a when the target declares none of `touches`; n/a naming the operators of `emits`
 * the target does not declare (its compiler would refuse the rewritten filter). Else null.
 */
function needsOperators(touches: readonly FilterOperator[], emits: readonly FilterOperator[]): (caps: Capabilities) => string | null {
  return (caps) => {
    if (!caps.vectors) return 'capability: vectors';
    const declared = new Set(caps.filterOperators);
    if (!touches.some((o) => declared.has(o))) return `filterOperators declares none of ${touches.join(' ')}`;
    const missing = emits.filter((o) => !declared.has(o));
    return missing.length ? `the rewrite emits ${missing.join(' ')}, not in filterOperators` : null;
  };
}

const FLIP = { $gt: '$lt', $lt: '$gt', $gte: '$lte', $lte: '$gte' } as const;

/** Range operators turned around ($gt↔$lt, $gte↔$lte): a comparison written with its operands swapped. */
export const filterOpFlip: Mutant = {
  name: 'filter-op-flip',
  family: 'filter',
  bug: 'range operators turned around ($gt↔$lt, $gte↔$lte): "after a date" returns what came before',
  requires: needsOperators(['$gt', '$gte', '$lt', '$lte'], ['$gt', '$gte', '$lt', '$lte']),
  fault: () => whereFault((e) => (e.op === '$gt' || e.op === '$gte' || e.op === '$lt' || e.op === '$lte' ? { ...e, op: FLIP[e.op] } : e)),
};

/**
 * `$ne` / `$nin` compiled as SQL `<>` / `NOT IN` over the value: a memory WITHOUT the key no
 * longer matches (the reference, docs/filters.md "Missing keys", says it does: `$ne` is `$not
 * $eq`). Rewritten as `$and [$exists true, $ne v]`.
 */
export const filterNeMissing: Mutant = {
  name: 'filter-ne-missing',
  family: 'filter',
  bug: '$ne / $nin skip memories that lack the key (SQL <> / NOT IN), where the reference matches them',
  requires: needsOperators(['$ne', '$nin'], ['$exists', '$and']),
  fault: () => whereFault((e) => ((e.op === '$ne' || e.op === '$nin') && e.field.root === 'metadata' ? { op: '$and', args: [{ op: '$exists', field: e.field, exists: true }, e] } : e)),
};

/** The number a loosely-typed layer turns a scalar into (`false`/`null`/`""` 0, `true` 1, a numeric string its number), or null. */
function looseNumber(v: FilterScalar): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null || v === '') return 0;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * Every scalar a coercing layer takes as equal to `v` (compare as numbers, as SQLite affinity,
 * PHP or JavaScript `==` do): for a value with a number n, n, `String(n)`, and `false`, `""`,
 * `null` when n is 0, `true` when n is 1; any other value (a non-numeric string, an instant) only
 * itself. `v` first, no duplicates.
 */
export function coercedValues(v: FilterScalar): FilterScalar[] {
  const n = looseNumber(v);
  if (n === null) return [v];
  const all: FilterScalar[] = [v, n, String(n)];
  if (n === 0) all.push(false, '', null);
  if (n === 1) all.push(true);
  return distinct(all);
}

/** `values` without repeats (−0 and 0 are one value, as the reference's `$eq` has it), first occurrence kept. */
function distinct(values: readonly FilterScalar[]): FilterScalar[] {
  const seen = new Set<string>();
  return values.filter((x) => {
    const key = `${x === null ? 'null' : typeof x}:${typeof x === 'object' && x !== null ? x.$date : String(x)}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** `$eq` / `$in` on metadata with loose typing: 0 = false = "" = null, "1" = 1 = true (`coercedValues`), as `$in`. */
export const filterCoercion: Mutant = {
  name: 'filter-coercion',
  family: 'filter',
  bug: '$eq / $in compare loosely typed: 0 = false = "" = null and "1" = 1 = true',
  requires: needsOperators(['$eq', '$in'], ['$in']),
  fault: () =>
    whereFault((e) => {
      if (e.op === '$eq' && e.field.root === 'metadata') return { op: '$in', field: e.field, values: coercedValues(e.value) };
      if (e.op === '$in' && e.field.root === 'metadata') return { op: '$in', field: e.field, values: distinct(e.values.flatMap(coercedValues)) };
      return e;
    }),
};

/** `$or` joined as `$and` (a builder that joins every list of conditions with AND). */
export const filterOrAsAnd: Mutant = {
  name: 'filter-or-as-and',
  family: 'filter',
  bug: '$or evaluated as $and: "a or b" returns only what matches both',
  requires: needsOperators(['$or'], ['$and']),
  fault: () => whereFault((e) => (e.op === '$or' ? { op: '$and', args: e.args } : e)),
};

/** Inclusive bounds made exclusive ($gte→$gt, $lte→$lt): an off-by-one at the boundary value. */
export const filterBoundExclusive: Mutant = {
  name: 'filter-bound-exclusive',
  family: 'filter',
  bug: 'inclusive range bounds made exclusive ($gte→$gt, $lte→$lt): the memory at the bound is lost',
  requires: needsOperators(['$gte', '$lte'], ['$gt', '$lt']),
  fault: () => whereFault((e) => (e.op === '$gte' ? { ...e, op: '$gt' } : e.op === '$lte' ? { ...e, op: '$lt' } : e)),
};

export const FILTER_WHERE_MUTANTS: readonly Mutant[] = [filterOpFlip, filterNeMissing, filterCoercion, filterOrAsAnd, filterBoundExclusive];
