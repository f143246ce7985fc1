import type { MemoryRecord } from '../../types';

/**
 * A memory with a hand-made vector for geometric identities (C08, C12, C13): the text says what
 * it is; namespace `synthetic`; fixed createdAt. Not golden data — used only where a check needs
 * an exact geometric relation (identical, orthogonal, opposite).
 */
export function syntheticRecord(id: string, embedding: Float32Array, text = `synthetic ${id}`): MemoryRecord {
  return {
    id,
    namespace: 'synthetic',
    text,
    kind: 'fact',
    createdAt: '2024-01-01T00:00:00.000Z',
    metadata: { synthetic: true },
    embedding,
  };
}

/** Unit basis vector e_i of length `dim`, optionally scaled. */
export function basis(dim: number, i: number, scale = 1): Float32Array {
  const v = new Float32Array(dim);
  v[i] = scale;
  return v;
}

/** Element-wise a·x + b·y as float32. */
export function combine(x: Float32Array, a: number, y: Float32Array, b: number): Float32Array {
  return Float32Array.from(x, (xi, i) => a * xi + b * y[i]);
}
