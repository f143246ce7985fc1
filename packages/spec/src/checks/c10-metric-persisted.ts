import type { Failure } from '../comparator';
import { vectorPairTolerance } from '../tolerance';
import { type CheckDefinition, failure, needs } from './check';
import { PROBE_EXPECTED, probeVectors } from './helpers/probes';
import { syntheticRecord } from './helpers/synthetic';

/**
 * C10 metric-persisted: the metric chosen at creation is the one used after a reopen from a NEW
 * client — for every metric the adapter supports, the reopened collection reports the same metric
 * and dimension, and the probe vectors score exactly as before the reopen and as the hand-computed
 * values of C08 (within the tolerance model's figure for each probe pair, tolerance.ts). A store that fell back to a backend default (some default to squared L2, some
 * offer only cosine) shows up here as a different metric or different scores.
 */
export const c10MetricPersisted: CheckDefinition = {
  id: 'C10',
  name: 'metric-persisted',
  requires: needs('vectors', 'reopen'),
  usesDatasetMetric: false, // its own metrics at the dataset's dimension: runs on a dataset in a metric the target lacks
  async run(cell) {
    const dim = cell.dataset.manifest.dim;
    const tol = cell.config.tolerances.scoreTolerance;
    const probes = probeVectors(dim);
    const failures: Failure[] = [];
    const figures: Record<string, number | string> = {};
    for (const metric of cell.config.capabilities.metrics) {
      const { collection } = await cell.scratch(`c10_${metric}`, { metric });
      await collection.upsert(Object.entries(probes).map(([id, v]) => syntheticRecord(id, v)));
      await collection.buildIndex();
      const scan = cell.config.capabilities.exactScan ? ('exact' as const) : undefined;
      const before = await collection.recall({ vector: probes.same, k: 5, scan });
      const where = { metric, scan: scan ?? ('index' as const), filtered: false, threshold: false }; // the probe's metric, not the dataset's
      const reader = await cell.connect();
      const reopened = await reader.openCollection(collection.spec.name);
      if (reopened.spec.metric !== metric || reopened.spec.dim !== dim) {
        failures.push(
          failure(cell, 'metric', `collection created with ${metric}/${dim}-d reopens as ${reopened.spec.metric}/${reopened.spec.dim}-d`, { expected: metric, actual: reopened.spec.metric, ...where }),
        );
      }
      const after = await reopened.recall({ vector: probes.same, k: 5, scan });
      let maxDelta = 0;
      for (const [id, want] of Object.entries(PROBE_EXPECTED[metric])) {
        const a = after.find((h) => h.id === id);
        const b = before.find((h) => h.id === id);
        if (!a || !b) {
          failures.push(failure(cell, 'metric', `${metric}: probe ${id} missing ${!b ? 'before' : 'after'} the reopen`, { id, ...where }));
          continue;
        }
        const d = Math.max(Math.abs(a.score - b.score), Math.abs(a.score - want));
        maxDelta = Math.max(maxDelta, d);
        if (!(d <= vectorPairTolerance(tol, metric, probes.same, probes[id as keyof typeof probes]))) {
          failures.push(
            failure(cell, 'metric', `${metric}: probe ${id} scores ${b.score} before and ${a.score} after the reopen, expected ${want}`, { id, expected: want, actual: a.score, ...where }),
          );
        }
      }
      figures[`${metric}.reopenedAs`] = reopened.spec.metric;
      figures[`${metric}.maxAbsDelta`] = maxDelta;
    }
    return { figures, failures };
  },
};
