import { compareHits, type Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import type { ScanMode } from '../conformance/types';
import type { Figure, FigureTable } from '../figures';
import { evaluateFilter } from '../filter-lang/evaluate';
import { filterSetDocuments } from '../filter-set/build';
import type { FilterCase } from '../filter-set/file';
import { yieldToEventLoop } from '../yield';
import { datasetFilterSet, filterSetPath, operatorTable, planC31 } from './c31-cases';
import { type CheckDefinition, needs } from './check';

/**
 * Comparator failure kinds not judged per result on the index path: approximate neighbours
 * (`tie-group` never arises in ann mode) and their scores (C08 judges index-path scores); short
 * results (`count`) are judged over the whole path against `annShortfallMax`.
 */
const INDEX_PATH_NOT_JUDGED = new Set<string>(['tie-group', 'score']);

/**
 * The failure of a case whose `count` or `recall` threw (kind `filter-error`): the case, its filter,
 * the call and the error's code and message. The case fails; the other cases still run, so one
 * filter a backend refuses (e.g. a range that casts a text value to a number) does not hide the
 * verdicts of the rest.
 */
function callFailure(cell: LiveCell, c: FilterCase, call: string, err: unknown, where: Pick<Failure, 'queryId' | 'scan'>): Failure {
  const code = typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' ? `${(err as { code: string }).code}: ` : '';
  const text = err instanceof Error ? err.message : String(err);
  return {
    dataset: cell.datasetName,
    target: cell.target,
    ...where,
    kind: 'filter-error',
    metric: cell.dataset.manifest.metric,
    filtered: true,
    filterCase: c.name,
    actual: `${code}${text}`,
    message: `${cell.datasetName} @ ${cell.target}: C31 case "${c.name}" ${JSON.stringify(c.filter)}: ${call} threw ${code}${text}`,
  };
}

/** Golden memories written per upsert while C31 loads its collection. */
const LOAD_CHUNK = 500;

/**
 * C31 filter-semantics: the golden filter set of the dataset (golden-data/filters/<dataset>.jsonl,
 * FORMAT.md "Filter sets") run through the target's native filter compiler. Its own collection
 * holds every memory with the derived metadata of the set's derivation (`filter-fields-v1`) that
 * the target can store (c31-cases.ts `planC31`); each case the target can run — operators ⊆
 * `filterOperators`, shapes ⊆ `metadataShapes`, every key it reads loaded — is recalled with
 * `filter: { where }` for each query of the set, on the exact path and, when the cell has an ANN
 * index, on the index path.
 * - Count: `count({ where })` must equal the case's matching count (kind `filter-count`): the whole
 *   filtered set, on every target, so a filter that matches nothing or too much fails on the index
 *   path too, where a short result alone is judged as approximation.
 * - Exact path: the ids must equal the oracle's filtered top-k under the tie rule (comparator.ts
 *   `compareHits`, exact mode: tie groups, count = min(k, matching), every id passing the filter by
 *   the reference semantics, scores within the target's tolerances).
 * - Index path (approximate by design, as C04 judges it): every returned id passes the filter, no
 *   duplicate, unknown or non-finite result, scores non-increasing; short results summed over the
 *   path's recalls may be at most `annShortfallMax` of the min(k, matching) expected (0 unless the
 *   catalog measured and explained more); recall@k is a figure (`index.recall`), not a verdict —
 *   ANN recall is C05's and C04's, and index-path scores are C08's, so a backend's approximate
 *   neighbours or compressed scores do not read as a filter bug here.
 * - Errors: a `count` or `recall` that throws fails its case (kind `filter-error`, `callFailure`)
 *   and the check goes on with the next call and case; the error is never swallowed. A case the
 * target cannot run is listed as unsupported with its reason, never dropped. Tables: the operator
 * table (`operatorTable`: the report's backend × operator table reads it) and the unsupported
 * cases. Each failure names the case, its filter, the scan, the query, and the expected and
 * returned ids. A dataset without a filter set has nothing to check (a note says so).
 */
export const c31FilterSemantics: CheckDefinition = {
  id: 'C31',
  name: 'filter-semantics',
  requires: needs('vectors', 'filterOperators'),
  async run(cell) {
    const set = datasetFilterSet(cell.dataset);
    if (set === null) return { figures: { cases: 0 }, failures: [], notes: [`dataset ${cell.datasetName} has no filter set (${filterSetPath(cell.dataset)}): nothing to check`] };
    const caps = cell.config.capabilities;
    const plan = planC31(cell.dataset, set, caps);
    const notes = [
      `${set.cases.length} cases of ${filterSetPath(cell.dataset)} × ${set.header.queries.length} queries, k ${set.header.k}; derived keys loaded: ${plan.loadedKeys.join(', ') || 'none'}` +
        (plan.leftOutKeys.length ? `; left out (shape not in metadataShapes): ${plan.leftOutKeys.map((k) => `${k.key} (${k.shapes.join('+')})`).join(', ')}` : ''),
      'operator table: a case counts for every operator it uses; an operator fails when any case using it fails, passes when one ran and none failed, else is unsupported',
    ];
    const verdicts: Array<{ c: FilterCase; status: 'pass' | 'fail' | 'unsupported' }> = plan.unsupported.map((u) => ({ c: u.c, status: 'unsupported' as const }));
    const failures: Failure[] = [];
    const figures: Record<string, Figure> = { cases: set.cases.length, casesRun: plan.runnable.length, casesUnsupported: plan.unsupported.length };
    const tables: FigureTable[] = [];
    if (plan.runnable.length > 0) {
      // The index path only where the cell has an ANN index (on `index: none` it is the exact query again); a target without exactScan runs 'index'.
      const paths = cell.scanModes().filter((m) => m === 'exact' || cell.config.index.type !== 'none');
      const modes: ScanMode[] = paths.length ? paths : ['index'];
      const t0 = performance.now();
      const { collection } = await cell.scratch('c31', { index: modes.includes('index') ? cell.config.index : { type: 'none' } });
      for (let i = 0; i < plan.records.length; i += LOAD_CHUNK) {
        cell.noteStep(`C31: loading ${plan.records.length} memories with derived metadata`, i);
        await collection.upsert(plan.records.slice(i, i + LOAD_CHUNK));
        await yieldToEventLoop();
      }
      await collection.buildIndex();
      const t1 = performance.now();
      const docs = new Map(filterSetDocuments(cell.dataset).map((d, i) => [cell.dataset.memories[i]!.id, d]));
      const vectors = new Map(cell.dataset.queries.map((q) => [q.id, q.vector]));
      const { k } = set.header;
      let done = 0;
      // Index path: short results are judged over the whole path (annShortfallMax), as C04 does.
      const index = { expected: 0, shortfall: 0, recall: 0, n: 0, short: [] as Array<{ c: FilterCase; f: Failure }> };
      for (const c of plan.runnable) {
        // The whole filtered set, not only its top k: a filter that matches nothing (or too much) is no ANN shortfall.
        let counted: number;
        try {
          counted = await collection.count({ where: c.expr });
        } catch (err) {
          counted = Number.NaN;
          failures.push(callFailure(cell, c, 'count under the filter', err, { queryId: '(count)' }));
        }
        let failed = counted !== c.matching;
        if (failed && !Number.isNaN(counted)) {
          failures.push({
            dataset: cell.datasetName,
            target: cell.target,
            queryId: '(count)',
            kind: 'filter-count',
            expected: c.matching,
            actual: counted,
            metric: cell.dataset.manifest.metric,
            filtered: true,
            filterCase: c.name,
            message: `${cell.datasetName} @ ${cell.target}: C31 case "${c.name}" ${JSON.stringify(c.filter)}: count under the filter ${counted}, expected ${c.matching} (the memories the reference semantics match)`,
          });
        }
        for (const scan of modes) {
          for (const qid of set.header.queries) {
            const vector = vectors.get(qid)!;
            cell.noteStep(`C31: ${plan.runnable.length} cases (${scan})`, done);
            let hits: Awaited<ReturnType<typeof collection.recall>>;
            try {
              hits = await collection.recall({ vector, k, filter: { where: c.expr }, scan });
            } catch (err) {
              failed = true;
              failures.push(callFailure(cell, c, `the ${scan}-path recall of query ${qid}`, err, { queryId: qid, scan }));
              continue;
            }
            const expected = { hits: c.topk[qid]!, matching: c.matching };
            const cmp = compareHits(
              expected,
              hits,
              { dataset: cell.datasetName, target: cell.target, queryId: qid, scan, metric: cell.dataset.manifest.metric, filtered: true },
              {
                k,
                mode: scan === 'exact' ? 'exact' : 'ann',
                tieEpsilon: set.header.tieEpsilon,
                scoreTolerance: cell.config.tolerances.scoreTolerance,
                tolerances: cell.oracle.tolerancesFor(vector, cell.config.tolerances),
                scoreOf: (id) => cell.oracle.score(id, vector),
                matches: (id) => {
                  const d = docs.get(id);
                  return d !== undefined && evaluateFilter(c.expr, d);
                },
              },
            );
            let judged = cmp.failures;
            if (scan !== 'exact') {
              index.n++;
              index.recall += cmp.recallAtK;
              index.expected += cmp.expectedCount;
              index.shortfall += Math.max(0, cmp.expectedCount - hits.length);
              judged = cmp.failures.filter((f) => !INDEX_PATH_NOT_JUDGED.has(f.kind));
            }
            if (judged.length === 0) continue;
            const first = judged[0]!;
            const want = expected.hits.slice(0, Math.min(k, c.matching)).map((h) => h.id);
            const failure: Failure = {
              ...first,
              filterCase: c.name,
              message:
                `${cell.datasetName} @ ${cell.target}: C31 case "${c.name}" ${JSON.stringify(c.filter)} (${scan} scan, query ${qid}, ${c.matching} matching): ` +
                `expected ids [${want.join(', ')}] got [${hits.map((h) => h.id).join(', ')}]; ${first.message}` +
                (judged.length > 1 ? ` (+${judged.length - 1} more in this result)` : ''),
            };
            if (scan !== 'exact' && judged.every((f) => f.kind === 'count')) {
              index.short.push({ c, f: failure }); // judged once the path's total shortfall is known
              continue;
            }
            failed = true;
            failures.push(failure);
          }
        }
        verdicts.push({ c, status: failed ? 'fail' : 'pass' });
        done++;
        await yieldToEventLoop();
      }
      if (index.n > 0) {
        const allowed = cell.config.tolerances.annShortfallMax * index.expected;
        figures['index.recall'] = index.recall / index.n;
        figures['index.shortfall'] = index.shortfall;
        figures['index.shortfallAllowed'] = Math.floor(allowed);
        if (index.shortfall > allowed) {
          notes.push(
            `index path: ${index.shortfall} of ${index.expected} expected results missing (short results), above annShortfallMax ${cell.config.tolerances.annShortfallMax}: each short result is a failure`,
          );
          for (const { c, f } of index.short) {
            failures.push(f);
            const v = verdicts.find((x) => x.c === c);
            if (v) v.status = 'fail';
          }
        }
      }
      figures.loadMs = Math.round(t1 - t0);
      figures.queryMs = Math.round(performance.now() - t1);
      figures.recalls = plan.runnable.length * modes.length * set.header.queries.length;
      figures.counts = plan.runnable.length;
      figures.casesFailed = verdicts.filter((v) => v.status === 'fail').length;
      figures.scans = modes.join('+');
    } else {
      notes.push(`no case of the set is runnable on ${cell.target}: every case is listed unsupported`);
    }
    const order = new Map(set.cases.map((c, i) => [c.name, i]));
    verdicts.sort((a, b) => order.get(a.c.name)! - order.get(b.c.name)!);
    tables.push(operatorTable(verdicts));
    if (plan.unsupported.length) tables.push({ title: 'unsupported cases', columns: ['case', 'reason'], rows: plan.unsupported.map((u) => [u.c.name, u.reason]) });
    return { figures, failures, tables, notes };
  },
};
