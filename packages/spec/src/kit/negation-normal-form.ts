// Negation normal form of a filter (issue 33 kit): for stores without a `not` (Chroma `where`,
// Milvus expressions), `$not` is pushed down to the leaves by De Morgan's laws and each leaf is
// compiled as its exact complement. The Chroma and Milvus compilers each had this walk.
import type { FilterExpr } from '../filter-lang/types';

/** A filter leaf: any node but `$and`, `$or`, `$not`. */
export type FilterLeaf = Exclude<FilterExpr, { op: '$and' | '$or' | '$not' }>;

/**
 * A filter in negation normal form: `$and` / `$or` of parts, and leaves carrying `negated`
 * (true when the leaf sits under an odd number of `$not`: it stands for its complement).
 */
export type NnfExpr = { op: '$and' | '$or'; args: NnfExpr[] } | { op: 'leaf'; leaf: FilterLeaf; negated: boolean };

/**
 * How `foldNegationNormalForm` builds a compiled form `T`: `leaf(e, negated)` a leaf or its exact
 * complement; `and` / `or` the parts' conjunction / disjunction; `not` (optional) called at each
 * `$not` met, before its operand is compiled, so a compiler without complements can refuse there.
 */
export interface NnfFold<T> {
  leaf(e: FilterLeaf, negated: boolean): T;
  and(parts: T[]): T;
  or(parts: T[]): T;
  not?(e: Extract<FilterExpr, { op: '$not' }>): void;
}

/**
 * Compile `expr` in negation normal form: a depth-first walk (arguments in order) carrying the
 * parity of the `$not`s above; `$and` under an odd parity becomes `or` of the negated parts and
 * `$or` becomes `and` (De Morgan), `$not` flips the parity, each leaf goes to `fold.leaf` with it.
 * Throws whatever the fold's functions throw, at the node that throws (nothing of its own).
 */
export function foldNegationNormalForm<T>(expr: FilterExpr, fold: NnfFold<T>): T {
  const walk = (e: FilterExpr, neg: boolean): T => {
    switch (e.op) {
      case '$and':
      case '$or': {
        const parts = e.args.map((a) => walk(a, neg));
        return (e.op === '$and') !== neg ? fold.and(parts) : fold.or(parts);
      }
      case '$not':
        fold.not?.(e);
        return walk(e.arg, !neg);
      default:
        return fold.leaf(e, neg);
    }
  };
  return walk(expr, false);
}

/**
 * `expr` as an `NnfExpr` tree (no `$not` left; leaves carry `negated`). Same walk as
 * `foldNegationNormalForm`; pure, no error.
 */
export function toNegationNormalForm(expr: FilterExpr): NnfExpr {
  return foldNegationNormalForm<NnfExpr>(expr, {
    leaf: (leaf, negated) => ({ op: 'leaf', leaf, negated }),
    and: (args) => ({ op: '$and', args }),
    or: (args) => ({ op: '$or', args }),
  });
}
