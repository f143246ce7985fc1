import { type Failure, tieGroups, tieGroupViolations } from '../comparator';
import type { OracleResult } from '../oracle';
import type { RecallHit } from '../types';
import type { ScanMode } from '../conformance/cell';
import { type CheckDefinition, failure, needs } from './check';
import { mapBounded, RECALLS_IN_FLIGHT } from './helpers/bounded';
import { sampleRecords } from './helpers/sampling';

const SAMPLE = 200;
/** k of C02's self-queries. */
export const SELF_RECALL_K = 10;

/**
 * C02 self-recall: querying with a stored memory's own embedding returns it at rank 1, or inside
 * the rank-1 tie group (hits within `tieEpsilon` of the top score — duplicates of the same vector).
 * A memory cut from a rank-1 tie group wider than k is no miss when the whole top-k is that group
 * (`cutByTieWall`: C03's tie-group rule, the group cut by k compared as a subset).
 * Exact scan: every sampled memory must pass. Index scan (ANN): the pass rate must reach the
 * target's `annRecallFloor`, since an approximate index may legitimately miss a few.
 * The recalls of one mode run `RECALLS_IN_FLIGHT` at a time on the shared golden collection, which no
 * check writes: each answer depends only on the stored rows and the query, so the same sample is
 * judged by the same rule as one by one (results kept in sample order, failures in the same order).
 */
export const c02SelfRecall: CheckDefinition = {
  id: 'C02',
  name: 'self-recall',
  requires: needs('vectors'),
  async run(cell) {
    const { collection } = await cell.loaded();
    const sample = sampleRecords(cell.dataset.memories, SAMPLE);
    const eps = cell.config.tolerances.tieEpsilon;
    const modes: ScanMode[] = cell.config.capabilities.exactScan ? ['exact', 'index'] : ['index'];
    const figures: Record<string, number> = { sampled: sample.length };
    const failures: Failure[] = [];
    for (const scan of modes) {
      const missed: Failure[] = [];
      let tieWall = 0;
      const answers = await mapBounded(sample, RECALLS_IN_FLIGHT, (r) => collection.recall({ vector: r.embedding, k: SELF_RECALL_K, scan }));
      for (const [i, r] of sample.entries()) {
        const hits = answers[i]!;
        const top = hits[0]?.score ?? Number.NaN;
        const rankOneGroup = hits.filter((h) => Math.abs(h.score - top) <= eps).map((h) => h.id);
        if (!rankOneGroup.includes(r.id)) {
          if (cutByTieWall(cell.oracle.topK({ vector: r.embedding, k: SELF_RECALL_K }, eps), hits, r.id, SELF_RECALL_K, eps)) {
            tieWall++;
            continue;
          }
          const rank = hits.findIndex((h) => h.id === r.id);
          missed.push(
            failure(cell, 'self-recall', selfMissMessage(scan, r.id, rank, hits), {
              id: r.id,
              rank: rank < 0 ? undefined : rank + 1,
              expected: 1,
              actual: rank < 0 ? null : rank + 1,
            }),
          );
        }
      }
      const rate = 1 - missed.length / sample.length;
      figures[`${scan}PassRate`] = rate;
      figures[`${scan}TieWallCuts`] = tieWall;
      if (scan === 'exact' || rate < cell.config.tolerances.annRecallFloor) failures.push(...missed);
    }
    return { figures, failures };
  },
};

/**
 * Whether memory `id`, absent from the rank-1 tie group of its own self-query `hits`, was only cut
 * by k from a tie wall: the `expected` oracle result of that query (`ExactOracle.topK` with
 * `eps`, boundary ties included) has a rank-1 tie group (`tieGroups`, `eps`) of MORE than `k`
 * members holding `id`, exactly `k` hits came back, and they satisfy C03's tie-group rule
 * (`tieGroupViolations` empty: every hit is a member of that group). A group of ≤ k members fits in
 * the top-k, so each member must be returned. Pure.
 */
export function cutByTieWall(expected: OracleResult, hits: RecallHit[], id: string, k: number, eps: number): boolean {
  const groups = tieGroups(expected.hits, eps);
  const first = groups[0];
  if (!first || first.length <= k || hits.length !== k || !first.some((h) => h.id === id)) return false;
  return tieGroupViolations(groups, hits, k).length === 0;
}

/**
 * The words of a C02 miss: memory `id` at 0-based `rank` of its own self-query `hits` (−1: absent).
 * Says what happened without contradicting itself: a non-finite rank-1 score belongs to no tie
 * group, so a memory AT rank 1 with such a score is named as that, not as "rank 1 is …".
 */
export function selfMissMessage(scan: string, id: string, rank: number, hits: readonly RecallHit[]): string {
  const head = `${scan} scan: memory ${id} queried with its own embedding`;
  const first = hits[0];
  if (!first) return `${head} is not in the top ${SELF_RECALL_K}: the recall returned no hits`;
  const where = rank < 0 ? `is not in the top ${SELF_RECALL_K}` : `is at rank ${rank + 1}`;
  if (!Number.isFinite(first.score)) {
    const top = rank === 0 ? ' with' : `; rank 1 is ${first.id} with`;
    return `${head} ${where}${top} the non-finite score ${first.score}, which no rank-1 tie group can hold`;
  }
  return `${head} ${where}; rank 1 is ${first.id} (score ${first.score})`;
}
