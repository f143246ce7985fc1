import { MemoryMatrixError } from '../../errors';
import type { MemoryRecord } from '../../types';
import { metadataKindOf as kindOf, metadataValueAt, metadataValueDifference } from '../../metadata-value';

/**
 * A deterministic sample of min(`n`, records.length) DISTINCT records: every record `must` selects
 * (up to n), then an even stride over the rest. No randomness, so every target sees the same
 * sample. On a dataset smaller than `n` it returns every record once (never a duplicate).
 */
export function sampleRecords(records: MemoryRecord[], n: number, must: (r: MemoryRecord) => boolean = () => false): MemoryRecord[] {
  const picked = records.filter(must).slice(0, n);
  const ids = new Set(picked.map((r) => r.id));
  const rest = records.filter((r) => !ids.has(r.id));
  const need = Math.min(n - picked.length, rest.length);
  if (need > 0 && rest.length > 0) {
    const stride = rest.length / need;
    for (let i = 0; i < need && Math.floor(i * stride) < rest.length; i++) picked.push(rest[Math.floor(i * stride)]);
  }
  return picked;
}

/** Every n-th element (deterministic), at most `max`. */
export function every<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const stride = items.length / max;
  return Array.from({ length: max }, (_, i) => items[Math.floor(i * stride)]);
}

/**
 * The first field in which `b` differs from `a` (byte-level for strings, type-strict for metadata,
 * bit-level for embeddings — or, with `embeddingReadback` (the target's declared tolerance,
 * capabilities.ts `Tolerances`), each component within that relative difference), described for
 * a report; null when identical. With `embeddingReadBack` false (the target's capability of that
 * name) the vector is not compared: `b` must carry an empty one, as such a target's `get` returns.
 */
export function describeDifference(a: MemoryRecord, b: MemoryRecord, embeddingReadback?: number, embeddingReadBack = true): string | null {
  for (const f of ['id', 'namespace', 'text', 'kind', 'createdAt'] as const) {
    if (a[f] !== b[f]) return `${f} expected ${JSON.stringify(a[f])} got ${JSON.stringify(b[f])}`;
  }
  const ka = Object.keys(a.metadata).sort();
  const kb = Object.keys(b.metadata).sort();
  if (ka.join('\u0000') !== kb.join('\u0000')) return `metadata keys expected [${ka}] got [${kb}]`;
  for (const k of ka) {
    const at = metadataValueDifference(a.metadata[k], b.metadata![k], '');
    if (at !== null) {
      const [x, y] = [metadataValueAt(a.metadata[k], at), metadataValueAt(b.metadata![k], at)];
      return `metadata.${k}${at} expected ${JSON.stringify(x)} (${kindOf(x)}) got ${JSON.stringify(y)} (${kindOf(y)})`;
    }
  }

  // A target declaring `embeddingReadBack: false` returns no vector (an empty one): nothing to compare.
  if (!embeddingReadBack) return b.embedding.length === 0 ? null : `embedding of ${b.embedding.length} values returned, but the target declares embeddingReadBack false (get returns an empty one)`;
  if (a.embedding.length !== b.embedding.length) return `embedding length expected ${a.embedding.length} got ${b.embedding.length}`;
  for (let i = 0; i < a.embedding.length; i++) {
    const [x, y] = [a.embedding[i]!, b.embedding[i]!];
    if (Object.is(x, y)) continue;
    if (embeddingReadback !== undefined && Math.abs(x - y) <= embeddingReadback * Math.max(Math.abs(x), Math.abs(y))) continue;
    return `embedding[${i}] expected ${x} got ${y}${embeddingReadback !== undefined ? ` (beyond the declared relative readback tolerance ${embeddingReadback})` : ''}`;
  }
  return null;
}

/**
 * Throws INVALID_INPUT `<check>: dataset <name> has <have> memories; <what> needs at least <need>`
 * when a dataset is too small for a check to mean anything (never a TypeError or a false failure).
 */
export function requireMemories(check: string, datasetName: string, have: number, need: number, what: string): void {
  if (have < need) throw new MemoryMatrixError('INVALID_INPUT', `${check}: dataset ${datasetName} has ${have} memories; ${what} needs at least ${need}`);
}
