import type { MemoryRecord } from '../types';

/**
 * HNSW graphs link exact duplicates (memories whose embeddings are bit-identical) to each other at
 * distance 0, and one build may leave some of them unreachable where the next does not: every HNSW
 * implementation in the catalog does (design.md "ANN noise"). Agent memory holds such duplicates
 * (the same fact stored again). A query below C05's per-query floor only because members of such a
 * group were not returned is reported, not failed; a query that misses any other expected memory
 * is held to the floor. The exact path (C02, C03) still requires every duplicate.
 */

/** The embedding's bytes as a key: equal keys ⇔ bit-identical `Float32Array`s. */
function vectorKey(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

/**
 * The ids among `expectedIds` that belong to a group of at least two memories of `expectedIds`
 * with bit-identical embeddings (`memories` by id; an id not in it is in no group).
 */
export function duplicateMembers(expectedIds: readonly string[], memories: ReadonlyMap<string, MemoryRecord>): Set<string> {
  const byKey = new Map<string, string[]>();
  for (const id of expectedIds) {
    const m = memories.get(id);
    if (!m) continue;
    const k = vectorKey(m.embedding);
    byKey.set(k, [...(byKey.get(k) ?? []), id]);
  }
  return new Set([...byKey.values()].filter((ids) => ids.length >= 2).flat());
}

/**
 * Whether a query's shortfall is duplicates only: in every run (`returnedPerRun`, the ids each run
 * returned), each of `expectedIds` that was not returned belongs to a group of identical embeddings
 * among them (`duplicateMembers`). False when nothing was missed (no shortfall to explain).
 */
export function duplicateOnlyShortfall(expectedIds: readonly string[], returnedPerRun: ReadonlyArray<ReadonlySet<string>>, memories: ReadonlyMap<string, MemoryRecord>): boolean {
  const dups = duplicateMembers(expectedIds, memories);
  let missed = false;
  for (const returned of returnedPerRun) {
    for (const id of expectedIds) {
      if (returned.has(id)) continue;
      if (!dups.has(id)) return false;
      missed = true;
    }
  }
  return missed;
}
