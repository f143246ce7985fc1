import type { Failure } from '../comparator';
import { whereOf } from '../conformance/where';
import { thresholdBoundary } from './c09-boundary';
import { type CheckDefinition, failure, needs } from './check';
import { every } from './helpers/sampling';

const SAMPLE = 40;
const K = 50;

/**
 * C09 threshold: `minScore = t` keeps exactly the memories whose oracle score is ≥ t. For a
 * sample of unfiltered golden queries, t is the oracle's score at rank 3…22 (so the kept set is
 * smaller than k = 50 and the threshold sits between real scores); ids whose oracle score is within
 * their score tolerance of t (tolerance.ts: `scoreTolerance` scaled by dimension and norms) may
 * fall either side (float32 storage), all others must be on the right side. Uses the exact scan when the target has one. On a target without one (the ANN path) a
 * missing id above the threshold is a recall miss, not a threshold error: those are counted, and
 * the check fails only when the recall of the above-threshold sets falls under the target's
 * `annRecallFloor`; an id returned below the threshold is always a failure.
 * Because that band hides the one row where `>` and `>=` differ, the check then probes the
 * boundary itself on every metric the target supports (c09-boundary.ts): rows whose score equals
 * minScore exactly in float32 and float64 (identical → 1, orthogonal → 0, scaled e₀) must be kept,
 * and the row δ below each threshold must not, with no tolerance band.
 */
export const c09Threshold: CheckDefinition = {
  id: 'C09',
  name: 'threshold',
  fixtures: ['golden'],
  requires: needs('vectors', 'threshold'),
  async run(cell) {
    const { collection } = await cell.loaded();
    const scan = cell.config.capabilities.exactScan ? ('exact' as const) : ('index' as const);
    const failures: Failure[] = [];
    const queries = every(
      cell.dataset.queries.filter((q) => !q.filter && q.minScore === undefined),
      SAMPLE,
    );
    let kept = 0;
    let shouldKeep = 0;
    const annMisses: Failure[] = [];
    const where = whereOf({ minScore: 0 }, scan, cell.dataset.manifest.metric); // unfiltered, with a threshold
    for (const [i, q] of queries.entries()) {
      const ranked = cell.oracle.topK({ vector: q.vector, k: K }, 0).hits;
      const t = ranked[Math.min(2 + (i % 20), ranked.length - 1)].score;
      const hits = await collection.recall({ vector: q.vector, k: K, minScore: t, scan });
      kept += hits.length;
      const got = new Set(hits.map((h) => h.id));
      const tols = cell.oracle.tolerancesFor(q.vector, cell.config.tolerances);
      for (const h of ranked) {
        if (Math.abs(h.score - t) <= tols.score(h.id)) continue;
        const should = h.score >= t;
        if (should) shouldKeep++;
        if (should !== got.has(h.id)) {
          (should && scan === 'index' ? annMisses : failures).push(
            failure(cell, 'threshold', `query ${q.id}, minScore ${t}: id ${h.id} (oracle score ${h.score}) ${should ? 'missing' : 'returned but below the threshold'}`, {
              queryId: q.id,
              id: h.id,
              expected: should ? 'kept' : 'dropped',
              actual: should ? 'dropped' : 'kept',
              ...where,
            }),
          );
        }
      }
      for (const h of hits) {
        if (h.score < t - tols.score(h.id))
          failures.push(failure(cell, 'threshold', `query ${q.id}: returned id ${h.id} with score ${h.score} < minScore ${t}`, { queryId: q.id, id: h.id, ...where }));
      }
    }
    const recall = shouldKeep ? 1 - annMisses.length / shouldKeep : 1;
    if (recall < cell.config.tolerances.annRecallFloor) failures.push(...annMisses);
    const boundary = await thresholdBoundary(cell);
    failures.push(...boundary.failures);
    return {
      figures: { queries: queries.length, scan, keptTotal: kept, aboveThreshold: shouldKeep, annMissed: annMisses.length, thresholdRecall: recall, ...boundary.figures },
      failures,
      notes:
        annMisses.length && recall >= cell.config.tolerances.annRecallFloor
          ? [
              `ANN path: ${annMisses.length} of ${shouldKeep} ids above the threshold not returned (recall ${recall.toFixed(4)} ≥ floor ${cell.config.tolerances.annRecallFloor}); e.g. ${annMisses[0].message}`,
            ]
          : [],
    };
  },
};
