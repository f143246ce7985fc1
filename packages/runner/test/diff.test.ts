/**
 * `memory-matrix record` and `memory-matrix diff` through the real CLI on the embedded target
 * pgvector@pglite-pg18 (PGlite: real PostgreSQL 18.6 + pgvector 0.8.7 in process, no Docker):
 * record → file → diff round trip, a tiny ef_search on a live candidate turning the index path to
 * FAIL naming the queries, and bad inputs exiting 2 with messages that name what is wrong.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Baseline, DiffReport } from '../src/baseline/model';
import { REPO, RUNNER_DIR } from './cli-helpers';

const TARGET = 'pgvector@pglite-pg18';

/** The CLI as `pnpm matrix …` runs it, in a child process without jest's worker marker. */
function mm(args: string[], cwd = REPO): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.JEST_WORKER_ID;
  const r = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(RUNNER_DIR, 'src', 'cli.ts'), ...args], { cwd, encoding: 'utf8', env, timeout: 400_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `diff` with a fresh report dir; returns the exit status, output and diff.json. */
function diff(args: string[]): { status: number | null; out: string; report: DiffReport; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-diff-'));
  const r = mm(['diff', ...args, '--report-dir', dir]);
  return { status: r.status, out: r.stdout + r.stderr, report: JSON.parse(readFileSync(path.join(dir, 'diff.json'), 'utf8')) as DiffReport, dir };
}

const work = mkdtempSync(path.join(os.tmpdir(), 'mm-baseline-'));
const file = path.join(work, 'pglite-pg18.json');
let baseline: Baseline;

beforeAll(() => {
  const r = mm(['record', '--backend', TARGET, '--out', file]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout).toContain(`recorded ${TARGET} → `);
  baseline = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
}, 400_000);

describe('memory-matrix record', () => {
  test('the baseline holds every query top-k on the index and the exact path, with provenance', () => {
    const queries = readFileSync(path.join(REPO, 'golden-data', 'agent-memories', 'queries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; k: number });
    expect(baseline).toMatchObject({ format: 'memory-matrix-baseline', version: 1, target: TARGET, backend: 'pgvector', provider: 'embedded' });
    for (const scan of ['index', 'exact'] as const) {
      const run = baseline.runs[scan]!;
      expect(run.queries.map((q) => [q.query, q.k])).toEqual(queries.map((q) => [q.id, q.k]));
      for (const q of run.queries) {
        expect(q.ids.length).toBeLessThanOrEqual(q.k);
        expect(q.scores).toHaveLength(q.ids.length);
      }
    }
    expect(baseline.runs.index.index).toEqual({ type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 });
    expect(baseline.runs.exact!.oracleRecall).toEqual({ mean: 1, min: 1 });
    const p = baseline.provenance;
    expect(p.components).toMatchObject({ postgres: '18.6', pgvector: '0.8.7' });
    expect(p.serverVersion).toMatch(/^PostgreSQL 18\.6/);
    expect(p.tool.name).toBe('memory-matrix');
    expect(p.host.hostname).toBe(os.hostname());
    expect(p).toMatchObject({ indexOverride: null, adapterOptions: {}, tolerances: { scoreTolerance: 1e-5, tieEpsilon: 1e-5 } });
    expect(Date.parse(p.recordedAt)).not.toBeNaN();
    expect(baseline.dataset).toMatchObject({ name: 'agent-memories', queries: queries.length, memories: 5111, dim: 384, metric: 'cosine' });
    expect(baseline.dataset.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(baseline.clusterQueries).toContain('q-0263');
  });

  test("an --index key the target's index does not have: exit 2 before anything starts or is written", () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'mm-record-cwd-'));
    const bad = mm(['record', '--backend', TARGET, '--index', 'probes=2'], cwd);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`--index "probes=2": ${TARGET} has a hnsw index whose parameters are m, efConstruction, efSearch`);
    expect(bad.stdout).not.toContain('starting');
    expect(existsSync(path.join(cwd, 'matrix-baselines'))).toBe(false);
  });
});

describe('memory-matrix diff', () => {
  test('record → file → diff of the file with itself: PASS on both paths, exit 0, diff.json and diff.md', () => {
    const r = diff(['--baseline', file, '--candidate', file]);
    expect(r.status).toBe(0);
    expect(r.report.verdict).toBe('PASS');
    expect(r.report.cells.map((c) => [c.scan, c.verdict, c.figures.meanOverlap, c.figures.changedQueries])).toEqual([
      ['index', 'PASS', 1, 0],
      ['exact', 'PASS', 1, 0],
      ['filtered index', 'PASS', 1, 0],
      ['filtered exact', 'PASS', 1, 0],
    ]);
    expect(r.report.thresholds).toEqual({ minOverlap: 0.7, minMeanOverlap: 0.98, maxScoreDelta: 1e-3, maxRankShift: 3 });
    expect(r.out).toMatch(/│ index +│ PASS/);
    expect(r.out).toMatch(/verdict: PASS \(recall@k vs oracle: index 0\.\d{4} → 0\.\d{4} \(=\), exact 1 → 1 \(=\), filtered index 0\.\d{4} → 0\.\d{4} \(=\), filtered exact 1 → 1 \(=\)\)/);
    expect(readFileSync(path.join(r.dir, 'diff.md'), 'utf8')).toMatch(/^# memory-matrix diff — ✅ PASS/);
  });

  test('a live candidate with --index efSearch=2: the index path FAILs naming the queries, the exact path passes, exit 1', () => {
    const r = diff(['--baseline', file, '--candidate', TARGET, '--index', 'efSearch=2']);
    expect(r.status).toBe(1);
    expect(r.report.verdict).toBe('FAIL');
    const [index, exact, fIndex, fExact] = r.report.cells;
    expect(index).toMatchObject({ scan: 'index', verdict: 'FAIL', candidateIndex: { type: 'hnsw', efSearch: 2 } });
    expect(exact).toMatchObject({ scan: 'exact', verdict: 'PASS' });
    // the golden filter set's results too: efSearch 2 loses filtered neighbours on the index path, the exact path is identical
    expect(fIndex).toMatchObject({ scan: 'filtered index', verdict: 'FAIL', candidateIndex: { type: 'hnsw', efSearch: 2 } });
    expect(fExact).toMatchObject({ scan: 'filtered exact', verdict: 'PASS' });
    expect(index!.figures.meanOverlap).toBeLessThan(0.98);
    expect(index!.reasons[0]).toMatch(/^mean overlap 0\.\d{4} over 353 queries < minMeanOverlap 0\.98$/);
    expect(index!.reasons[1]).toMatch(/^\d+ queries crossed a threshold: q-\d{4}, q-\d{4}/);
    const worst = index!.worst[0]!;
    expect(worst.failures[0]).toMatch(new RegExp(`^${worst.query}: overlap 0\\.\\d{4} < minOverlap 0\\.7 \\(\\d+ of \\d+ at k \\d+; missing mem-\\d{5}`));
    expect(r.out).toContain(`  - ${worst.failures[0]}`);
    // each side's recall@k against the oracle next to the verdict: efSearch 2 recalls worse
    const [ra, rb] = [index!.figures.baselineOracleRecallMean!, index!.figures.candidateOracleRecallMean!];
    expect(rb).toBeLessThan(ra);
    expect(r.out).toContain(`verdict: FAIL (recall@k vs oracle: index ${ra.toFixed(4)} → ${rb.toFixed(4)} (−${(ra - rb).toFixed(4)}), exact 1 → 1 (=), filtered index `);
    expect(r.out).toContain(`index FAIL lowers recall: the candidate's recall@k vs oracle ${rb.toFixed(4)} < the baseline's ${ra.toFixed(4)}`);
    expect(r.out).toMatch(/│ index +│ FAIL +│ 0\.\d{4} → 0\.\d{4} \(−0\.\d{4}\) +│/);
    expect(r.report.candidate).toMatchObject({ target: TARGET, source: 'live', provenance: { indexOverride: { efSearch: 2 }, catalogIndex: { efSearch: 100 } } });
    // the live recording is kept next to diff.json and reads back as a baseline
    const kept = JSON.parse(readFileSync(path.join(r.dir, 'candidate.json'), 'utf8')) as Baseline;
    expect(kept.runs.index.index).toMatchObject({ efSearch: 2 });
    expect(readFileSync(path.join(r.dir, 'diff.md'), 'utf8')).toContain(`| ${worst.query} |`);
  }, 400_000);
});

describe('memory-matrix diff: bad inputs exit 2 naming what', () => {
  test('an unknown target', () => {
    const r = diff(['--baseline', 'pgvector@pg99', '--candidate', file]);
    expect(r.status).toBe(2);
    expect(r.report.error).toMatchObject({ code: 'UNKNOWN_TARGET', message: expect.stringContaining('unknown target "pgvector@pg99"') });
    expect(r.out).toContain('memory-matrix: UNKNOWN_TARGET: unknown target "pgvector@pg99"');
  });

  test('an unreadable baseline (missing file, a folder, not JSON, a report.json)', () => {
    const missing = path.join(work, 'nope.json');
    expect(diff(['--baseline', missing, '--candidate', file]).report.error).toEqual({ code: 'INVALID_INPUT', message: expect.stringContaining(`baseline ${missing}: cannot read it: ENOENT`) });
    const folder = path.join(work, 'folder');
    mkdirSync(folder, { recursive: true });
    expect(diff(['--baseline', folder, '--candidate', file]).report.error).toEqual({ code: 'INVALID_INPUT', message: expect.stringContaining(`baseline ${folder}: cannot read it: EISDIR`) });
    const junk = path.join(work, 'junk.json');
    writeFileSync(junk, '{"format": "memory-matrix-baseline", ');
    const j = diff(['--baseline', junk, '--candidate', file]);
    expect(j.status).toBe(2);
    expect(j.report.error!.message).toContain(`baseline ${junk}: cannot read it: `);
    const report = path.join(work, 'report.json');
    writeFileSync(report, JSON.stringify({ format: 'memory-matrix-report', version: 1, cells: [] }));
    expect(diff(['--baseline', report, '--candidate', file]).report.error!.message).toContain(`baseline ${report} is a report.json`);
  });

  test('a baseline of another dataset (sha256): against a file and against a live target (refused before it starts)', () => {
    const other = path.join(work, 'other-dataset.json');
    writeFileSync(other, JSON.stringify({ ...baseline, dataset: { ...baseline.dataset, sha256: 'f'.repeat(64) } }));
    const r = diff(['--baseline', other, '--candidate', file]);
    expect(r.status).toBe(2);
    expect(r.report.error).toEqual({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(
        /^baseline and candidate are of different datasets: baseline pgvector@pglite-pg18 has agent-memories sha256 ffffffffffff…, candidate pgvector@pglite-pg18 has agent-memories sha256 [0-9a-f]{12}…/,
      ),
    });
    const live = diff(['--baseline', other, '--candidate', TARGET]);
    expect(live.status).toBe(2);
    expect(live.report.error!.message).toContain(`baseline file ${other} has agent-memories sha256 ffffffffffff…, --dataset agent-memories has agent-memories sha256`);
    expect(live.out).not.toContain('starting');
  });

  test('--index on a baseline file, and a profile without diff thresholds', () => {
    expect(diff(['--baseline', file, '--candidate', file, '--index', 'efSearch=4']).report.error).toEqual({
      code: 'USAGE',
      message: expect.stringContaining('--index applies to a candidate recorded live'),
    });
    const p = diff(['--baseline', file, '--candidate', file, '--profile', 'embedded']);
    expect(p.status).toBe(2);
    expect(p.report.error!.message).toMatch(/--profile embedded: .*targets\.yaml declares no diff thresholds for it \(profiles with them: pr-gate, release\)/);
  });
});
