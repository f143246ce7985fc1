import type { Failure } from '../comparator';
import type { ScanMode } from '../conformance/cell';
import { whereOf } from '../conformance/where';
import { type CheckDefinition, failure, needs } from './check';

/** Slack for float noise in the adapter's native → canonical conversion (1 − d, 2s − 1 …). */
const ORDER_SLACK = 1e-12;

/**
 * C06 order-monotonic: every result list is in non-increasing canonical score, in every scan mode
 * the target has (exact and ANN index).
 */
export const c06OrderMonotonic: CheckDefinition = {
  id: 'C06',
  name: 'order-monotonic',
  fixtures: ['golden', 'exact-replay', 'index-replay'],
  requires: needs('vectors'),
  async run(cell) {
    const modes: ScanMode[] = cell.scanModes();
    const failures: Failure[] = [];
    let lists = 0;
    for (const scan of modes) {
      for (const [qid, run] of await cell.queryRuns(scan)) {
        lists++;
        for (let i = 1; i < run.hits.length; i++) {
          const a = run.hits[i - 1];
          const b = run.hits[i];
          if (!(b.score <= a.score + ORDER_SLACK)) {
            failures.push(
              failure(cell, 'order', `${scan} scan, query ${qid}: rank ${i + 1} id ${b.id} score ${b.score} > rank ${i} id ${a.id} score ${a.score}`, {
                queryId: qid,
                rank: i + 1,
                id: b.id,
                expected: `≤ ${a.score}`,
                actual: b.score,
                ...whereOf(run.query, scan, cell.dataset.manifest.metric),
              }),
            );
            break;
          }
        }
      }
    }
    return { figures: { lists, modes: modes.join('+'), violations: failures.length }, failures };
  },
};
