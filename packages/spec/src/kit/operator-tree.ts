// A filter expression as a MongoDB-like operator tree (issue 33 kit): `{ key: { op: operand } }`
// leaves under `$and` / `$or` / `$not` lists, the shape Mastra's and mem0's filters take. The walk
// the Mastra and mem0 compilers each wrote; what differs between layers is the style's.
import type { FilterExpr, FilterField } from '../filter-lang/types';
import { instantAsMicros } from './filter-pushdown';

/** A comparison or list operator of the filter language as the tree names it. */
export type TreeLeafOperator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$nin';

/** A node of the layer's filter object. */
export type TreeNode = Record<string, unknown>;

/**
 * How one layer spells the tree. Defaults: `$and` / `$or` → `{ $and | $or: [children] }`,
 * `$not` → `{ $not: child }`, a leaf → `{ key: { op: operand } }` with the language's operator
 * name, instants as epoch microseconds (spec kit `instantAsMicros`).
 */
export interface OperatorTreeStyle {
  /** The layer's key for `field`; throws the driver's refusals (a reserved key, a nested path). */
  key(field: FilterField): string;
  /** The layer's name of a leaf operator (mem0: `eq`, `in`…); default the language's (`$eq`…). */
  opName?: (op: TreeLeafOperator) => string;
  /** `$and` of `args` (`walk` compiles a child); default `{ $and: args.map(walk) }`. */
  and?: (args: FilterExpr[], walk: (e: FilterExpr) => TreeNode) => TreeNode;
  /** `$or` of `args`; default `{ $or: args.map(walk) }`. */
  or?: (args: FilterExpr[], walk: (e: FilterExpr) => TreeNode) => TreeNode;
  /** `$not` of the compiled child; default `{ $not: child }`. */
  not?: (child: TreeNode) => TreeNode;
  /** `$exists` on the layer's key; absent: `$exists` is refused with `cannot`. */
  exists?: (key: string, exists: boolean) => TreeNode;
  /** The error for an operator the layer does not compile (`what`: `operator $contains`). */
  cannot(what: string): Error;
}

/**
 * `expr` as the layer's operator tree under `style` (see `OperatorTreeStyle` for the shapes). The
 * key of a leaf is taken before its operand. Throws what `style.key` throws and `style.cannot(...)`
 * for `$contains` and for `$exists` without `style.exists`.
 */
export function compileOperatorTree(expr: FilterExpr, style: OperatorTreeStyle): TreeNode {
  const name = style.opName ?? ((op: TreeLeafOperator) => op);
  const walk = (e: FilterExpr): TreeNode => {
    switch (e.op) {
      case '$and':
        return style.and ? style.and(e.args, walk) : { $and: e.args.map(walk) };
      case '$or':
        return style.or ? style.or(e.args, walk) : { $or: e.args.map(walk) };
      case '$not':
        return style.not ? style.not(walk(e.arg)) : { $not: walk(e.arg) };
      case '$eq':
      case '$ne':
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        return { [style.key(e.field)]: { [name(e.op)]: instantAsMicros(e.value) } };
      case '$in':
      case '$nin':
        return { [style.key(e.field)]: { [name(e.op)]: e.values.map(instantAsMicros) } };
      case '$exists':
        if (style.exists) return style.exists(style.key(e.field), e.exists);
        throw style.cannot(`operator ${e.op}`);
      default:
        throw style.cannot(`operator ${e.op}`);
    }
  };
  return walk(expr);
}
