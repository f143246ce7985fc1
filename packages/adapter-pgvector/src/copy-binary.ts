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

/** pgvector's binary `vector` (vector_recv): int16 dim, int16 0, dim × float32, big-endian. Throws RangeError when dim > 16000 (pgvector's VECTOR_MAX_DIM). */
export function encodeVectorBinary(v: ArrayLike<number>): Buffer {
  if (v.length > 16_000) throw new RangeError(`encodeVectorBinary: ${v.length} dimensions exceed pgvector's 16000`);
  const b = Buffer.allocUnsafe(4 + 4 * v.length);
  b.writeInt16BE(v.length, 0);
  b.writeInt16BE(0, 2);
  for (let i = 0; i < v.length; i++) b.writeFloatBE(v[i]!, 4 + 4 * i);
  return b;
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
  const { ms, us } = parseInstant(iso, where);
  const b = Buffer.allocUnsafe(8);
  b.writeBigInt64BE(BigInt(ms - PG_EPOCH_MS) * 1000n + BigInt(us), 0);
  return b;
}

function field(value: Buffer): Buffer[] {
  const len = Buffer.allocUnsafe(4);
  len.writeInt32BE(value.length, 0);
  return [len, value];
}

/** One binary COPY tuple (the 7 fields of `COPY_COLUMNS`) of a memory record. */
export function encodeRowBinary(r: MemoryRecord): Buffer {
  const count = Buffer.allocUnsafe(2);
  count.writeInt16BE(COPY_COLUMNS.length, 0);
  return Buffer.concat([
    count,
    ...field(Buffer.from(r.id, 'utf8')),
    ...field(Buffer.from(r.namespace, 'utf8')),
    ...field(Buffer.from(r.kind, 'utf8')),
    ...field(Buffer.from(r.text, 'utf8')),
    ...field(encodeTimestamptzBinary(r.createdAt, `record ${r.id}: createdAt`)),
    ...field(Buffer.concat([Buffer.from([1]), Buffer.from(JSON.stringify(r.metadata), 'utf8')])),
    ...field(encodeVectorBinary(r.embedding)),
  ]);
}

/** A whole binary COPY payload: header, one tuple per record (in the order given), trailer. */
export function encodeCopyBinary(records: readonly MemoryRecord[]): Buffer {
  return Buffer.concat([COPY_BINARY_HEADER, ...records.map(encodeRowBinary), COPY_BINARY_TRAILER]);
}
