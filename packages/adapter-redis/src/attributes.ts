import { MemoryMatrixError, parseInstant, type MemoryRecord, type MetadataValue, type RecallFilter } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * Filter attributes of a Vector Sets element (`VADD … SETATTR`, read by `VSIM … FILTER`;
 * filter-expr.ts compiles the filter language to expressions over them).
 *
 * Two facts of the FILTER language (Redis 8.0.6, modules/vector-sets/expr.c) shape the layout:
 * 1. it conflates types: JSON booleans become 1/0 and a string compared with a number is read
 *    with strtod (a non-numeric string is 0), so `.x == 0` matches `false`, `0`, `""`, `"0"`;
 * 2. a selector naming an attribute the element lacks makes the WHOLE expression false (`exprRun`
 *    returns 0 at once), so `.a == 1 or .b == 2` drops an element without `a` even if `b` is 2,
 *    and `not (.a == 1)` drops it too.
 * So every attribute the compiler reads is present on every element:
 *   ns    typed string of the namespace          kind  typed string of the kind
 *   t     createdAt, epoch milliseconds (number) tu    its further microseconds, 0..999 (number)
 *   e     array of "<hex(key)>:<typed value>", one per scalar metadata entry (`$eq`, `$in` by `in`)
 *   k     array of "<hex(key)>", one per metadata key present (`$exists`)
 *   x_<hex(key)>  for EVERY key of the collection's numeric-key registry (numeric-keys.ts): the
 *         value when it is a number, else the string "nan" (strtod reads NaN: in no range, so a
 *         range is false and its `not` true, as in the reference)
 * Typed strings (`encodeScalar`): first character the JSON type, the rest a quote-free spelling,
 *   string "s" + hex(UTF-8), number "n" + String(n), boolean "b1" | "b0", null "z";
 * both sides of an `in` are then strings compared with memcmp: equality is exact in type and
 * value, and no literal ever holds a quote or backslash.
 */

/** The typed spelling of one scalar (see module doc). Throws INVALID_INPUT for a non-finite number or a non-scalar. */
export function encodeScalar(v: MetadataValue): string {
  if (v === null) return 'z';
  switch (typeof v) {
    case 'string':
      return `s${hex(v)}`;
    case 'number':
      // String(−0) is "0", like −0 === 0 in the reference filter; records never store −0 (validate.ts).
      if (!Number.isFinite(v)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: metadata number ${v} is not finite`);
      return `n${String(v)}`;
    case 'boolean':
      return v ? 'b1' : 'b0';
    default:
      throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: metadata value of type ${typeof v} is not a JSON scalar`);
  }
}

/** Lower-case hex of the UTF-8 bytes of `s`. */
export function hex(s: string): string {
  return Buffer.from(s, 'utf8').toString('hex');
}

/** The entry of `e` for metadata key `key` holding `v`: `<hex(key)>:<typed v>`. */
export function eqEntry(key: string, v: MetadataValue): string {
  return `${hex(key)}:${encodeScalar(v)}`;
}

/** Attribute name of the numeric value of metadata key `key`: `x_` + hex of its UTF-8 bytes (selectors allow `[A-Za-z0-9_-]`). */
export function numericField(key: string): string {
  return `x_${hex(key)}`;
}

/** The metadata keys of `r` that hold a number (what the numeric-key registry must list before `r` is written). */
export function numericKeysOf(r: Pick<MemoryRecord, 'metadata'>): string[] {
  return Object.entries(r.metadata)
    .filter(([, v]) => typeof v === 'number')
    .map(([k]) => k);
}

/**
 * The VSETATTR JSON of a memory (module doc): `ns`, `kind`, `t`, `tu`, `e`, `k`, and `x_<hex>`
 * for every key of `numericKeys` (the collection's registry; default: the record's own numeric
 * keys, for a loader that writes one batch into a fresh set with the same keys on every record).
 * Throws INVALID_INPUT for a non-canonical createdAt or a numeric key of the record missing from `numericKeys`.
 */
export function recordAttributes(r: Pick<MemoryRecord, 'namespace' | 'kind' | 'metadata' | 'createdAt'>, numericKeys: Iterable<string> = numericKeysOf(r)): string {
  const at = parseInstant(r.createdAt, `${ADAPTER}: createdAt`);
  const a: Record<string, unknown> = { ns: encodeScalar(r.namespace), kind: encodeScalar(r.kind), t: at.ms, tu: at.us };
  a.e = Object.entries(r.metadata).map(([k, v]) => eqEntry(k, v));
  a.k = Object.keys(r.metadata).map(hex);
  const registered = new Set(numericKeys);
  for (const key of registered) {
    const v = Object.prototype.hasOwnProperty.call(r.metadata, key) ? r.metadata[key] : undefined;
    a[numericField(key)] = typeof v === 'number' ? v : 'nan';
  }
  for (const key of numericKeysOf(r)) {
    if (!registered.has(key)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: metadata key ${JSON.stringify(key)} holds a number but is not in the numeric-key registry`);
  }
  return JSON.stringify(a);
}

/** True when the filter has an empty namespaces or kinds list (IN of nothing): the caller must not query at all. */
export function matchesNothing(filter?: RecallFilter): boolean {
  return filter?.namespaces?.length === 0 || filter?.kinds?.length === 0;
}
