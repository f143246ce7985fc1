import { MemoryMatrixError, parseInstant } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * Value encodings between the contract and SQLite.
 * - Vectors: vec0 takes and returns `float[dim]` as a BLOB of `dim` little-endian IEEE-754 float32
 *   values (sqlite-vec docs, "Vector formats"); the bytes of the caller's `Float32Array` are bound
 *   as is, so the stored vector is bit-identical to the written one.
 * - Instants: `createdAt` is stored as the caller's text (byte for byte, C01) and, for time decay
 *   in SQL, also as `created_ms` (epoch milliseconds, integer) and `created_us` (0..999 extra
 *   microseconds), from spec `parseInstant`.
 * - Metadata: JSON text (`JSON.stringify`), so its types (0 / "" / false / null) survive; −0 is
 *   refused at write (JSON has no −0).
 */

/** The vec0 BLOB of a float32 vector (a copy of its bytes; the machine is little-endian, as vec0 assumes). */
export function vectorToBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

/** A vec0 float32 BLOB back to a `Float32Array` of `dim`; BACKEND_ERROR naming `where` when its length is not 4·dim. */
export function blobToVector(blob: unknown, dim: number, where: string): Float32Array {
  if (!Buffer.isBuffer(blob) || blob.length !== 4 * dim) {
    const len = Buffer.isBuffer(blob) ? `${blob.length} bytes` : typeof blob;
    throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: stored embedding is ${len}, expected ${4 * dim} bytes (float[${dim}])`);
  }
  const out = new Float32Array(dim);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

/** `createdAt` split for SQL: epoch ms and extra µs (spec time.ts `Instant`). Throws INVALID_INPUT naming `where`. */
export function instantColumns(createdAt: string, where: string): { ms: number; us: number } {
  return parseInstant(createdAt, `${ADAPTER}: ${where}`);
}
