import { type Failure, tieGroups, tieGroupViolations } from '../comparator';
import type { OracleResult } from '../oracle';
import type { RecallHit } from '../types';
import type { ScanMode } from '../conformance/cell';
import { type CheckDefinition, failure, needs } from './check';
import { mapBounded, RECALLS_IN_FLIGHT } from './helpers/bounded';
import { indexPlacementProblem, placementOf, placementProblem, reachK, spanWords } from './helpers/placement';
import { sampleRecords } from './helpers/sampling';

const SAMPLE = 200;
/** k of C02's self-queries (the exact path widens it per memory, `reachK`). */
export const SELF_RECALL_K = 10;

/**
 * C02 self-recall: querying with a stored memory's own embedding returns it exactly where the exact
 * oracle (dataset metric, float64) puts it — never assumed at rank 1: under inner product a short
 * vector ranks below a long one pointing the same way, and any metric has duplicates. For each
 * sampled memory, `placementOf` gives the rank span of its tie group (`tieEpsilon`) in the oracle's
 * full ranking of its own vector.
 * - Exact scan: the query asks k = `reachK` (max(`SELF_RECALL_K`, end of its span), ≤ 1000), so a
 *   memory the oracle ranks 40th is still asked for and judged; `placementProblem`: the memory is
 *   returned once, inside its span, and every rank up to its span holds a member of the oracle's
 *   tie group spanning that rank (a wrong memory at rank 1 fails even when the sampled one is
 *   second where it belongs). Every sampled memory must pass.
 * - Index scan (ANN): k = `SELF_RECALL_K`; `indexPlacementProblem` (returned no later than its span,
 *   or cut by k from a tie wall; a memory the oracle ranks past k: rank 1 in the oracle's rank-1
 *   group). The pass rate must reach the target's `annRecallFloor`.
 * Figures: `sampled`, `selfNearest` (sampled memories in the oracle's rank-1 tie group of their own
 * vector), `notSelfNearest`, `beyondK` (ranked past `SELF_RECALL_K` by the oracle), `maxK` (largest
 * exact-path k asked), per path the pass rate and, for the index path, the tie-wall cuts.
 * The recalls of one mode run `RECALLS_IN_FLIGHT` at a time on the shared golden collection, which no
 * check writes: each answer depends only on the stored rows and the query, so the same sample is
 * judged by the same rule as one by one (results kept in sample order, failures in the same order).
 */
export const c02SelfRecall: CheckDefinition = {
  id: 'C02',
  name: 'self-recall',
  fixtures: ['golden'],
  requires: needs('vectors'),
  async run(cell) {
    const { collection } = await cell.loaded();
    const sample = sampleRecords(cell.dataset.memories, SAMPLE);
    const eps = cell.config.tolerances.tieEpsilon;
    const modes: ScanMode[] = cell.scanModes();
    const placed = sample.map((r) => placementOf(cell.oracle, r.id, r.embedding, eps));
    const figures: Record<string, number> = {
      sampled: sample.length,
      selfNearest: placed.filter((p) => p.start === 0).length,
      notSelfNearest: placed.filter((p) => p.start > 0).length,
      beyondK: placed.filter((p) => p.start >= SELF_RECALL_K).length,
    };
    const failures: Failure[] = [];
    for (const scan of modes) {
      const missed: Failure[] = [];
      let tieWall = 0;
      const ks = placed.map((p) => (scan === 'exact' ? reachK(p, SELF_RECALL_K) : SELF_RECALL_K));
      if (scan === 'exact') figures.maxK = Math.max(0, ...ks);
      let done = 0;
      const step = `recall (${scan}) of ${sample.length} sampled memories by their own embedding`;
      cell.noteStep(step, done); // named by a time limit that runs out, from the first recall on
      const answers = await mapBounded(sample, RECALLS_IN_FLIGHT, async (r, i) => {
        const hits = await collection.recall({ vector: r.embedding, k: ks[i]!, scan });
        cell.noteStep(step, ++done);
        return hits;
      });
      for (const [i, r] of sample.entries()) {
        const hits = answers[i]!;
        const p = placed[i]!;
        const k = ks[i]!;
        const expected = cell.oracle.topK({ vector: r.embedding, k }, eps);
        const problem = scan === 'exact' ? placementProblem(expected, p, hits, k) : indexPlacementProblem(expected, p, hits, k);
        if (problem === null) {
          if (scan === 'index' && p.start < k && p.end > k && !hits.some((h) => h.id === r.id)) tieWall++;
          continue;
        }
        const rank = hits.findIndex((h) => h.id === r.id);
        missed.push(
          failure(cell, 'self-recall', `${scan} scan: memory ${r.id} queried with its own embedding (k ${k}): ${problem}`, {
            id: r.id,
            rank: rank < 0 ? undefined : rank + 1,
            expected: spanWords(p.start, p.end),
            actual: rank < 0 ? null : rank + 1,
          }),
        );
      }
      const rate = 1 - missed.length / sample.length;
      figures[`${scan}PassRate`] = rate;
      if (scan === 'index') figures.indexTieWallCuts = tieWall;
      if (scan === 'exact' || rate < cell.config.tolerances.annRecallFloor) failures.push(...missed.map((f) => ({ ...f, scan, filtered: false, threshold: false })));
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
 * the top-k, so each member must be returned. Pure. C02 itself now judges with
 * `indexPlacementProblem` (helpers/placement.ts), which applies this rule to a tie group at any rank.
 */
export function cutByTieWall(expected: OracleResult, hits: RecallHit[], id: string, k: number, eps: number): boolean {
  const groups = tieGroups(expected.hits, eps);
  const first = groups[0];
  if (!first || first.length <= k || hits.length !== k || !first.some((h) => h.id === id)) return false;
  return tieGroupViolations(groups, hits, k).length === 0;
}
