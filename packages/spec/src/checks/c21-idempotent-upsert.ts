import type { Failure } from '../comparator';
import { type CheckDefinition, failure, needs } from './check';
import { describeDifference, requireMemories, sampleRecords } from './helpers/sampling';

/**
 * C21 idempotent-upsert: writing the same memories twice yields one memory each; re-writing with
 * new content (text, metadata, embedding) keeps one memory with the newest content — no duplicate
 * in count, get or recall, no loss.
 */
/** Memories C21 needs: one stored and one donor. */
export const C21_MIN_MEMORIES = 2;

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
    await collection.upsert(records);
    await collection.upsert(records);
    const failures: Failure[] = [];
    const c1 = await collection.count();
    if (c1 !== records.length) failures.push(failure(cell, 'upsert', `after writing ${records.length} memories twice, count is ${c1}`, { expected: records.length, actual: c1 }));
    const changed = records.slice(0, donors.length).map((r, i) => ({
      ...r,
      text: `${r.text} (revised ${i})`,
      metadata: { ...r.metadata, revision: i + 1 },
      embedding: donors[i]!.embedding,
    }));
    await collection.upsert(changed);
    const c2 = await collection.count();
    if (c2 !== records.length)
      failures.push(failure(cell, 'upsert', `after updating ${changed.length} memories, count is ${c2}, expected ${records.length}`, { expected: records.length, actual: c2 }));
    const back = new Map((await collection.get(changed.map((r) => r.id))).map((r) => [r.id, r]));
    for (const r of changed) {
      const b = back.get(r.id);
      const diff = b ? describeDifference(r, b) : 'missing after update';
      if (diff) failures.push(failure(cell, 'upsert', `memory ${r.id} after update: ${diff}`, { id: r.id }));
      const hits = await collection.recall({ vector: r.embedding, k: 10, scan: cell.config.capabilities.exactScan ? 'exact' : undefined });
      const n = hits.filter((h) => h.id === r.id).length;
      if (n !== 1) failures.push(failure(cell, 'upsert', `recall with the updated embedding of ${r.id} returns it ${n} time(s)`, { id: r.id, expected: 1, actual: n }));
    }
    return { figures: { memories: records.length, countAfterRepeat: c1, countAfterUpdate: c2, updated: changed.length }, failures };
  },
};
