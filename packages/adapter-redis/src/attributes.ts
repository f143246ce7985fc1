import { MemoryMatrixError, type MemoryRecord, type MetadataValue, type RecallFilter } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * Typed filter attributes for Vector Sets (`VADD … SETATTR`, `VSIM … FILTER`).
 *
 * Why typed: VSIM's FILTER language conflates types. Measured on Redis 8.0.2 (and in its
 * modules/vector-sets/expr.c, `exprTokensEqual`): JSON booleans become the numbers 1/0, and a
 * string compared with a number is converted with strtod, a non-numeric string counting as 0 —
 * so `.x == 0` matches `false`, `0`, `""`, `"0"` and `"abc"` alike. The spec's filter is strict
 * (`0` ≠ `false` ≠ `""`, filter.ts). The language also has no `true`/`false`/`null` literals in
 * 8.0.2 (syntax error) and does not unescape string literals.
 *
 * So every filterable field is stored as a STRING whose first character is its JSON type and
 * whose rest is a canonical, quote-free spelling of the value:
 *   string  "s" + hex(UTF-8)      "abc" → "s616263", "" → "s"
 *   number  "n" + String(n)       0 → "n0", 1.5 → "n1.5", 1e21 → "n1e+21" (a filter's −0 is "n0")
 *   boolean "b1" | "b0"
 *   null    "z"
 * Both sides of every comparison are then strings, which expr.c compares with memcmp: equality
 * is exact in type and value, and no literal ever needs escaping. Attribute names are `ns`,
 * `kind` and `m_<hex(UTF-8 key)>` (selectors allow only `[A-Za-z0-9_-]`).
 */

/** The typed spelling of one scalar (see module doc). */
export function encodeScalar(v: MetadataValue): string {
  if (v === null) return 'z';
  switch (typeof v) {
    case 'string':
      return `s${Buffer.from(v, 'utf8').toString('hex')}`;
    case 'number':
      // String(−0) is "0", like −0 === 0 in the spec's filter; records never store −0 (validate.ts).
      if (!Number.isFinite(v)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: metadata number ${v} is not finite`);
      return `n${String(v)}`;
    case 'boolean':
      return v ? 'b1' : 'b0';
    default:
      throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: metadata value of type ${typeof v} is not a JSON scalar`);
  }
}

/** Attribute name of metadata key `key`: `m_` + hex of its UTF-8 bytes. */
export function metadataField(key: string): string {
  return `m_${Buffer.from(key, 'utf8').toString('hex')}`;
}

/** The VSETATTR JSON of a memory: `{"ns":…,"kind":…,"m_<hex>":…}` (all values typed strings). */
export function recordAttributes(r: Pick<MemoryRecord, 'namespace' | 'kind' | 'metadata'>): string {
  const a: Record<string, string> = { ns: encodeScalar(r.namespace), kind: encodeScalar(r.kind) };
  for (const [k, v] of Object.entries(r.metadata)) a[metadataField(k)] = encodeScalar(v);
  return JSON.stringify(a);
}

/**
 * The FILTER expression of a recall filter, or null when it adds no condition. Semantics are
 * spec filter.ts: namespaces IN, kinds IN, every metadata key equal in type and value (a missing
 * attribute makes the element not match, as a missing key must). An EMPTY namespaces/kinds list
 * matches nothing: the caller must not query at all (`matchesNothing`).
 */
export function filterExpression(filter?: RecallFilter): string | null {
  if (!filter) return null;
  const parts: string[] = [];
  const tuple = (vs: readonly string[]) => `[${vs.map((v) => `"${encodeScalar(v)}"`).join(',')}]`;
  if (filter.namespaces !== undefined) parts.push(`.ns in ${tuple(filter.namespaces)}`);
  if (filter.kinds !== undefined) parts.push(`.kind in ${tuple(filter.kinds)}`);
  for (const [k, v] of Object.entries(filter.metadata ?? {})) parts.push(`.${metadataField(k)} == "${encodeScalar(v)}"`);
  return parts.length ? parts.join(' and ') : null;
}

/** True when the filter has an empty namespaces or kinds list (IN of nothing). */
export function matchesNothing(filter?: RecallFilter): boolean {
  return filter?.namespaces?.length === 0 || filter?.kinds?.length === 0;
}
