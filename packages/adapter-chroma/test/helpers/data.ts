import type { MemoryRecord, Metadata } from '@memory-matrix/spec';

/** A memory with a hand-made vector (namespace `u1` unless given). */
export function rec(id: string, embedding: number[], metadata: Metadata = {}, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id,
    namespace: 'u1',
    text: `text of ${id}`,
    kind: 'fact',
    createdAt: '2024-05-01T09:30:00.123Z',
    metadata,
    embedding: Float32Array.from(embedding),
    ...extra,
  };
}

/** A deterministic pseudo-random float32 vector of length `dim` (seeded sine walk). */
export function vec(seed: number, dim: number): Float32Array {
  return Float32Array.from({ length: dim }, (_, i) => (Math.sin(seed * 12.9898 + i * 78.233) * 43758.5453) % 1);
}

/** A random-ish collection name. */
export function collName(label: string): string {
  return `${label}_${process.pid}_${Math.random().toString(16).slice(2, 8)}`;
}
