import { MemoryMatrixError, recallFilterExpr, type FilterExpr, type FilterField, type FilterOperator, type FilterScalar, type RecallFilter } from '@memory-matrix/spec';
import { eqEntry, encodeScalar, hex, numericField } from './attributes';
import { ADAPTER } from './context';

/**
 * The operators `compileFilter` pushes down into `VSIM … FILTER` (capability `filterOperators`).
 * `$contains` is not among them: the adapter stores flat scalar metadata (no `metadataShapes`),
 * so it has no array to look into.
 */
export const REDIS_FILTER_OPERATORS: readonly FilterOperator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$and', '$or', '$not'];

/** The constant expressions (a number literal alone is a whole expression: 0 is false, 1 true). */
const FALSE = '0';
const TRUE = '1';

/**
 * Compile a filter tree to a Vector Sets FILTER expression over the attributes of attributes.ts,
 * with the reference semantics of docs/filters.md. Each part reads only attributes every element
 * has (a missing one would make the whole expression false, expr.c `exprRun`):
 * - namespace / kind `$eq` / `$in`: `.ns == "<typed>"`, `.ns in ["<typed>", …]` (typed strings);
 * - metadata `$eq v` / `$in`: `"<hex(key)>:<typed v>" in .e` (type-strict: `0`, `false`, `""`,
 *   `null` are different strings; an instant equals no metadata value: `0`);
 * - `$ne` / `$nin`: `not (…)` of the above, so a missing key matches, as in the reference;
 * - ranges on metadata: `.x_<hex(key)> > <number>` when `key` is in `numericKeys` (the registry:
 *   every element has the attribute, "nan" when its value is not a number, which no range holds);
 *   a key never stored as a number has no number in any range: `0`;
 * - `createdAt`: `.t` (epoch ms) and `.tu` (µs): `$gt I` is `.t > ms or (.t == ms and .tu > us)`;
 * - `$exists`: `"<hex(key)>" in .k`; namespace / kind / createdAt always exist;
 * - a path of two or more keys (nested metadata) is missing on every element (no nested values are stored);
 * - `$and` / `$or` / `$not`: `and` / `or` / `not`, every operand parenthesised.
 * Number literals are written without a signed exponent (expr.c reads `1e-7` and `1e+21` as
 * syntax errors) and without `+`. Pure. Throws CAPABILITY_MISSING for a number the FILTER language
 * cannot spell (a literal is at most 255 characters: |v| below about 1e-250), INVALID_INPUT for
 * a node it does not know.
 */
export function compileFilter(expr: FilterExpr, numericKeys: ReadonlySet<string>): string {
  switch (expr.op) {
    case '$and':
    case '$or':
      return expr.args.map((a) => `(${compileFilter(a, numericKeys)})`).join(expr.op === '$and' ? ' and ' : ' or ');
    case '$not':
      return `not (${compileFilter(expr.arg, numericKeys)})`;
    case '$eq':
      return equals(expr.field, [expr.value]);
    case '$ne':
      return `not (${equals(expr.field, [expr.value])})`;
    case '$in':
      return equals(expr.field, expr.values);
    case '$nin':
      return `not (${equals(expr.field, expr.values)})`;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return range(expr.op, expr.field, expr.value, numericKeys);
    case '$exists': {
      const present = expr.field.root !== 'metadata' ? TRUE : expr.field.path.length === 1 ? `"${hex(expr.field.path[0]!)}" in .k` : FALSE;
      return expr.exists ? present : `not (${present})`;
    }
    case '$contains':
      return FALSE; // no stored value is an array (the adapter declares no metadataShapes): a scalar contains nothing
    default:
      throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: filter: unknown node ${JSON.stringify((expr as { op?: unknown }).op)}`);
  }
}

/**
 * The FILTER expression of a whole recall filter (`recallFilterExpr`: namespaces, kinds,
 * metadata and `where` ANDed), or null when it restricts nothing. `numericKeys`: the collection's
 * registry (numeric-keys.ts). Throws as `compileFilter`.
 */
export function compileRecallFilter(filter: RecallFilter | undefined, numericKeys: ReadonlySet<string>): string | null {
  const expr = recallFilterExpr(filter);
  return expr === undefined ? null : compileFilter(expr, numericKeys);
}

/** The field equals one of `values` (type-strict); `0` for an empty list or when no value can match. */
function equals(field: FilterField, values: readonly FilterScalar[]): string {
  if (field.root === 'namespace' || field.root === 'kind') {
    const sel = field.root === 'namespace' ? '.ns' : '.kind';
    const strings = [...new Set(values.filter((v): v is string => typeof v === 'string'))];
    if (strings.length === 0) return FALSE;
    return strings.length === 1 ? `${sel} == "${encodeScalar(strings[0]!)}"` : `${sel} in [${strings.map((s) => `"${encodeScalar(s)}"`).join(', ')}]`;
  }
  if (field.root === 'createdAt') {
    const parts = values.flatMap((v) => (typeof v === 'object' && v !== null ? [`(.t == ${literal(v.ms)} and .tu == ${literal(v.us)})`] : []));
    return parts.length === 0 ? FALSE : parts.join(' or ');
  }
  if (field.path.length !== 1) return FALSE;
  const key = field.path[0]!;
  const entries = [...new Set(values.flatMap((v) => (typeof v === 'object' && v !== null ? [] : [eqEntry(key, v)])))];
  return entries.length === 0 ? FALSE : entries.map((e) => `"${e}" in .e`).join(' or ');
}

const RANGE_SYMBOL = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function range(op: keyof typeof RANGE_SYMBOL, field: FilterField, value: FilterScalar, numericKeys: ReadonlySet<string>): string {
  const sym = RANGE_SYMBOL[op];
  if (field.root === 'createdAt') {
    if (typeof value !== 'object' || value === null) return FALSE;
    const outer = op === '$gt' || op === '$gte' ? '>' : '<';
    return `(.t ${outer} ${literal(value.ms)}) or (.t == ${literal(value.ms)} and .tu ${sym} ${literal(value.us)})`;
  }
  if (field.root !== 'metadata' || typeof value !== 'number' || field.path.length !== 1 || !numericKeys.has(field.path[0]!)) return FALSE;
  return `.${numericField(field.path[0]!)} ${sym} ${literal(value)}`;
}

/**
 * A finite number as an expr.c number literal: plain decimal (`1e-7` → `0.0000001`), or
 * `<mantissa>e<exponent>` for a positive exponent (`1e+21` → `1e21`; expr.c takes `e` but no
 * sign after it), read back by strtod as the same double (JS prints the shortest round-trip
 * spelling). Throws CAPABILITY_MISSING when it would exceed expr.c's 255 characters.
 */
export function literal(n: number): string {
  if (!Number.isFinite(n)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: filter number ${n} is not finite`);
  const s = String(n === 0 ? 0 : n);
  let out = s;
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-])(\d+)$/.exec(s);
  if (m) {
    const [, sign, int, frac = '', esign, exp] = m;
    if (esign === '+') out = `${sign}${int}${frac ? `.${frac}` : ''}e${exp}`;
    else out = `${sign}0.${'0'.repeat(Number(exp) - 1)}${int}${frac}`;
  }
  if (out.length > 255) {
    throw new MemoryMatrixError(
      'CAPABILITY_MISSING',
      `${ADAPTER}: filter number ${s} cannot be written in the Vector Sets FILTER language (a number literal has no negative exponent and at most 255 characters)`,
    );
  }
  return out;
}
