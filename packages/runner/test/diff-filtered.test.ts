/**
 * diff of the golden filter set's results (src/baseline/compare-filtered.ts): `filtered index` /
 * `filtered exact` cells from `Baseline.filtered`, cases run on one side only noted, older
 * recordings (no `filtered`) compared as before with a not-compared note, and the baseline schema
 * reading both. Pure: baselines built in the test, no backend.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compareBaselines } from '../src/baseline/compare';
import { exactFilteredThresholds } from '../src/baseline/compare-filtered';
import { readBaseline } from '../src/baseline/file';
import { filteredKey } from '../src/baseline/filtered';
import type { Baseline, BaselineRun, FilteredResults } from '../src/baseline/model';
import type { DiffThresholds } from '../src/baseline/verdict';

const T: DiffThresholds = { minOverlap: 0.8, minMeanOverlap: 0.9, maxScoreDelta: 1e-3, maxRankShift: 2 };
const SHA = 'a'.repeat(64);
type Result = [ids: string[], scores: number[]];

/** A run of `scan` whose queries are `results` by key. */
const run = (scan: 'index' | 'exact', results: Record<string, Result>): BaselineRun => ({
  scan,
  index: scan === 'exact' ? { type: 'none' } : { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 },
  oracleRecall: { mean: 1, min: 1 },
  queries: Object.entries(results).map(([query, [ids, scores]]) => ({ query, k: 3, ids, scores, ms: 1 })),
});

/** A baseline of `target` with one unfiltered query and, when given, filtered results. */
function baseline(target: string, filtered?: FilteredResults): Baseline {
  const plain = { q1: [['a'], [0.9]] as Result };
  return {
    format: 'memory-matrix-baseline',
    version: 1,
    target,
    backend: target.split('@')[0]!,
    provider: 'embedded',
    provenance: { tolerances: { scoreTolerance: 1e-5, tieEpsilon: 1e-5 } } as unknown as Baseline['provenance'],
    dataset: { name: 'agent-memories', sha256: SHA } as Baseline['dataset'],
    runs: { index: run('index', plain), exact: run('exact', plain) },
    ...(filtered ? { filtered } : {}),
  };
}

const SET: FilteredResults['set'] = { file: 'golden-data/filters/agent-memories.jsonl', derivation: 'filter-fields-v1', k: 3, queries: ['q-0001'], cases: 3 };
const filtered = (runs: FilteredResults['runs'], unsupported: FilteredResults['unsupported'] = []): FilteredResults => ({ set: SET, unsupported, runs });
const K = (c: string) => filteredKey(c, 'q-0001');

describe('diff of filtered results', () => {
  const good: Record<string, Result> = {
    [K('eq-false')]: [
      ['a', 'b', 'c'],
      [0.9, 0.8, 0.7],
    ],
    [K('gte-integer')]: [
      ['d', 'e'],
      [0.6, 0.5],
    ],
  };

  test('identical filtered results: filtered index and filtered exact PASS after the unfiltered cells', () => {
    const a = baseline('sqlite@x', filtered({ index: run('index', good), exact: run('exact', good) }));
    const r = compareBaselines(a, baseline('lancedb@y', filtered({ index: run('index', good), exact: run('exact', good) })), T);
    expect(r.cells.map((c) => [c.scan, c.verdict, c.figures.queries])).toEqual([
      ['index', 'PASS', 1],
      ['exact', 'PASS', 1],
      ['filtered index', 'PASS', 2],
      ['filtered exact', 'PASS', 2],
    ]);
    expect(r.notCompared).toEqual([]);
  });

  test('exact path: one other id is a FAIL naming the case and query (a change within the thresholds drifts)', () => {
    const off: Record<string, Result> = {
      ...good,
      [K('eq-false')]: [
        ['a', 'b', 'x'],
        [0.9, 0.8, 0.65],
      ],
    };
    const r = compareBaselines(
      baseline('sqlite@x', filtered({ index: run('index', good), exact: run('exact', good) })),
      baseline(
        'lancedb@y',
        filtered({
          index: run('index', {
            ...good,
            [K('eq-false')]: [
              ['a', 'b', 'c'],
              [0.9, 0.8, 0.7],
            ],
          }),
          exact: run('exact', off),
        }),
      ),
      T,
    );
    const exact = r.cells.find((c) => c.scan === 'filtered exact')!;
    expect(exact.verdict).toBe('FAIL');
    expect(exact.reasons).toEqual([`mean overlap ${((2 / 3 + 1) / 2).toFixed(4)} over 2 queries < minMeanOverlap 1`, '1 query crossed a threshold: eq-false/q-0001']);
    expect(exact.worst[0]).toEqual(expect.objectContaining({ query: 'eq-false/q-0001', missing: ['c'], added: ['x'] }));
    // a change within the profile's thresholds (scores moved by 5e-4 < maxScoreDelta) is DRIFT on either path
    const moved: Record<string, Result> = {
      ...good,
      [K('gte-integer')]: [
        ['d', 'e'],
        [0.6005, 0.5],
      ],
    };
    const cells = compareBaselines(
      baseline('a@1', filtered({ index: run('index', good), exact: run('exact', good) })),
      baseline('b@1', filtered({ index: run('index', moved), exact: run('exact', moved) })),
      T,
    ).cells;
    expect(cells.filter((c) => c.scan.startsWith('filtered')).map((c) => [c.scan, c.verdict])).toEqual([
      ['filtered index', 'DRIFT'],
      ['filtered exact', 'DRIFT'],
    ]);
  });

  test('exact path under ties: a swap inside a tie group is identical ids (PASS)', () => {
    const tied: Record<string, Result> = {
      [K('eq-false')]: [
        ['a', 'b', 'c'],
        [0.9, 0.8, 0.8],
      ],
    };
    const swapped: Record<string, Result> = {
      [K('eq-false')]: [
        ['a', 'c', 'b'],
        [0.9, 0.8, 0.8],
      ],
    };
    const r = compareBaselines(baseline('a@1', filtered({ exact: run('exact', tied) })), baseline('b@1', filtered({ exact: run('exact', swapped) })), T);
    expect(r.cells.find((c) => c.scan === 'filtered exact')!.verdict).not.toBe('FAIL');
    expect(exactFilteredThresholds(T)).toEqual({ minOverlap: 1, minMeanOverlap: 1, maxScoreDelta: 1e-3, maxRankShift: 0 });
  });

  test('a case run on one side only is a note naming it, not a failure', () => {
    const more = { ...good, [K('contains-tag')]: [['a'], [0.9]] as Result };
    const r = compareBaselines(
      baseline('pgvector@x', filtered({ exact: run('exact', more) })),
      baseline('lancedb@y', filtered({ exact: run('exact', good) }, [{ case: 'contains-tag', reason: 'operators $contains not in filterOperators' }])),
      T,
    );
    const cell = r.cells.find((c) => c.scan === 'filtered exact')!;
    expect(cell.verdict).toBe('PASS');
    expect(cell.notes).toEqual([expect.stringContaining('only baseline pgvector@x: 1 (contains-tag)')]);
  });

  test('older recordings and mismatched sets: compared as before, with a visible not-compared note', () => {
    const withF = baseline('sqlite@x', filtered({ exact: run('exact', good) }));
    const old = baseline('sqlite@old');
    const r = compareBaselines(old, withF, T);
    expect(r.cells.map((c) => c.scan)).toEqual(['index', 'exact']);
    expect(r.notCompared).toEqual([{ scan: 'filtered', reason: expect.stringMatching(/^baseline sqlite@old was recorded without the golden filter set's results .*record again/) }]);
    const other = baseline('b@1', { ...filtered({ exact: run('exact', good) }), set: { ...SET, k: 10 } });
    expect(compareBaselines(withF, other, T).notCompared).toEqual([{ scan: 'filtered', reason: expect.stringContaining('the filter sets differ') }]);
    const indexOnly = baseline('c@1', filtered({ index: run('index', good), exact: run('exact', good) }));
    expect(compareBaselines(withF, indexOnly, T).notCompared).toEqual([{ scan: 'filtered index', reason: expect.stringContaining('baseline sqlite@x has no filtered index-path results') }]);
  });

  test('readBaseline reads a recording with and without filtered results; a broken filtered part is INVALID_INPUT with its path', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-diff-filtered-'));
    const withF = path.join(dir, 'with.json');
    writeFileSync(withF, JSON.stringify(baseline('a@1', filtered({ exact: run('exact', good) }))));
    expect(readBaseline(withF).filtered!.runs.exact!.queries).toHaveLength(2);
    const old = path.join(dir, 'old.json');
    writeFileSync(old, JSON.stringify(baseline('a@1')));
    expect(readBaseline(old).filtered).toBeUndefined();
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...baseline('a@1'), filtered: { set: SET, unsupported: [], runs: { exact: { scan: 'exact' } } } }));
    expect(() => readBaseline(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('filtered.runs.exact.index') }));
  });
});
