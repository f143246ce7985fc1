import { mulberry32, type MemoryKind, type MemoryRecord, type Metric } from '@memory-matrix/spec';

/**
 * Deterministic test data for the adapter's unit tests only (golden data for the matrix comes
 * from real embeddings, see golden-data/). mulberry32 PRNG + Box–Muller normals.
 */
export const prng: (seed: number) => () => number = mulberry32;

export function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/**
 * `n` "real-ish" vectors of `dim`: points around `clusters` random centres (like topics in
 * embedding space), noise 0.6 of the centre's scale, normalised to unit length.
 */
export function clusteredVectors(n: number, dim: number, seed: number, clusters = 40): Float32Array[] {
  const rand = prng(seed);
  const centres = Array.from({ length: clusters }, () => Float64Array.from({ length: dim }, () => normal(rand)));
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(rand() * clusters)]!;
    const v = Float64Array.from(c, (x) => x + 0.6 * normal(rand));
    const norm = Math.hypot(...v);
    return Float32Array.from(v, (x) => x / norm);
  });
}

const KINDS: MemoryKind[] = ['fact', 'preference', 'episode', 'summary'];

/** Records `m00000…` over the vectors, 4 namespaces, all kinds, metadata with a falsy mix. */
export function records(vectors: Float32Array[], prefix = 'm'): MemoryRecord[] {
  return vectors.map((embedding, i) => ({
    id: `${prefix}${String(i).padStart(5, '0')}`,
    namespace: `user_${i % 4}`,
    kind: KINDS[i % 4]!,
    text: `memory ${i}`,
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    metadata: { i, flag: i % 3 === 0 ? 0 : i % 3 === 1 ? false : '', even: i % 2 === 0 },
    embedding,
  }));
}

/** float64 canonical score (cosine similarity, inner product, −Euclidean distance). */
export function score(metric: Metric, a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let l2 = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
    l2 += (x - y) * (x - y);
  }
  if (metric === 'cosine') return dot / Math.sqrt(na * nb);
  if (metric === 'ip') return dot;
  return -Math.sqrt(l2);
}

/** Brute-force top-k over `rs` (float64), ties by id ascending. */
export function bruteForce(metric: Metric, rs: MemoryRecord[], q: Float32Array, k: number): Array<{ id: string; score: number }> {
  return rs
    .map((r) => ({ id: r.id, score: score(metric, q, r.embedding) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, k);
}
