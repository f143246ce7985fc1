import type { Failure } from '../comparator';
import type { ScanMode } from '../conformance/cell';
import { type CheckDefinition, failure, needs } from './check';
import { mapBounded, RECALLS_IN_FLIGHT } from './helpers/bounded';
import { sampleRecords } from './helpers/sampling';

const SAMPLE = 200;

/**
 * C02 self-recall: querying with a stored memory's own embedding returns it at rank 1, or inside
 * the rank-1 tie group (hits within `tieEpsilon` of the top score — duplicates of the same vector).
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
      const answers = await mapBounded(sample, RECALLS_IN_FLIGHT, (r) => collection.recall({ vector: r.embedding, k: 10, scan }));
      for (const [i, r] of sample.entries()) {
        const hits = answers[i]!;
        const top = hits[0]?.score ?? Number.NaN;
        const rankOneGroup = hits.filter((h) => Math.abs(h.score - top) <= eps).map((h) => h.id);
        if (!rankOneGroup.includes(r.id)) {
          const rank = hits.findIndex((h) => h.id === r.id);
          missed.push(
            failure(
              cell,
              'self-recall',
              `${scan} scan: memory ${r.id} queried with its own embedding is ${rank < 0 ? 'not in the top 10' : `at rank ${rank + 1}`}; rank 1 is ${hits[0]?.id ?? 'nothing'} (score ${top})`,
              {
                id: r.id,
                rank: rank < 0 ? undefined : rank + 1,
                expected: 1,
                actual: rank < 0 ? null : rank + 1,
              },
            ),
          );
        }
      }
      const rate = 1 - missed.length / sample.length;
      figures[`${scan}PassRate`] = rate;
      if (scan === 'exact' || rate < cell.config.tolerances.annRecallFloor) failures.push(...missed);
    }
    return { figures, failures };
  },
};
