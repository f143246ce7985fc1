import { vectorPairTolerance } from '../tolerance';
import { MemoryMatrixError } from '../errors';
import { referenceScore } from '../scores';
import type { MemoryRecord, Metric } from '../types';
import { sampleRecords } from './helpers/sampling';

/** k of every C27 recall: at least the most memories the collection ever holds (`C27_MAX_LIVE`), so a stored memory is always in the answer, whatever its rank. */
export const C27_RECALL_K = 10;

/** Distinct memories C27 needs: 1 + 5 + 3 written in fresh ids, 2 donors of the overwrite's new embeddings. */
export const C27_MIN_MEMORIES = 11;

/**
 * One round of C27: one acknowledged write, then the reads that must reflect it.
 * - `round`: 1-based; `label`: what the write is (`single write`, `batch of 5`, …);
 * - `op`: `upsert` or `delete`;
 * - `records`: upsert — the records as written; delete — the stored versions of the ids deleted;
 * - `replaced`: upsert of existing ids (the overwrite) — the versions stored before it, by id;
 * - `expectedCount`: the collection's count once the write is acknowledged.
 */
export interface C27Round {
  round: number;
  label: string;
  op: 'upsert' | 'delete';
  records: MemoryRecord[];
  replaced?: ReadonlyMap<string, MemoryRecord>;
  expectedCount: number;
}

/** The most memories the collection of `c27Rounds` holds at once (6, after round 2 and round 3; 8 after round 5). */
export const C27_MAX_LIVE = 8;

/**
 * The rounds of C27 on a dataset, deterministic (same memories → same rounds on every target), in
 * fresh ids `c27-r<round>-<dataset id>` so no round reads a memory an earlier write left behind:
 * 1. a single write (1 memory);
 * 2. a batch of 5;
 * 3. an overwrite of 2 existing ids (round 1's and one of round 2's) with a NEW embedding (a donor's),
 *    new text and new metadata — reads must return the new version;
 * 4. a delete of 1 id (of round 2);
 * 5. a batch of 3;
 * 6. a delete of 4 ids (round 5's three and the overwritten id of round 2).
 * The memories have distinct embeddings, and each donor's embedding scores against the vector it
 * replaces at least 4 × (tolerance of the self score + tolerance of the cross score) away from both
 * vectors' self scores (tolerance.ts; 8 · `scoreTolerance` at unit norms; spec `referenceScore`
 * under `metric`), so a recall tells the old version from the new one beyond the target's tolerance.
 * Throws INVALID_INPUT when the dataset has fewer than `C27_MIN_MEMORIES` distinct embeddings or no
 * donor far enough from a replaced vector.
 */
export function c27Rounds(datasetName: string, memories: MemoryRecord[], metric: Metric, scoreTolerance: number): C27Round[] {
  const seen = new Set<string>();
  const distinct = memories.filter((m) => {
    const key = Buffer.from(m.embedding.buffer, m.embedding.byteOffset, m.embedding.byteLength).toString('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (distinct.length < C27_MIN_MEMORIES) {
    throw new MemoryMatrixError('INVALID_INPUT', `C27: dataset ${datasetName} has ${distinct.length} memories with distinct embeddings; its rounds need at least ${C27_MIN_MEMORIES}`);
  }
  const pool = sampleRecords(distinct, Math.min(distinct.length, 40));
  const fresh = (round: number, m: MemoryRecord): MemoryRecord => ({ ...m, id: `c27-r${round}-${m.id}`, metadata: { ...m.metadata, c27Round: round } });
  const r1 = [fresh(1, pool[0]!)];
  const r2 = pool.slice(1, 6).map((m) => fresh(2, m));
  const r5 = pool.slice(6, 9).map((m) => fresh(5, m));
  const donorsLeft = pool.slice(9);
  // Twice the two scores' tolerances (tolerance model, tolerance.ts), × 4: 8 · scoreTolerance at unit norms.
  const gap = (a: Float32Array, b: Float32Array): number => 4 * (vectorPairTolerance(scoreTolerance, metric, a, a) + vectorPairTolerance(scoreTolerance, metric, a, b));
  const donorFor = (old: MemoryRecord): MemoryRecord => {
    const selfOld = referenceScore(metric, old.embedding, old.embedding);
    const i = donorsLeft.findIndex((d) => {
      const cross = referenceScore(metric, old.embedding, d.embedding);
      return Math.abs(selfOld - cross) > gap(old.embedding, d.embedding) && Math.abs(referenceScore(metric, d.embedding, d.embedding) - cross) > gap(d.embedding, old.embedding);
    });
    if (i < 0)
      throw new MemoryMatrixError(
        'INVALID_INPUT',
        `C27: dataset ${datasetName}: no memory's embedding differs enough from ${old.id}'s to tell an overwrite from the old version (score gap > 8 × the pair's score tolerance, ${gap(old.embedding, old.embedding) / 2} for the memory against itself)`,
      );
    return donorsLeft.splice(i, 1)[0]!;
  };
  const overwritten = [r1[0]!, r2[1]!];
  const r3 = overwritten.map((old) => {
    const donor = donorFor(old);
    return { ...old, text: `${old.text} (c27 overwrite)`, embedding: donor.embedding, metadata: { c27Round: 3, c27Version: 'new', c27From: donor.id } };
  });
  return [
    { round: 1, label: 'single write', op: 'upsert', records: r1, expectedCount: 1 },
    { round: 2, label: `batch of ${r2.length}`, op: 'upsert', records: r2, expectedCount: 1 + r2.length },
    {
      round: 3,
      label: `overwrite of ${r3.length} existing ids with new embeddings and payloads`,
      op: 'upsert',
      records: r3,
      replaced: new Map(overwritten.map((o) => [o.id, o])),
      expectedCount: 1 + r2.length,
    },
    { round: 4, label: 'delete of 1 id', op: 'delete', records: [r2[0]!], expectedCount: r2.length },
    { round: 5, label: `batch of ${r5.length}`, op: 'upsert', records: r5, expectedCount: r2.length + r5.length },
    { round: 6, label: `delete of ${r5.length + 1} ids`, op: 'delete', records: [...r5, r3[1]!], expectedCount: r2.length - 1 },
  ];
}
