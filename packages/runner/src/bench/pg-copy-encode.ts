import type { MemoryRecord } from '@memory-matrix/spec';
import { vectorToLiteral } from '@memory-matrix/adapter-pgvector';

/**
 * Encoders for PostgreSQL `COPY … FROM STDIN` of memory rows, in the column order of the
 * adapter's table (id, namespace, kind, text, created_at, metadata, embedding).
 *
 * Binary format (PostgreSQL docs, "COPY — Binary Format"): the 11-byte signature
 * `PGCOPY\n\377\r\n\0`, int32 flags (0), int32 header-extension length (0); then per tuple an
 * int16 field count and, per field, an int32 byte length and the type's binary send form; the
 * trailer is int16 −1. All integers big-endian. Send forms used:
 *   text      UTF-8 bytes;
 *   timestamptz int64 microseconds since 2000-01-01T00:00:00Z (integer datetimes);
 *   jsonb     a version byte 1 followed by the JSON text (jsonb_recv);
 *   vector    pgvector's vector_recv (src/vector.c): int16 dim, int16 unused (0), then dim
 *             float32 components, big-endian.
 */

/** The 19-byte binary COPY header: signature, flags 0, header-extension length 0. */
export const COPY_BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** The binary COPY trailer: int16 −1. */
export const COPY_BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/** ms between the Unix epoch and PostgreSQL's epoch 2000-01-01T00:00:00Z. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);

/** pgvector's binary `vector` (vector_recv): int16 dim, int16 0, dim × float32, big-endian. Throws RangeError when dim > 16000 (pgvector's VECTOR_MAX_DIM). */
export function encodeVectorBinary(v: ArrayLike<number>): Buffer {
  if (v.length > 16_000) throw new RangeError(`encodeVectorBinary: ${v.length} dimensions exceed pgvector's 16000`);
  const b = Buffer.allocUnsafe(4 + 4 * v.length);
  b.writeInt16BE(v.length, 0);
  b.writeInt16BE(0, 2);
  for (let i = 0; i < v.length; i++) b.writeFloatBE(v[i]!, 4 + 4 * i);
  return b;
}

/** Inverse of encodeVectorBinary (for tests and COPY TO): a Float32Array of the components. */
export function decodeVectorBinary(b: Buffer): Float32Array {
  const dim = b.readInt16BE(0);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = b.readFloatBE(4 + 4 * i);
  return out;
}

/** timestamptz send form of an ISO-8601 instant (ms precision): int64 µs since 2000-01-01Z. */
export function encodeTimestamptzBinary(iso: string): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeBigInt64BE(BigInt(Date.parse(iso) - PG_EPOCH_MS) * 1000n, 0);
  return b;
}

function field(value: Buffer): Buffer[] {
  const len = Buffer.allocUnsafe(4);
  len.writeInt32BE(value.length, 0);
  return [len, value];
}

/** One binary COPY tuple (7 fields) of a memory record. */
export function encodeRowBinary(r: MemoryRecord): Buffer {
  const count = Buffer.allocUnsafe(2);
  count.writeInt16BE(7, 0);
  return Buffer.concat([
    count,
    ...field(Buffer.from(r.id, 'utf8')),
    ...field(Buffer.from(r.namespace, 'utf8')),
    ...field(Buffer.from(r.kind, 'utf8')),
    ...field(Buffer.from(r.text, 'utf8')),
    ...field(encodeTimestamptzBinary(r.createdAt)),
    ...field(Buffer.concat([Buffer.from([1]), Buffer.from(JSON.stringify(r.metadata), 'utf8')])),
    ...field(encodeVectorBinary(r.embedding)),
  ]);
}

/** A whole binary COPY payload (header, one tuple per record, trailer). */
export function encodeCopyBinary(records: MemoryRecord[]): Buffer {
  return Buffer.concat([COPY_BINARY_HEADER, ...records.map(encodeRowBinary), COPY_BINARY_TRAILER]);
}

/** COPY text-format escaping of one field: backslash, tab, newline and carriage return. */
export function escapeCopyText(s: string): string {
  return s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** One COPY text line (tab-separated, newline-terminated); the vector is the adapter's own text literal. */
export function encodeRowText(r: MemoryRecord): string {
  return [r.id, r.namespace, r.kind, r.text, r.createdAt, JSON.stringify(r.metadata), vectorToLiteral(r.embedding)].map(escapeCopyText).join('\t') + '\n';
}

/** A whole COPY text payload for `records`. */
export function encodeCopyText(records: MemoryRecord[]): string {
  return records.map(encodeRowText).join('');
}
