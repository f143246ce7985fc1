import type { Failure } from '../comparator';
import { toRecallQuery, type ScanMode } from '../conformance/cell';
import { whereOf } from '../conformance/where';
import { type CheckDefinition, failure, needs } from './check';
import { mapBounded, RECALLS_IN_FLIGHT } from './helpers/bounded';

/**
 * C07 deterministic-ties: the same query twice returns the same sequence of ids, and hits with
 * exactly equal canonical scores come in id ascending order — the documented tie-break key of the
 * contract (adapter.ts `recall`). Runs every golden query a second time in every scan mode and
 * compares with the first run (the cell's shared replay). The second run sends `RECALLS_IN_FLIGHT`
 * recalls at a time through the same client (as C02; the shared collection does not change): an
 * answer that depends on what else is in flight is a nondeterminism this check exists to catch.
 */
export const c07DeterministicTies: CheckDefinition = {
  id: 'C07',
  name: 'deterministic-ties',
  fixtures: ['golden', 'exact-replay', 'index-replay'],
  requires: needs('vectors'),
  async run(cell) {
    const modes: ScanMode[] = cell.scanModes();
    const failures: Failure[] = [];
    let compared = 0;
    let tieRuns = 0;
    for (const scan of modes) {
      const first = await cell.queryRuns(scan);
      const { collection } = await cell.loaded();
      const runs = [...first.values()];
      const second = await mapBounded(runs, RECALLS_IN_FLIGHT, (r) => collection.recall(toRecallQuery(r.query, scan)));
      for (const [i, a] of runs.entries()) {
        const qid = a.query.id;
        compared++;
        const b = { hits: second[i]! };
        const sa = a.hits.map((h) => h.id).join(',');
        const sb = b.hits.map((h) => h.id).join(',');
        if (sa !== sb) {
          const rank = a.hits.findIndex((h, i) => b.hits[i]?.id !== h.id) + 1;
          failures.push(
            failure(cell, 'determinism', `${scan} scan, query ${qid}: second run differs at rank ${rank}: ${a.hits[rank - 1]?.id} then ${b.hits[rank - 1]?.id}`, {
              queryId: qid,
              rank,
              expected: a.hits[rank - 1]?.id,
              actual: b.hits[rank - 1]?.id,
              ...whereOf(a.query, scan, cell.dataset.manifest.metric),
            }),
          );
        }
        for (let i = 1; i < a.hits.length; i++) {
          if (a.hits[i].score !== a.hits[i - 1].score) continue;
          tieRuns++;
          if (a.hits[i].id < a.hits[i - 1].id) {
            failures.push(
              failure(cell, 'determinism', `${scan} scan, query ${qid}: equal scores ${a.hits[i].score} at ranks ${i} and ${i + 1} not in id order (${a.hits[i - 1].id} before ${a.hits[i].id})`, {
                queryId: qid,
                rank: i + 1,
                id: a.hits[i].id,
                ...whereOf(a.query, scan, cell.dataset.manifest.metric),
              }),
            );
          }
        }
      }
    }
    return { figures: { comparedLists: compared, exactTiePairs: tieRuns, differing: failures.length }, failures };
  },
};
