/**
 * Issue 35 item 2: the golden load is a step of its own, with its own limit, never charged to a
 * check. Through the real CLI, a slow layer (fixtures/slow-load-driver: the toy store whose upsert
 * sleeps 4 s per batch of 500, so the 1,200 memories of email-sample take 12 s) with a check
 * limit of 10 s (`limits:` in its catalog entry):
 * - `slowload@1` (load limit 60 s): every check runs and passes (C01 writes a collection of its
 *   own; C03 and C06 judge the golden replays, prepared as steps too); the load's time is its own step
 *   (report.json `cells[].steps`, the console table's row `load 1200 memories`, report.md);
 * - `slowload@2` (load limit 3 s): the load fails at its limit, naming what ran, how far it got,
 *   the limit and how to raise it; the checks that read the golden set are NOT_RUN with that one
 *   cause; C01 (its own collection) still runs. Exit 1.
 * A fixed host factor of 1 (MM_HOST_FACTOR) keeps the limits as written. No Docker, no server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cli, type CliResult } from './cli-helpers';

const SLOW = path.join(__dirname, 'fixtures', 'slow-load-driver');
const ENV = { MM_DRIVERS: path.join(SLOW, 'index.ts'), MM_CATALOG: path.join(SLOW, 'targets.yaml'), MM_HOST_FACTOR: '1' };
const run = (target: string): CliResult => cli(['--backend', target, '--dataset', 'email-sample', '--check', 'C01,C03,C06'], { env: ENV });

describe('a layer whose golden load takes longer than a check limit (load limit 60 s, check limit 10 s)', () => {
  let r: CliResult;
  beforeAll(() => {
    r = run('slowload@1');
  }, 240_000);

  test('every check runs and passes; exit 0', () => {
    const cell = r.report!.cells[0]!;
    expect(cell.checks.map((c) => [c.id, c.status, c.error?.message])).toEqual([
      ['C01', 'passed', undefined],
      ['C03', 'passed', undefined],
      ['C06', 'passed', undefined],
    ]);
    expect(r.status).toBe(0);
    expect(cell.limits).toEqual({ setupTimeoutMs: 120_000, loadTimeoutMs: 60_000, checkTimeoutMs: 10_000 });
  });

  test("the load is a step of its own in report.json, the console and report.md, with its time (longer than a check's limit)", () => {
    const steps = r.report!.cells[0]!.steps!;
    expect(steps.map((s) => [s.step, s.label, s.status])).toEqual([
      ['load', 'load 1200 memories', 'done'],
      ['index', 'build the index (none)', 'done'],
      ['exact-replay', 'replay 60 queries (exact scan)', 'done'],
      ['index-replay', 'replay 60 queries (index scan)', 'done'],
    ]);
    const load = steps[0]!;
    expect(load).toMatchObject({ limitMs: 60_000, hostFactor: 1, written: 1200 });
    expect(load.durationMs!).toBeGreaterThan(10_000); // 3 batches × 4 s: past the 10 s check limit
    expect(r.report!.cells[0]!.timings.loadMs).toBeCloseTo(load.durationMs!, 0);
    expect(r.stdout).toMatch(/│ load 1200 memories\s+│ \d+(\.\d)? s\s+│/);
    expect(r.stderr).toMatch(/✓ slowload@1 × email-sample › load 1200 memories: \d+(\.\d)? s/);
    expect(readFileSync(path.join(r.reportDir, 'report.md'), 'utf8')).toMatch(/\| load 1200 memories \| \d+(\.\d)? s \|/);
  });
});

describe('a golden load past its own limit (3 s)', () => {
  let r: CliResult;
  beforeAll(() => {
    r = run('slowload@2');
  }, 240_000);

  test('the load step fails with TIMEOUT naming what ran, how far it got, the limit and how to raise it', () => {
    const [load, index, replay] = r.report!.cells[0]!.steps!;
    expect(load).toMatchObject({ step: 'load', status: 'failed', limitMs: 3000, error: { code: 'TIMEOUT' } });
    expect(load!.written).toBeLessThan(1200);
    expect(load!.error!.message).toMatch(
      /^slowload@2: the golden load \(load 1200 memories, then build the index \(none\), prepared before the checks\) exceeded 3000 ms \(while load 1200 memories, \d+ written\); raise it with limits\.loadTimeoutMs of the target \(matrix\/targets\.yaml or memory-matrix\.yaml\) or MM_LOAD_TIMEOUT_MS=<ms> for the run$/,
    );
    expect(index).toMatchObject({ step: 'index', status: 'not-run' });
    expect(replay).toMatchObject({ step: 'exact-replay', status: 'not-run' });
  });

  test('the checks that read the golden set are not run with that one cause; C01 still runs; exit 1', () => {
    expect(r.status).toBe(1);
    const cell = r.report!.cells[0]!;
    const cause = `not run: the golden load failed: ${cell.steps![0]!.error!.message}`;
    expect(cell.checks.map((c) => [c.id, c.status, c.error?.code, c.error?.message])).toEqual([
      ['C01', 'passed', undefined, undefined],
      ['C03', 'failed', 'NOT_RUN', cause],
      ['C06', 'failed', 'NOT_RUN', cause],
    ]);
    expect(r.report!.summary).toMatchObject({ passed: 1, failed: 0, notRun: 2 });
    expect(r.stdout).toContain(`slowload@2: 2 check(s) not run (C03, C06): ${cause}`);
    expect(r.stdout).toMatch(/│ load 1200 memories\s+│ FAIL after 3\.\d s: TIMEOUT/);
  });
});
