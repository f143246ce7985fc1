import { compareHits, type Failure } from '../comparator';
import type { ScanMode } from '../conformance/types';
import type { Figure, FigureTable } from '../figures';
import { evaluateFilter } from '../filter-lang/evaluate';
import { filterSetDocuments } from '../filter-set/build';
import type { FilterCase } from '../filter-set/file';
import { yieldToEventLoop } from '../yield';
import { datasetFilterSet, filterSetPath, operatorTable, planC31 } from './c31-cases';
import { type CheckDefinition, needs } from './check';

/** Golden memories written per upsert while C31 loads its collection. */
const LOAD_CHUNK = 500;

/**
 * C31 filter-semantics: the golden filter set of the dataset (golden-data/filters/<dataset>.jsonl,
 * FORMAT.md "Filter sets") run through the target's native filter compiler. Its own collection
 * holds every memory with the derived metadata of the set's derivation (`filter-fields-v1`) that
 * the target can store (c31-cases.ts `planC31`); each case the target can run — operators ⊆
 * `filterOperators`, shapes ⊆ `metadataShapes`, every key it reads loaded — is recalled with
 * `filter: { where }` for each query of the set, on the exact path and, when the cell has an ANN
 * index, on the index path. The ids must equal the oracle's filtered top-k under the tie rule
 * (comparator.ts `compareHits`, exact mode: tie groups, count = min(k, matching), every id passing
 * the filter by the reference semantics, scores within the target's tolerances). A case the
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
      const { collection } = await cell.scratch('c31', { index: modes.includes('index') ? cell.config.index : { type: 'none' } });
      for (let i = 0; i < plan.records.length; i += LOAD_CHUNK) {
        cell.noteStep(`C31: loading ${plan.records.length} memories with derived metadata`, i);
        await collection.upsert(plan.records.slice(i, i + LOAD_CHUNK));
        await yieldToEventLoop();
      }
      await collection.buildIndex();
      const docs = new Map(filterSetDocuments(cell.dataset).map((d, i) => [cell.dataset.memories[i]!.id, d]));
      const vectors = new Map(cell.dataset.queries.map((q) => [q.id, q.vector]));
      const { k } = set.header;
      let done = 0;
      for (const c of plan.runnable) {
        let failed = false;
        for (const scan of modes) {
          for (const qid of set.header.queries) {
            const vector = vectors.get(qid)!;
            cell.noteStep(`C31: ${plan.runnable.length} cases (${scan})`, done);
            const hits = await collection.recall({ vector, k, filter: { where: c.expr }, scan });
            const expected = { hits: c.topk[qid]!, matching: c.matching };
            const cmp = compareHits(
              expected,
              hits,
              { dataset: cell.datasetName, target: cell.target, queryId: qid, scan, metric: cell.dataset.manifest.metric, filtered: true },
              {
                k,
                mode: 'exact',
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
            if (cmp.failures.length === 0) continue;
            failed = true;
            const first = cmp.failures[0]!;
            const want = expected.hits.slice(0, Math.min(k, c.matching)).map((h) => h.id);
            failures.push({
              ...first,
              message:
                `${cell.datasetName} @ ${cell.target}: C31 case "${c.name}" ${JSON.stringify(c.filter)} (${scan} scan, query ${qid}, ${c.matching} matching): ` +
                `expected ids [${want.join(', ')}] got [${hits.map((h) => h.id).join(', ')}]; ${first.message}` +
                (cmp.failures.length > 1 ? ` (+${cmp.failures.length - 1} more in this result)` : ''),
            });
          }
        }
        verdicts.push({ c, status: failed ? 'fail' : 'pass' });
        done++;
        await yieldToEventLoop();
      }
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
