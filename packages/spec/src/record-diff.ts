import { metadataValueAt, metadataValueDifference } from './metadata-value';
import type { Metadata, MemoryRecord } from './types';

/** The fields of a memory a migration or round trip must keep. */
export type RecordField = 'namespace' | 'kind' | 'text' | 'createdAt' | 'metadata' | 'embedding';

/**
 * One difference between an expected and an actual memory with the same id. `message` is a full
 * line naming the row first, e.g. `mem-00042: text differs at byte 17 ("…bar…" vs "…baz…")`.
 * `expected` / `actual` are the differing values (the whole text, one metadata value, one
 * component); `component` / `byte` / `key` locate it.
 */
export interface RecordDifference {
  id: string;
  field: RecordField;
  message: string;
  expected?: unknown;
  actual?: unknown;
  byte?: number;
  key?: string;
  component?: number;
}

/**
 * How vectors are compared.
 * - `bit-exact`: every float32 component identical (`Object.is`: −0 ≠ 0), for stores that keep
 *   the float32 as written (a float4 column, or an adapter's exact copy).
 * - `cosine`: 1 − cos(expected, actual) in float64 ≤ `maxCosineDistance`, for a side that only
 *   keeps a quantized vector; the bound is that target's declared score tolerance (capabilities.ts).
 */
export type VectorComparison = { mode: 'bit-exact' } | { mode: 'cosine'; maxCosineDistance: number };

/**
 * The first UTF-8 byte at which `a` and `b` differ (0-based), with a short quoted context of each
 * around it (code-point safe, `…` where cut); null when equal.
 */
export function firstByteDifference(a: string, b: string): { byte: number; expected: string; actual: string } | null {
  if (a === b) return null;
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  let i = 0;
  while (i < ba.length && i < bb.length && ba[i] === bb[i]) i++;
  return { byte: i, expected: context(ba, i), actual: context(bb, i) };
}

/** ~16 code points before and after byte `at` of `buf`, JSON-quoted, with `…` where cut. */
function context(buf: Buffer, at: number): string {
  let start = at;
  while (start > 0 && (buf[start]! & 0xc0) === 0x80) start--; // back to a code point start
  const before = [...buf.subarray(0, start).toString('utf8')];
  const after = [...buf.subarray(start).toString('utf8')];
  const head = before.slice(-16).join('');
  const tail = after.slice(0, 16).join('');
  return `${before.length > 16 ? '…' : ''}${JSON.stringify(head + tail).slice(1, -1)}${after.length > 16 ? '…' : ''}`;
}

/**
 * Deep equality of metadata (metadata-value.ts `metadataValueDifference`): the same keys at every
 * level (order ignored), array elements in order, each scalar `Object.is`-equal (0 ≠ false ≠ "" ≠
 * null, `[]` ≠ `{}`). One difference per top-level key, naming the first differing path inside it
 * (`key` is the top-level key; `expected` / `actual` the values at that path, undefined when absent).
 */
export function metadataDifferences(id: string, expected: Metadata, actual: Metadata): RecordDifference[] {
  const out: RecordDifference[] = [];
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  for (const key of keys) {
    const inE = Object.prototype.hasOwnProperty.call(expected, key);
    const inA = Object.prototype.hasOwnProperty.call(actual, key);
    const e = expected[key];
    const a = actual[key];
    const at = inE && inA ? metadataValueDifference(e, a, '') : '';
    if (at === null) continue;
    const ev = inE ? metadataValueAt(e, at) : undefined;
    const av = inA ? metadataValueAt(a, at) : undefined;
    const show = (v: unknown) => (v === undefined ? 'absent' : `${JSON.stringify(v)} (${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v})`);
    out.push({ id, field: 'metadata', key, expected: ev, actual: av, message: `${id}: metadata.${key}${at} differs (${show(ev)} vs ${show(av)})` });
  }
  return out;
}

/** Vector differences under `how` (at most one entry per record, naming the first differing component). */
export function vectorDifference(id: string, expected: Float32Array, actual: Float32Array, how: VectorComparison): RecordDifference | null {
  if (expected.length !== actual.length) {
    return { id, field: 'embedding', expected: expected.length, actual: actual.length, message: `${id}: embedding has ${actual.length} components, expected ${expected.length}` };
  }
  let first = -1;
  let count = 0;
  let maxAbs = 0;
  for (let i = 0; i < expected.length; i++) {
    if (Object.is(expected[i], actual[i])) continue;
    if (first < 0) first = i;
    count++;
    maxAbs = Math.max(maxAbs, Math.abs(expected[i]! - actual[i]!));
  }
  if (first < 0) return null;
  const where = `component ${first} (${expected[first]} vs ${actual[first]}); ${count} of ${expected.length} components differ, max |Δ| ${maxAbs.toExponential(2)}`;
  if (how.mode === 'bit-exact') {
    return { id, field: 'embedding', component: first, expected: expected[first], actual: actual[first], message: `${id}: embedding is not bit-exact: ${where}` };
  }
  const d = cosineDistance(expected, actual);
  if (d <= how.maxCosineDistance) return null;
  return {
    id,
    field: 'embedding',
    component: first,
    expected: how.maxCosineDistance,
    actual: d,
    message: `${id}: embedding 1 − cos ${d.toExponential(2)} > ${how.maxCosineDistance.toExponential(1)} (declared quantization error); ${where}`,
  };
}

/** 1 − cos(a, b) in float64 (1 when either is a zero vector). */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
}

/**
 * Every difference between two memories with the same id: namespace, kind, createdAt (byte for
 * byte), text (first differing UTF-8 byte with context), metadata (deep, typed), embedding (under
 * `vectors`). Pure; an empty list means equal.
 */
export function diffRecords(expected: MemoryRecord, actual: MemoryRecord, vectors: VectorComparison = { mode: 'bit-exact' }): RecordDifference[] {
  const id = expected.id;
  const out: RecordDifference[] = [];
  for (const field of ['namespace', 'kind', 'createdAt'] as const) {
    if (expected[field] !== actual[field]) {
      out.push({ id, field, expected: expected[field], actual: actual[field], message: `${id}: ${field} differs (${JSON.stringify(expected[field])} vs ${JSON.stringify(actual[field])})` });
    }
  }
  const t = firstByteDifference(expected.text, actual.text);
  if (t) out.push({ id, field: 'text', byte: t.byte, expected: expected.text, actual: actual.text, message: `${id}: text differs at byte ${t.byte} ("${t.expected}" vs "${t.actual}")` });
  out.push(...metadataDifferences(id, expected.metadata, actual.metadata));
  const v = vectorDifference(id, expected.embedding, actual.embedding, vectors);
  if (v) out.push(v);
  return out;
}
