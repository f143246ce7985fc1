import type { Failure } from '../comparator';
import type { MemoryRecord, Metadata } from '../types';
import { type CheckDefinition, failure, needs } from './check';
import { oracleOver, placementOf, placementProblem, reachK } from './helpers/placement';
import { describeDifference, requireMemories, sampleRecords } from './helpers/sampling';

/** Memories C21 needs: one stored and one donor. */
export const C21_MIN_MEMORIES = 2;

/**
 * C21 idempotent-upsert: writing the same memories twice yields one memory each; re-writing with
 * new content keeps one memory that is exactly the new record — no duplicate in count, get or
 * recall, no loss, nothing of the old record left. The first write carries `C21_OLD_METADATA`
 * on top of each memory's own metadata; the update (`revised`) changes the text and embedding,
 * REMOVES a key (`c21Stale`, and the memory's own first key when it has one), changes value types
 * (1 → "1", false → 0) and adds a key, so an upsert that merges metadata (Chroma's own upsert
 * does), keeps the old text, or coerces a type back fails on the re-read (`describeDifference`,
 * type-strict). Each updated memory is recalled with its new embedding and must come back exactly
 * once, where the exact oracle over the collection's expected contents puts it (`placementProblem`
 * on the exact path: inside its tie group's span, the ranks before it by the tie-group rule; k
 * widened to reach that span) — never assumed to be its own nearest neighbour. Without an exact
 * path: exactly once in the top k.
 */

export const c21IdempotentUpsert: CheckDefinition = {
  id: 'C21',
  name: 'idempotent-upsert',
  requires: needs('vectors', 'upsert'),
  async run(cell) {
    // Up to 60 stored memories and up to 10 donors of new embeddings, disjoint from them (a donor
    // that is also stored would give recall a second memory with the same vector): n ≥ 2.
    const n = cell.dataset.memories.length;
    requireMemories('C21', cell.datasetName, n, C21_MIN_MEMORIES, 'a stored memory and a disjoint donor of its new embedding');
    const nDonors = Math.min(10, Math.floor(n / 2));
    const records = sampleRecords(cell.dataset.memories, Math.min(60, n - nDonors));
    const stored = new Set(records.map((r) => r.id));
    const donors = sampleRecords(cell.dataset.memories.filter((r) => !stored.has(r.id)).reverse(), nDonors);
    const { collection } = await cell.scratch('c21');
    const original = records.map((r) => ({ ...r, metadata: { ...r.metadata, ...C21_OLD_METADATA } }));
    await collection.upsert(original);
    await collection.upsert(original);
    const failures: Failure[] = [];
    const c1 = await collection.count();
    if (c1 !== records.length) failures.push(failure(cell, 'upsert', `after writing ${records.length} memories twice, count is ${c1}`, { expected: records.length, actual: c1 }));
    const changed = original.slice(0, donors.length).map((r, i) => revised(r, i, donors[i]!.embedding));
    await collection.upsert(changed);
    const c2 = await collection.count();
    if (c2 !== records.length)
      failures.push(failure(cell, 'upsert', `after updating ${changed.length} memories, count is ${c2}, expected ${records.length}`, { expected: records.length, actual: c2 }));
    const back = new Map((await collection.get(changed.map((r) => r.id))).map((r) => [r.id, r]));
    const unchanged = new Map((await collection.get(original.slice(donors.length).map((r) => r.id))).map((r) => [r.id, r]));
    for (const r of original.slice(donors.length)) {
      const b = unchanged.get(r.id);
      const diff = b ? describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack) : 'missing after the update of other memories';
      if (diff) failures.push(failure(cell, 'upsert', `memory ${r.id} (not updated): ${diff}`, { id: r.id }));
    }
    // What the collection must hold now, and the exact oracle over exactly that: an updated memory
    // need not be its own nearest neighbour (inner product, duplicates), so each recall asks for k
    // reaching its tie group's span and is judged where the oracle puts it.
    const eps = cell.config.tolerances.tieEpsilon;
    const exact = cell.config.capabilities.exactScan;
    const sub = oracleOver([...changed, ...original.slice(donors.length)], cell.dataset.manifest.dim, cell.dataset.manifest.metric);
    let maxK = 0;
    for (const r of changed) {
      const b = back.get(r.id);
      const diff = b ? describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack) : 'missing after update';
      if (diff) failures.push(failure(cell, 'upsert', `memory ${r.id} after update: ${diff}`, { id: r.id }));
      const p = placementOf(sub, r.id, r.embedding, eps);
      const k = reachK(p, 10);
      maxK = Math.max(maxK, k);
      const hits = await collection.recall({ vector: r.embedding, k, scan: exact ? 'exact' : undefined });
      const n = hits.filter((h) => h.id === r.id).length;
      const problem = exact ? placementProblem(sub.topK({ vector: r.embedding, k }, eps), p, hits, k) : n === 1 ? null : `it is returned ${n} time(s)`;
      if (problem) failures.push(failure(cell, 'upsert', `recall (k ${k}) with the updated embedding of ${r.id}: ${problem}`, { id: r.id, expected: 1, actual: n }));
    }
    return { figures: { memories: records.length, countAfterRepeat: c1, countAfterUpdate: c2, updated: changed.length, recallMaxK: maxK }, failures };
  },
};

/** Keys C21's first write adds to every memory's metadata; `revised` removes `c21Stale` and retypes the others. */
export const C21_OLD_METADATA: Readonly<Metadata> = { c21Stale: 'old value', c21Count: 1, c21Flag: false };

/**
 * The update of `r` C21 writes (i-th updated memory): text `<text> (revised i)`, the donor's
 * `embedding`, metadata without `c21Stale` and without the memory's own first key (sorted order)
 * when it has one, `c21Count` 1 → "1", `c21Flag` false → 0, and a new key `revision` = i + 1.
 */
export function revised(r: MemoryRecord, i: number, embedding: Float32Array): MemoryRecord {
  const own = Object.keys(r.metadata)
    .filter((k) => !(k in C21_OLD_METADATA))
    .sort()[0];
  const metadata: Metadata = {};
  for (const [k, v] of Object.entries(r.metadata)) if (k !== 'c21Stale' && k !== own) metadata[k] = v;
  return { ...r, text: `${r.text} (revised ${i})`, embedding, metadata: { ...metadata, c21Count: '1', c21Flag: 0, revision: i + 1 } };
}
