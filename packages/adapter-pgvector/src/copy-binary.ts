import { endianness } from 'node:os';
import { parseInstant, type MemoryRecord } from '@memory-matrix/spec';

/**
 * Encoder of PostgreSQL's binary `COPY … FROM STDIN WITH (FORMAT binary)` payload for memory
 * rows, in the column order of the adapter's table (ddl.ts: id, namespace, kind, text, created_at,
 * metadata, embedding). The bulk path of `upsert` (upsert.ts) sends it; nothing is parsed from
 * text on the server, which is where the INSERT path spends its time (a 384-d vector literal is
 * ≈ 3.4 kB of decimal text for `vector_in` to parse).
 *
 * Format (PostgreSQL docs, "COPY — Binary Format"): the 11-byte signature `PGCOPY\n\377\r\n\0`,
 * int32 flags (0), int32 header-extension length (0); then per tuple an int16 field count and,
 * per field, an int32 byte length and the type's binary send form; the trailer is int16 −1. All
 * integers big-endian. Send forms used:
 *   text        UTF-8 bytes (the record validation has already refused NUL and lone surrogates);
 *   timestamptz int64 microseconds since 2000-01-01T00:00:00Z (integer datetimes, the only kind
 *               since PostgreSQL 10), microseconds of the canonical instant kept (spec time.ts);
 *   jsonb       a version byte 1 followed by the JSON text (jsonb_recv, src/backend/utils/adt/jsonb.c);
 *   vector      pgvector's vector_recv (src/vector.c): int16 dim, int16 unused (0), then dim
 *               float32 components, big-endian — bit for bit the Float32Array's values.
 */

/** The 19-byte binary COPY header: signature, flags 0, header-extension length 0. */
export const COPY_BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** The binary COPY trailer: int16 −1. */
export const COPY_BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/** The table's columns in the order the tuples carry them. */
export const COPY_COLUMNS = ['id', 'namespace', 'kind', 'text', 'created_at', 'metadata', 'embedding'] as const;

/** ms between the Unix epoch and PostgreSQL's epoch 2000-01-01T00:00:00Z. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
/** pgvector's VECTOR_MAX_DIM (src/vector.h). */
const VECTOR_MAX_DIM = 16_000;
/** Float32 components are copied as the host's bytes and byte-swapped to big-endian when the host is little-endian. */
const LITTLE_ENDIAN_HOST = endianness() === 'LE';

/** pgvector's binary `vector` (vector_recv): int16 dim, int16 0, dim × float32, big-endian. Throws RangeError when dim > 16000 (pgvector's VECTOR_MAX_DIM). */
export function encodeVectorBinary(v: ArrayLike<number>): Buffer {
  const b = Buffer.allocUnsafe(4 + 4 * v.length);
  writeVector(b, 0, v);
  return b;
}

/**
 * Write `v` in vector_recv form at `off` of `out`; returns the offset after it. The components go
 * in as one copy of their float32 bytes and one in-place `swap32` (not one `writeFloatBE` per
 * component: encodeCopyBinary of the 5,111 × 384 golden memories ≈ 50 → 27 ms, measured in one node process). Throws RangeError when dim > 16000.
 */
function writeVector(out: Buffer, off: number, v: ArrayLike<number>): number {
  const n = v.length;
  if (n > VECTOR_MAX_DIM) throw new RangeError(`encodeVectorBinary: ${n} dimensions exceed pgvector's ${VECTOR_MAX_DIM}`);
  off = out.writeInt16BE(n, off);
  off = out.writeInt16BE(0, off);
  const f32 = v instanceof Float32Array ? v : Float32Array.from(v);
  Buffer.from(f32.buffer, f32.byteOffset, 4 * n).copy(out, off);
  if (LITTLE_ENDIAN_HOST) out.subarray(off, off + 4 * n).swap32();
  return off + 4 * n;
}

/** Inverse of encodeVectorBinary (tests, COPY TO): a Float32Array of the components. */
export function decodeVectorBinary(b: Buffer): Float32Array {
  const dim = b.readInt16BE(0);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = b.readFloatBE(4 + 4 * i);
  return out;
}

/**
 * timestamptz send form of a canonical instant (spec time.ts, ms or µs precision): int64 µs since
 * 2000-01-01Z. Throws INVALID_INPUT (naming `where`) for a string that is not a canonical instant.
 */
export function encodeTimestamptzBinary(iso: string, where = 'createdAt'): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeBigInt64BE(timestamptzMicros(iso, where), 0);
  return b;
}

function timestamptzMicros(iso: string, where: string): bigint {
  const { ms, us } = parseInstant(iso, where);
  return BigInt(ms - PG_EPOCH_MS) * 1000n + BigInt(us);
}

/** A record's fields as the tuple writer needs them: the text fields, the metadata JSON, the instant (µs), and the tuple's size in bytes. */
interface PreparedRow {
  texts: [string, string, string, string];
  metadata: string;
  micros: bigint;
  embedding: ArrayLike<number>;
  bytes: number;
}

function prepareRow(r: MemoryRecord): PreparedRow {
  const texts: PreparedRow['texts'] = [r.id, r.namespace, r.kind, r.text];
  const metadata = JSON.stringify(r.metadata);
  const micros = timestamptzMicros(r.createdAt, `record ${r.id}: createdAt`);
  // field count, then per field its int32 length and its bytes
  let bytes = 2 + 7 * 4 + 8 + 1 + Buffer.byteLength(metadata, 'utf8') + 4 + 4 * r.embedding.length;
  for (const t of texts) bytes += Buffer.byteLength(t, 'utf8');
  return { texts, metadata, micros, embedding: r.embedding, bytes };
}

/** Write one tuple at `off` of `out` (which has room for `row.bytes`); returns the offset after it. */
function writeRow(out: Buffer, off: number, row: PreparedRow): number {
  off = out.writeInt16BE(COPY_COLUMNS.length, off);
  for (const t of row.texts) {
    const len = out.write(t, off + 4, 'utf8');
    off = out.writeInt32BE(len, off) + len;
  }
  off = out.writeInt32BE(8, off);
  off = out.writeBigInt64BE(row.micros, off);
  const len = out.write(row.metadata, off + 5, 'utf8');
  off = out.writeInt32BE(1 + len, off);
  off = out.writeUInt8(1, off) + len; // jsonb version 1
  off = out.writeInt32BE(4 + 4 * row.embedding.length, off);
  return writeVector(out, off, row.embedding);
}

/** One binary COPY tuple (the 7 fields of `COPY_COLUMNS`) of a memory record. Throws as `encodeCopyBinary`. */
export function encodeRowBinary(r: MemoryRecord): Buffer {
  const row = prepareRow(r);
  const out = Buffer.allocUnsafe(row.bytes);
  writeRow(out, 0, row);
  return out;
}

/**
 * A whole binary COPY payload: header, one tuple per record (in the order given), trailer, in ONE
 * buffer sized up front (no per-field buffers to concatenate). Throws INVALID_INPUT for a
 * createdAt that is not a canonical instant, RangeError for more than 16000 dimensions.
 */
export function encodeCopyBinary(records: readonly MemoryRecord[]): Buffer {
  const rows = records.map(prepareRow);
  const out = Buffer.allocUnsafe(COPY_BINARY_HEADER.length + rows.reduce((n, r) => n + r.bytes, 0) + COPY_BINARY_TRAILER.length);
  let off = COPY_BINARY_HEADER.copy(out, 0);
  for (const row of rows) off = writeRow(out, off, row);
  COPY_BINARY_TRAILER.copy(out, off);
  return out;
}
