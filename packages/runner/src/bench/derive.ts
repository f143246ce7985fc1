import { MemoryMatrixError, type GoldenDataset, type MemoryRecord } from '@memory-matrix/spec';

/**
 * Deterministic scale-up of a golden dataset to N memories, for the bench's scale curve.
 *
 * Memory i (0 ≤ i < N) of the derived set is
 *   a = i mod n                       (n = golden memories; every golden vector is used in turn)
 *   j = h1(i) mod n, moved to (j+1) mod n when it equals a
 *   w = 0.1 + 0.4 · h2(i) / 2³²        (a weight in [0.1, 0.5))
 *   v = normalize(g[a] + w · g[j])     (float64 arithmetic, stored as float32)
 * where g are the golden (unit) vectors and h1, h2 are splitmix32 hashes of i mixed with
 * DERIVE_SEED and with DERIVE_SEED + 1. Because every row depends only on i, any chunk
 * [start, end) can be generated on its own, in any order, and twice (load and oracle) with
 * identical bytes: nothing of the N × dim set is ever held whole. |v| before normalising is at
 * least 1 − w > 0.5 for unit g, so no row is a zero vector under cosine.
 * Id: `d` + i zero-padded to 7 digits (so id order = row order, up to 10 M rows); namespace,
 * kind, createdAt and metadata are golden memory a's; text is `derived <i> = <id a> + w·<id j>`.
 */

/** Seed of the derivation (the golden builder's seed, manifest.provenance.seed of agent-memories). */
export const DERIVE_SEED = 20241130;
/** Most rows a derived set may have (the id is padded to 7 digits). */
export const MAX_DERIVED = 10_000_000;

/** splitmix32 finaliser of x (uint32 in, uint32 out). */
export function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return (z ^ (z >>> 16)) >>> 0;
}

/** The id of derived row i. */
export function derivedId(i: number): string {
  return `d${String(i).padStart(7, '0')}`;
}

/** The two golden rows and the weight derived row i is made of (see the file comment). */
export function derivation(i: number, n: number): { a: number; j: number; w: number } {
  const a = i % n;
  let j = splitmix32((i ^ DERIVE_SEED) >>> 0) % n;
  if (j === a) j = (j + 1) % n;
  const w = 0.1 + (0.4 * splitmix32((i ^ (DERIVE_SEED + 1)) >>> 0)) / 2 ** 32;
  return { a, j, w };
}

/**
 * Rows [start, end) of the N-row derived set: `vectors` is a new row-major Float32Array of
 * (end − start) × dim, and (when `withRecords`) one MemoryRecord per row whose `embedding` is a
 * view into it. Throws INVALID_INPUT for a range outside [0, MAX_DERIVED] or an empty golden set.
 */
export function deriveChunk(ds: GoldenDataset, start: number, end: number, withRecords = true): { vectors: Float32Array; records: MemoryRecord[] } {
  const n = ds.memories.length;
  const dim = ds.manifest.dim;
  if (n < 2) throw new MemoryMatrixError('INVALID_INPUT', `deriveChunk: ${ds.dir} has ${n} memories; deriving needs at least 2`);
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > MAX_DERIVED) {
    throw new MemoryMatrixError('INVALID_INPUT', `deriveChunk: rows [${start}, ${end}) are not a range within [0, ${MAX_DERIVED}]`);
  }
  const g = ds.vectors;
  const vectors = new Float32Array((end - start) * dim);
  const tmp = new Float64Array(dim);
  const records: MemoryRecord[] = [];
  for (let i = start; i < end; i++) {
    const { a, j, w } = derivation(i, n);
    let s = 0;
    for (let c = 0; c < dim; c++) {
      const x = g[a * dim + c]! + w * g[j * dim + c]!;
      tmp[c] = x;
      s += x * x;
    }
    const inv = 1 / Math.sqrt(s);
    const base = (i - start) * dim;
    for (let c = 0; c < dim; c++) vectors[base + c] = tmp[c]! * inv;
    if (withRecords) {
      const m = ds.memories[a]!;
      records.push({
        id: derivedId(i),
        namespace: m.namespace,
        kind: m.kind,
        createdAt: m.createdAt,
        metadata: m.metadata,
        text: `derived ${i} = ${m.id} + ${w.toFixed(3)}·${ds.memories[j]!.id}`,
        embedding: vectors.subarray(base, base + dim),
      });
    }
  }
  return { vectors, records };
}
