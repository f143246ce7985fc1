import { MemoryMatrixError } from '../errors';
import type { Metric } from '../types';

/** Allowed |‖v‖₂ − 1| under `normalization: "unit"` (float32 rounding is ~1e-7; this catches unnormalised data). */
export const UNIT_NORM_TOLERANCE = 1e-3;

/**
 * Decode `<name>.f32` bytes (little-endian float32, `rows × dim`, no header) into a Float32Array.
 * `f32File` and `jsonlFile` name the files in messages. Throws GOLDEN_INVALID when the size is
 * not `rows × dim × 4`, naming `<jsonlFile>:<line>` of the first record whose vector is short
 * (or the surplus bytes after the last record).
 */
export function decodeF32(bytes: Buffer, rows: number, dim: number, f32File: string, jsonlFile: string): Float32Array {
  const rowBytes = dim * 4;
  const want = rows * rowBytes;
  if (bytes.length !== want) {
    const head = `${f32File}: ${bytes.length} bytes, expected ${rows} records × ${dim} dims × 4 = ${want} bytes`;
    if (bytes.length < want) {
      const line = Math.floor(bytes.length / rowBytes) + 1;
      throw new MemoryMatrixError('GOLDEN_INVALID', `${head}; the vector of ${jsonlFile}:${line} is short (${bytes.length - (line - 1) * rowBytes} of ${rowBytes} bytes)`);
    }
    throw new MemoryMatrixError('GOLDEN_INVALID', `${head}; ${bytes.length - want} bytes after the vector of the last record ${jsonlFile}:${rows}`);
  }
  const out = new Float32Array(rows * dim);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** Encode row vectors (each of length `dim`) as little-endian float32 bytes, row after row. */
export function encodeF32(vectors: ArrayLike<number>[], dim: number): Buffer {
  const buf = Buffer.alloc(vectors.length * dim * 4);
  vectors.forEach((v, r) => {
    for (let j = 0; j < dim; j++) buf.writeFloatLE(v[j]!, (r * dim + j) * 4);
  });
  return buf;
}

/**
 * Check every row of `data` (`rows × dim`): finite components; not all-zero under cosine; norm
 * within UNIT_NORM_TOLERANCE of 1 when `unit`. `where(row)` names the record, e.g.
 * `x/memories.jsonl:12 (id "m12")`. Throws GOLDEN_INVALID.
 */
export function checkRows(data: Float32Array, dim: number, metric: Metric, unit: boolean, where: (row: number) => string): void {
  const rows = data.length / dim;
  for (let r = 0; r < rows; r++) {
    let n2 = 0;
    for (let j = 0; j < dim; j++) {
      const x = data[r * dim + j]!;
      if (!Number.isFinite(x)) throw new MemoryMatrixError('GOLDEN_INVALID', `${where(r)}: field "embedding": component ${j} is ${x}; vectors must be finite`);
      n2 += x * x;
    }
    if (n2 === 0 && metric === 'cosine') throw new MemoryMatrixError('GOLDEN_INVALID', `${where(r)}: field "embedding": zero vector under the cosine metric`);
    if (unit && Math.abs(Math.sqrt(n2) - 1) > UNIT_NORM_TOLERANCE) {
      throw new MemoryMatrixError('GOLDEN_INVALID', `${where(r)}: field "embedding": norm ${Math.sqrt(n2)} but manifest normalization is "unit"`);
    }
  }
}
