import type { Failure } from '../comparator';
import { whereOf } from '../conformance/where';
import { referenceScore } from '../scores';
import { vectorPairTolerance } from '../tolerance';
import { type CheckDefinition, failure, needs } from './check';
import { every } from './helpers/sampling';
import { PROBE_EXPECTED, probeVectors } from './helpers/probes';
import { syntheticRecord } from './helpers/synthetic';
import { tieOrderViolations } from './helpers/tie-order';

/**
 * C08 score-canonical: the canonical score is within the tolerance model's figure (tolerance.ts:
 * `scoreTolerance` scaled by dimension and norms) of the float64 reference —
 * identical → 1, orthogonal → 0, opposite → −1 under cosine — for every metric the adapter
 * supports (a fresh collection per metric with five probe vectors), and on a sample of golden
 * queries against `referenceScore` of each returned id. The probes' exact ties (cosine: same and
 * scaled at 1; l2: scaled and opposite at −2) must come in ascending id order, the contract's
 * tie-break that C07 asserts on the golden replays: here it costs no golden replay.
 */
export const c08ScoreCanonical: CheckDefinition = {
  id: 'C08',
  name: 'score-canonical',
  fixtures: ['golden'],
  requires: needs('vectors'),
  async run(cell) {
    const dim = cell.dataset.manifest.dim;
    const tol = cell.config.tolerances.scoreTolerance;
    const failures: Failure[] = [];
    const figures: Record<string, number> = {};
    const probes = probeVectors(dim);
    const e0 = probes.same;
    for (const metric of cell.config.capabilities.metrics) {
      const { collection } = await cell.scratch(`c08_${metric}`, { metric });
      await collection.upsert(Object.entries(probes).map(([id, v]) => syntheticRecord(id, v)));
      await collection.buildIndex();
      const scan = cell.config.capabilities.exactScan ? ('exact' as const) : undefined;
      const hits = await collection.recall({ vector: e0, k: 5, scan });
      // The probes' own metric (not the dataset's); the index path when the target has no exact scan.
      const where = { metric, scan: scan ?? ('index' as const), filtered: false, threshold: false };
      let maxDelta = 0;
      for (const [id, want] of Object.entries(PROBE_EXPECTED[metric])) {
        const hit = hits.find((h) => h.id === id);
        const probe = probes[id as keyof typeof probes];
        const ref = referenceScore(metric, e0, probe);
        const pairTol = vectorPairTolerance(tol, metric, e0, probe);
        if (!hit) {
          failures.push(failure(cell, 'score', `${metric}: probe ${id} missing from top-5 of query e0`, { id, expected: want, actual: null, ...where }));
          continue;
        }
        // The probes are float32, so the float64 reference of diag differs from the exact 1/√2 by
        // ~1e-8 (float32 rounding of 1/√2): the hand value must agree with the reference to 1e-7,
        // and the backend's score with both within the target's tolerance.
        const d = Math.max(Math.abs(hit.score - ref), Math.abs(hit.score - want));
        maxDelta = Math.max(maxDelta, d);
        if (!(d <= pairTol) || !(Math.abs(ref - want) <= 1e-7)) {
          failures.push(
            failure(cell, 'score', `${metric}: probe ${id} canonical score ${hit.score}, expected ${want} (float64 reference ${ref}; |Δ| ${d.toExponential(2)}, tolerance ${pairTol.toPrecision(3)})`, {
              id,
              expected: want,
              actual: hit.score,
              ...where,
            }),
          );
        }
      }
      for (const v of tieOrderViolations(hits)) {
        failures.push(
          failure(cell, 'determinism', `${metric}: probes with equal scores ${v.score} at ranks ${v.rank - 1} and ${v.rank} not in id order (${v.before} before ${v.id})`, {
            rank: v.rank,
            id: v.id,
            ...where,
          }),
        );
      }
      figures[`${metric}.maxAbsDelta`] = maxDelta;
    }
    const { collection } = await cell.loaded();
    let goldenMax = 0;
    let goldenMaxRatio = 0; // largest |Δ| / the pair's tolerance
    for (const q of every(cell.dataset.queries, 50)) {
      const hits = await collection.recall({ vector: q.vector, k: 10, scan: cell.config.capabilities.exactScan ? 'exact' : undefined });
      const tols = cell.oracle.tolerancesFor(q.vector, cell.config.tolerances);
      for (const h of hits) {
        const ref = cell.oracle.score(h.id, q.vector) ?? Number.NaN;
        const d = Math.abs(h.score - ref);
        const pairTol = tols.score(h.id);
        goldenMax = Math.max(goldenMax, Number.isNaN(d) ? Infinity : d);
        goldenMaxRatio = Math.max(goldenMaxRatio, Number.isNaN(d) ? Infinity : d / pairTol);
        if (!(d <= pairTol)) {
          failures.push(
            failure(cell, 'score', `query ${q.id}: id ${h.id} score ${h.score} vs float64 reference ${ref} (|Δ| ${d.toExponential(2)} > ${pairTol === tol ? tol : pairTol.toPrecision(3)})`, {
              queryId: q.id,
              id: h.id,
              expected: ref,
              actual: h.score,
              ...whereOf({}, cell.config.capabilities.exactScan ? 'exact' : 'index', cell.dataset.manifest.metric), // q's vector, no filter, no minScore
            }),
          );
        }
      }
    }
    figures.goldenMaxAbsDelta = goldenMax;
    figures.goldenMaxDeltaOverTolerance = goldenMaxRatio;
    figures.tolerance = tol;
    return { figures, failures };
  },
};
