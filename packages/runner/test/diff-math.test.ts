/**
 * The diff math of `memory-matrix diff` (src/baseline/), pure, with hand-computed values: tie-aware
 * top-k overlap (ties across k), missing and new ids, rank shifts beyond a tie group, score deltas,
 * per-query and per-cell verdicts, and the input guards (dataset mismatch, report.json, --index).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diffQuery } from '../src/baseline/query-diff';
import { judgeCell, judgeQuery, type DiffThresholds } from '../src/baseline/verdict';
import { compareBaselines } from '../src/baseline/compare';
import { defaultBaselineFile, readBaseline } from '../src/baseline/file';
import { applyIndexOverride } from '../src/baseline/record';
import type { Baseline } from '../src/baseline/model';

const EPS = 1e-5;
const h = (...pairs: Array<[string, number]>) => pairs.map(([id, score]) => ({ id, score }));
const T: DiffThresholds = { minOverlap: 0.8, minMeanOverlap: 0.98, maxScoreDelta: 1e-3, maxRankShift: 3 };

describe('diffQuery: overlap', () => {
  test('identical lists: overlap 1, nothing missing, no rank change, deltas 0', () => {
    const a = h(['x', 0.9], ['y', 0.8], ['z', 0.7]);
    const d = diffQuery('q', 3, a, a, EPS);
    expect(d).toMatchObject({ overlap: 1, common: 3, tieSwaps: 0, missing: [], added: [], rankChanges: [], maxRankShift: 0, maxAbsScoreDelta: 0, kendallTau: 1 });
    expect(d.scoreDeltas).toEqual({ ids: ['x', 'y', 'z'], deltas: [0, 0, 0] });
  });

  test('a tie group cut by k: another member of the same group is not a change (overlap 1, one tie swap)', () => {
    // baseline ranks 2-3 are a tie group {y, z} cut by k = 3 (the candidate kept w of that group instead of z)
    const d = diffQuery('q', 3, h(['x', 0.9], ['y', 0.5], ['z', 0.5]), h(['x', 0.9], ['w', 0.5], ['y', 0.5]), EPS);
    expect(d).toMatchObject({ overlap: 1, common: 2, tieSwaps: 1, missing: [], added: [] });
    // y moved from rank 2 to 3, inside its baseline tie group's span 2-3: not a rank change
    expect(d.rankChanges).toEqual([]);
  });

  test('scores within tieEpsilon tie (chained); a swap below the last score is a change: 2 of 3', () => {
    const tied = diffQuery('q', 3, h(['x', 0.9], ['y', 0.5], ['z', 0.5 - 0.8e-5]), h(['x', 0.9], ['y', 0.5], ['w', 0.5 - 0.4e-5]), EPS);
    expect(tied).toMatchObject({ overlap: 1, tieSwaps: 1 });
    const d = diffQuery('q', 3, h(['x', 0.9], ['y', 0.5], ['z', 0.5]), h(['x', 0.9], ['y', 0.5], ['w', 0.4]), EPS);
    expect(d).toMatchObject({ overlap: 2 / 3, common: 2, tieSwaps: 0, missing: ['z'], added: ['w'] });
  });

  test('ties across k: a newcomer scoring inside the boundary tie group range (± ε) of the baseline stands for a member it cut', () => {
    // baseline boundary group {y, z} spans scores [0.5 − 0.8ε, 0.5]; w at 0.5 + 0.9ε is 1.7ε from z but inside the range + ε
    const d = diffQuery('q', 3, h(['x', 0.9], ['y', 0.5], ['z', 0.5 - 0.8e-5]), h(['x', 0.9], ['y', 0.5], ['w', 0.5 + 0.9e-5]), EPS);
    expect(d).toMatchObject({ overlap: 1, tieSwaps: 1, missing: [], added: [] });
    // a newcomer ABOVE the baseline's boundary is a change (the baseline's index missed it), not a tie: 2 of 3
    const better = diffQuery('q', 3, h(['x', 0.9], ['y', 0.5], ['z', 0.4]), h(['x', 0.9], ['v', 0.7], ['y', 0.5]), EPS);
    expect(better).toMatchObject({ overlap: 2 / 3, tieSwaps: 0, missing: ['z'], added: ['v'] });
  });

  test('a duplicate cluster cut by k: one member of it in the candidate counts, the rest is missing (1 of 5)', () => {
    // q-0263 on one pgvector@pg18 build: baseline 5 of a group of 8 identical vectors (score 1); candidate 1 of them + 4 others
    const a = h(['c1', 1], ['c2', 1], ['c3', 1], ['c4', 1], ['c5', 1]);
    const b = h(['c6', 1], ['f1', 0.78], ['f2', 0.77], ['f3', 0.77], ['f4', 0.75]);
    const d = diffQuery('q-0263', 5, a, b, EPS);
    expect(d).toMatchObject({ overlap: 0.2, common: 0, tieSwaps: 1, missing: ['c1', 'c2', 'c3', 'c4'], added: ['f1', 'f2', 'f3', 'f4'] });
  });

  test('missing ids: a short candidate is never excused by ties (3 asked, 2 returned: 2/3)', () => {
    const d = diffQuery('q', 3, h(['x', 0.9], ['y', 0.5], ['z', 0.5]), h(['x', 0.9], ['y', 0.5]), EPS);
    expect(d).toMatchObject({ overlap: 2 / 3, baselineCount: 3, candidateCount: 2, missing: ['z'], added: [] });
  });

  test('n = min(k, max(|A|, |B|)): filter with 1 matching row; both empty is overlap 1', () => {
    expect(diffQuery('q', 5, h(['x', 0.9]), [], EPS).overlap).toBe(0);
    expect(diffQuery('q', 5, h(['x', 0.9]), h(['x', 0.9]), EPS).overlap).toBe(1);
    expect(diffQuery('q', 5, [], [], EPS).overlap).toBe(1);
    // candidate returned 2 where the baseline found 1: n = 2, common 1
    expect(diffQuery('q', 5, h(['x', 0.9]), h(['x', 0.9], ['y', 0.1]), EPS)).toMatchObject({ overlap: 0.5, added: ['y'] });
  });

  test('only the first k distinct ids count (a repeated id or a hit past k is ignored)', () => {
    const d = diffQuery('q', 2, h(['x', 0.9], ['y', 0.8]), h(['x', 0.9], ['x', 0.9], ['y', 0.8], ['z', 0.7]), EPS);
    expect(d).toMatchObject({ overlap: 1, candidateCount: 2, added: [] });
  });
});

describe('diffQuery: ranks and scores', () => {
  test('rank shift = ranks outside the baseline tie group span (signed; + = lower in the candidate)', () => {
    // a: rank 1 → 3 (span 1-1: +2); b: 2 → 1 (-1); c: 3 → 2 (-1)
    const d = diffQuery('q', 3, h(['a', 0.9], ['b', 0.8], ['c', 0.7]), h(['b', 0.8], ['c', 0.7], ['a', 0.9]), EPS);
    expect(d.rankChanges).toEqual([
      { id: 'a', from: 1, to: 3, shift: 2 },
      { id: 'b', from: 2, to: 1, shift: -1 },
      { id: 'c', from: 3, to: 2, shift: -1 },
    ]);
    expect(d.maxRankShift).toBe(2);
    expect(d.kendallTau).toBeCloseTo(-1 / 3, 12); // pairs (b,c) concordant, (a,b) (a,c) discordant
  });

  test('a reorder inside a tie group is no change; leaving the group counts from its edge', () => {
    const same = diffQuery('q', 3, h(['a', 0.9], ['b', 0.9], ['c', 0.7]), h(['b', 0.9], ['a', 0.9], ['c', 0.7]), EPS);
    expect(same.rankChanges).toEqual([]);
    // baseline: a | b c d (tie, ranks 2-4); candidate puts b first: 1 rank above its span 2-4
    const d = diffQuery('q', 4, h(['a', 0.9], ['b', 0.5], ['c', 0.5], ['d', 0.5]), h(['b', 0.5], ['a', 0.9], ['c', 0.5], ['d', 0.5]), EPS);
    expect(d.rankChanges).toEqual([
      { id: 'a', from: 1, to: 2, shift: 1 },
      { id: 'b', from: 2, to: 1, shift: -1 },
    ]);
  });

  test('score deltas per common id (candidate − baseline) and the largest |Δ| with its id', () => {
    const d = diffQuery('q', 3, h(['x', 0.9], ['y', 0.8], ['z', 0.7]), h(['x', 0.9000004], ['y', 0.79], ['w', 0.6]), EPS);
    expect(d.scoreDeltas.ids).toEqual(['x', 'y']);
    expect(d.scoreDeltas.deltas[0]).toBeCloseTo(4e-7, 15);
    expect(d.scoreDeltas.deltas[1]).toBeCloseTo(-0.01, 15);
    expect(d.maxDeltaId).toBe('y');
    expect(d.maxAbsScoreDelta).toBeCloseTo(0.01, 15);
  });
});

describe('verdicts', () => {
  const same = diffQuery('q1', 2, h(['a', 0.9], ['b', 0.8]), h(['a', 0.9], ['b', 0.8]), EPS);
  const noise = diffQuery('q2', 2, h(['a', 0.9], ['b', 0.8]), h(['a', 0.900003], ['b', 0.8]), EPS); // |Δ| 3e-6 ≤ tolerance 1e-5
  const swapped = diffQuery('q3', 5, h(['a', 0.9], ['b', 0.8], ['c', 0.7], ['d', 0.6], ['e', 0.5]), h(['a', 0.9], ['b', 0.8], ['c', 0.7], ['d', 0.6], ['f', 0.45]), EPS); // 0.8
  const lost = diffQuery('q4', 5, h(['a', 0.9], ['b', 0.8], ['c', 0.7], ['d', 0.6], ['e', 0.5]), h(['a', 0.9], ['b', 0.8], ['c', 0.7], ['f', 0.45], ['g', 0.4]), EPS); // 0.6

  test('judgeQuery: changed beyond the score tolerance; each crossing names the query, figure and threshold', () => {
    expect(judgeQuery(same, T, 1e-5)).toEqual({ changed: false, failures: [], notes: [] });
    expect(judgeQuery(noise, T, 1e-5)).toEqual({ changed: false, failures: [], notes: [] });
    expect(judgeQuery(swapped, T, 1e-5)).toEqual({ changed: true, failures: [], notes: [] });
    expect(judgeQuery(lost, T, 1e-5).failures).toEqual(['q4: overlap 0.6000 < minOverlap 0.8 (3 of 5 at k 5; missing d, e; new f, g)']);
    const moved = diffQuery('q5', 5, h(['a', 0.9], ['b', 0.8], ['c', 0.7], ['d', 0.6], ['e', 0.5]), h(['e', 0.5], ['a', 0.9], ['b', 0.8], ['c', 0.7], ['d', 0.6]), EPS);
    expect(judgeQuery(moved, T, 1e-5).failures).toEqual(['q5: id e moved from rank 5 to 1 (4 ranks beyond its tie group) > maxRankShift 3']);
    const scored = diffQuery('q6', 1, h(['a', 0.9]), h(['a', 0.8975]), EPS);
    expect(judgeQuery(scored, T, 1e-5).failures).toEqual(['q6: id a score changed by -2.50e-3 (|Δ| > maxScoreDelta 0.001)']);
  });

  test('a duplicate cluster on an ANN path: overlap crossings are reported as notes, score crossings still fail', () => {
    const j = judgeQuery(lost, T, 1e-5, true);
    expect(j.failures).toEqual([]);
    expect(j.notes[0]).toMatch(/^q4: overlap 0\.6000 < minOverlap 0\.8 .*duplicate cluster.*reported, not failed$/);
  });

  test('judgeCell: PASS without changes, DRIFT within thresholds, FAIL naming the queries', () => {
    expect(judgeCell([same, noise], T, 1e-5).verdict).toBe('PASS');
    // mean overlap (1 + 1 + 0.8 + 1 … ) stays ≥ 0.98 with many unchanged queries
    const many = [swapped, ...Array.from({ length: 10 }, () => same)];
    const drift = judgeCell(many, T, 1e-5);
    expect(drift.verdict).toBe('DRIFT');
    expect(drift.figures).toMatchObject({ queries: 11, changedQueries: 1, failedQueries: 0, minOverlap: 0.8 });
    expect(drift.figures.meanOverlap).toBeCloseTo(10.8 / 11, 12);
    const fail = judgeCell([same, lost, swapped], T, 1e-5);
    expect(fail.verdict).toBe('FAIL');
    expect(fail.reasons).toEqual([`mean overlap ${(2.4 / 3).toFixed(4)} over 3 queries < minMeanOverlap 0.98`, '1 query crossed a threshold: q4']);
    expect(fail.worst.map((q) => q.query)).toEqual(['q4', 'q3']);
    // mean alone: one 0.8 in two queries (mean 0.9) fails minMeanOverlap though no query crossed minOverlap
    expect(judgeCell([same, swapped], T, 1e-5).reasons).toEqual(['mean overlap 0.9000 over 2 queries < minMeanOverlap 0.98']);
  });
});

describe('inputs', () => {
  const baseline = (target: string, sha: string, exact: boolean): Baseline => {
    const run = (scan: 'index' | 'exact') => ({ scan, index: { type: 'none' as const }, oracleRecall: { mean: 1, min: 1 }, queries: [{ query: 'q1', k: 1, ids: ['a'], scores: [0.9], ms: 1 }] });
    return {
      format: 'memory-matrix-baseline',
      version: 1,
      target,
      backend: 'pgvector',
      provider: 'embedded',
      provenance: { tolerances: { scoreTolerance: 1e-5, tieEpsilon: 1e-5 } } as unknown as Baseline['provenance'],
      dataset: { name: 'agent-memories', sha256: sha } as Baseline['dataset'],
      runs: exact ? { index: run('index'), exact: run('exact') } : { index: run('index') },
    };
  };
  const SHA = 'a'.repeat(64);

  test('compareBaselines: a path recorded on one side only is listed as not compared', () => {
    const exactScan = (t: string) => (t.startsWith('chroma') ? false : t.startsWith('redis') ? true : undefined);
    const r = compareBaselines(baseline('pgvector@x', SHA, true), baseline('chroma@y', SHA, false), T, exactScan);
    expect(r.cells.map((c) => [c.scan, c.verdict])).toEqual([['index', 'PASS']]);
    expect(r.notCompared).toEqual([
      { scan: 'exact', reason: 'candidate chroma@y has no exact scan (capability exactScan: false)' },
      { scan: 'filtered', reason: expect.stringMatching(/^baseline pgvector@x and candidate chroma@y were recorded without the golden filter set's results/) },
    ]);
    // both sides lack it, for different reasons: one clause per side, each naming it
    const both = compareBaselines(baseline('redis@8.0', SHA, false), baseline('chroma@1.4', SHA, false), T, exactScan);
    expect(both.notCompared.filter((n) => n.scan !== 'filtered')).toEqual([
      {
        scan: 'exact',
        reason:
          'the baseline file of redis@8.0 has no exact-path results although redis@8.0 has capability exactScan: true; record it again; candidate chroma@1.4 has no exact scan (capability exactScan: false)',
      },
    ]);
    // a target the catalog does not know: no capability claimed
    expect(compareBaselines(baseline('pgvector@url', SHA, false), baseline('pgvector@x', SHA, true), T).notCompared[0]!.reason).toBe('the baseline file of pgvector@url has no exact-path results');
  });

  test('compareBaselines: another dataset sha256 is INVALID_INPUT naming both sides', () => {
    expect(() => compareBaselines(baseline('pgvector@x', SHA, true), baseline('pgvector@y', 'b'.repeat(64), true), T)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/baseline pgvector@x has agent-memories sha256 aaaaaaaaaaaa.*candidate pgvector@y has agent-memories sha256 bbbbbbbbbbbb/),
      }),
    );
  });

  test('readBaseline: a report.json, a schema break and an unreadable file are INVALID_INPUT naming the file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-diff-math-'));
    const rep = path.join(dir, 'report.json');
    writeFileSync(rep, JSON.stringify({ format: 'memory-matrix-report', version: 1 }));
    expect(() => readBaseline(rep)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining(`baseline ${rep} is a report.json`) }));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...baseline('pgvector@x', SHA, false), runs: {} }));
    expect(() => readBaseline(bad)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining(`baseline ${bad}: runs.index: Required`) }));
    expect(() => readBaseline(path.join(dir, 'none.json'))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('none.json: cannot read it: ENOENT') }));
  });

  test('defaultBaselineFile: matrix-baselines/<target>.json under the working directory, url names made file-safe', () => {
    expect(defaultBaselineFile('pgvector@pg17', '/w')).toBe('/w/matrix-baselines/pgvector@pg17.json');
    expect(defaultBaselineFile('pgvector@url(db.local:5432/app)', '/w')).toBe('/w/matrix-baselines/pgvector@url_db.local_5432_app_.json');
  });

  test('applyIndexOverride: fields of the index type only, positive integers', () => {
    const hnsw = { type: 'hnsw' as const, m: 16, efConstruction: 64, efSearch: 100 };
    expect(applyIndexOverride('t', hnsw, ['efSearch=4'])).toEqual({ index: { ...hnsw, efSearch: 4 }, override: { efSearch: 4 } });
    expect(applyIndexOverride('t', hnsw, [])).toEqual({ index: hnsw, override: null });
    expect(() => applyIndexOverride('pgvector@pg17', hnsw, ['probes=3'])).toThrow(
      expect.objectContaining({ code: 'USAGE', message: '--index "probes=3": pgvector@pg17 has a hnsw index whose parameters are m, efConstruction, efSearch' }),
    );
    expect(() => applyIndexOverride('t', hnsw, ['efSearch=0'])).toThrow(expect.objectContaining({ code: 'USAGE' }));
    expect(() => applyIndexOverride('t', hnsw, ['efSearch'])).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('expected key=value') }));
  });
});
