import { metadataKeyProblem, metadataNumberProblem, stringProblem } from './stored-values';
import type { MetadataValue } from './types';

/**
 * Nested and array metadata values (capability `metadataShapes`, golden-data/FORMAT.md "Metadata
 * values"): the ONE rule for what a value inside an object or an array may be, and how two values
 * compare. The rules, with their reason:
 * - a value is a JSON value: string, finite number, boolean, null, an array of values, or a plain
 *   object of values (RFC 8259 §3). Anything else (undefined, a function, a Date, a Map, a sparse
 *   array's hole) is refused: `JSON.stringify` would drop or change it without a word.
 * - strings and keys at every level follow stored-values.ts (a nested key is a path segment of the
 *   filter language and of JSON paths in SQLite / PostgreSQL, so the same key rule applies).
 * - numbers are IEEE-754 doubles, as JSON.parse gives them: `1.0` and `1` are the same value (no
 *   integer/float distinction: JavaScript has one number type), an integer above 2^53 is the
 *   double JSON.parse rounded it to (`9007199254740993` IS `9007199254740992` before any check sees
 *   it); −0 is refused (JSON stores keep no sign of zero) and NaN/±Infinity are refused, at every
 *   level, with the path of the value.
 * - object key order is not part of the value (jsonb sorts keys, RFC 8259 §4 calls objects
 *   unordered); array order is.
 * - depth: at most `MAX_METADATA_DEPTH` containers nested in a metadata value (`{a:{b:1}}` is 2).
 * - `0`, `false`, `""`, `null`, `[]` and `{}` are six different values (`metadataValueEqual`).
 */

/** The metadata shapes beyond flat scalars (capability `metadataShapes`): an object value, an array value. */
export type MetadataShape = 'nested' | 'array';

/** The deepest nesting of objects/arrays in one metadata value (SQLite's JSON parser allows 1000; 16 is far beyond what memory layers store). */
export const MAX_METADATA_DEPTH = 16;

/** A problem with a metadata value: where it is (`src.doc.year`, `labels[2]`) and what is wrong. `shape` set when only an undeclared shape is wrong. */
export interface MetadataValueProblem {
  path: string;
  problem: string;
  shape?: MetadataShape;
}

/** `path` + one key: `a.b`, or `a["x.y"]` when the key is not a plain word. */
export function metadataPathJoin(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Whether `v` is a plain object (`{}` or `Object.create(null)`), not an array, Date, Map or class instance. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The first problem of metadata value `value` at `path` (e.g. `metadata.src`), or null. `shapes`:
 * the shapes the caller stores (an object or array outside them is a problem with `shape` set, so
 * the caller throws CAPABILITY_MISSING rather than INVALID_INPUT); `inFilter`: −0 allowed.
 * Pure, no throw.
 */
export function metadataValueProblem(value: unknown, path: string, shapes: readonly MetadataShape[], inFilter = false, depth = 0): MetadataValueProblem | null {
  if (value === null || typeof value === 'boolean') return null;
  if (typeof value === 'string') {
    const p = stringProblem(value);
    return p === null ? null : { path, problem: p };
  }
  if (typeof value === 'number') {
    const p = metadataNumberProblem(value, inFilter);
    return p === null ? null : { path, problem: p };
  }
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) {
    const what = value === undefined ? 'undefined' : typeof value === 'object' ? ((value as object).constructor?.name ?? 'object') : typeof value;
    return { path, problem: `must be a string, finite number, boolean, null, array or plain object, got ${what}` };
  }
  const shape: MetadataShape = isArray ? 'array' : 'nested';
  if (!shapes.includes(shape)) return { path, shape, problem: `is ${isArray ? 'an array' : 'an object'}, a metadata shape ("${shape}") this target does not store (capability metadataShapes)` };
  if (depth + 1 > MAX_METADATA_DEPTH) return { path, problem: `nests deeper than ${MAX_METADATA_DEPTH} objects/arrays (MAX_METADATA_DEPTH)` };
  if (isArray) {
    const arr = value as unknown[];
    for (let i = 0; i < arr.length; i++) {
      if (!(i in arr)) return { path: `${path}[${i}]`, problem: 'is a hole of a sparse array (JSON has none)' };
      const p = metadataValueProblem(arr[i], `${path}[${i}]`, shapes, inFilter, depth + 1);
      if (p !== null) return p;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const kp = metadataKeyProblem(key);
    if (kp !== null) return { path: metadataPathJoin(path, key), problem: `key ${JSON.stringify(key)} ${kp}` };
    const p = metadataValueProblem(v, metadataPathJoin(path, key), shapes, inFilter, depth + 1);
    if (p !== null) return p;
  }
  return null;
}

/**
 * Exact equality of two metadata values: scalars `Object.is`-equal (so 0 ≠ false ≠ "" ≠ null, and
 * the type counts), arrays element by element in order, objects with the same keys in any order.
 */
export function metadataValueEqual(a: MetadataValue | undefined, b: MetadataValue | undefined): boolean {
  return metadataValueDifference(a, b, '') === null;
}

/** The path (relative to the value, `''` for the value itself) of the first difference between `a` and `b`, or null when equal. */
export function metadataValueDifference(a: unknown, b: unknown, path: string): string | null {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return path;
    if (a.length !== b.length) return path;
    for (let i = 0; i < a.length; i++) {
      const d = metadataValueDifference(a[i], b[i], `${path}[${i}]`);
      if (d !== null) return d;
    }
    return null;
  }
  const objA = typeof a === 'object' && a !== null;
  const objB = typeof b === 'object' && b !== null;
  if (objA || objB) {
    if (!objA || !objB) return path;
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort();
    for (const k of keys) {
      const sub = metadataPathJoin(path, k);
      if (!Object.prototype.hasOwnProperty.call(ra, k) || !Object.prototype.hasOwnProperty.call(rb, k)) return sub;
      const d = metadataValueDifference(ra[k], rb[k], sub);
      if (d !== null) return d;
    }
    return null;
  }
  return Object.is(a, b) ? null : path;
}

/** `v` with the keys of every object, at every level, in code-unit order (golden files' canonical form); arrays keep their order. */
export function sortedMetadataValue(v: MetadataValue): MetadataValue {
  if (Array.isArray(v)) return v.map(sortedMetadataValue);
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortedMetadataValue(v[k]!)]),
    );
  return v;
}

/** The value at relative `path` of `metadataValueDifference` inside `v` (for messages); undefined when absent. */
export function metadataValueAt(v: unknown, path: string): unknown {
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  let cur = v;
  for (const m of path.matchAll(re)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]!) as string));
    const rec = cur as Record<string | number, unknown>;
    if (!Object.prototype.hasOwnProperty.call(rec, key)) return undefined;
    cur = rec[key];
  }
  return cur;
}

/** A value's JSON type for messages: `null`, `array`, `object`, `string`, `number`, `boolean`, or `absent` for undefined. */
export function metadataKindOf(v: unknown): string {
  return v === undefined ? 'absent' : v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}
