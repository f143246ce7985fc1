import type { MemoryRecord } from '@memory-matrix/spec';

/** The record `i` of batch `n` of kill cycle `cycle`: deterministic, so the audit can tell a changed record from a written one. */
export function durabilityRecord(cycle: number, n: number, i: number, dim: number): MemoryRecord {
  const embedding = new Float32Array(dim);
  for (let d = 0; d < dim; d++) embedding[d] = Math.sin(cycle * 7919 + n * 104729 + i * 31 + d) + 1.5;
  return {
    id: `c${cycle}-b${String(n).padStart(5, '0')}-${String(i).padStart(2, '0')}`,
    namespace: `ns-${i % 3}`,
    text: `cycle ${cycle} batch ${n} record ${i} — 記憶 🧠`,
    kind: 'episode',
    createdAt: new Date(Date.UTC(2024, 4, 1) + n * 1000 + i).toISOString(),
    metadata: { cycle, batch: n, i, even: i % 2 === 0, note: i % 5 === 0 ? '' : 'x' },
    embedding,
  };
}
