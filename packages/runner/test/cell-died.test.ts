/**
 * A cell whose process dies keeps what it measured (cell-child/journal.ts): the die driver
 * (fixtures/die-driver, the toy store through the real driver API) kills its own child cell
 * process with SIGSEGV during a chosen check, as a native module's crash would. The verdicts
 * reached before it stay, every later check is "not run: the cell's process died (SIGSEGV) during
 * C08 score-canonical", the other cell runs on, exit 1. A death before any verdict (during the
 * golden load) is a cell that could not run: status error, exit 2. Real CLI, no Docker.
 */
import path from 'node:path';
import { cli, REPO, type CliResult } from './cli-helpers';

const DIE = path.join(__dirname, 'fixtures', 'die-driver');
const TINY = path.join(REPO, 'packages', 'spec', 'test', 'fixtures', 'golden-tiny');
const run = (dieAt: string): CliResult =>
  cli(['--backend', 'die@1,die@2', '--dataset', TINY, '--check', 'C01,C03,C08,C09,C10', '--update-golden'], {
    env: { MM_DRIVERS: path.join(DIE, 'index.ts'), MM_CATALOG: path.join(DIE, 'targets.yaml'), MM_TEST_DIE_AT: dieAt, MM_TEST_ONLY: 'die@1', MM_EMBEDDED_INPROCESS: '0' },
  });
const rows = (r: CliResult, target: string): Array<[string, string, string | undefined]> =>
  r.report!.cells.find((c) => c.target === target)!.checks.map((c) => [c.id, c.status, c.error?.code === 'NOT_RUN' ? c.error.message : c.error?.code]);

test('SIGSEGV during C08: C01 and C03 keep their verdicts, C08-C10 not run naming the signal and the check, die@2 runs on, exit 1', () => {
  const r = run('c08');
  expect(r.report?.error).toBeUndefined();
  const died = "not run: the cell's process died (SIGSEGV) during C08 score-canonical";
  expect(rows(r, 'die@1')).toEqual([
    ['C01', 'passed', undefined],
    ['C03', 'passed', undefined],
    ['C08', 'failed', died],
    ['C09', 'failed', died],
    ['C10', 'failed', died],
  ]);
  const cell = r.report!.cells.find((c) => c.target === 'die@1')!;
  expect(cell.status).toBe('ran');
  expect(cell.error).toMatchObject({
    code: 'CELL_DIED',
    message: expect.stringMatching(/^die@1: the cell's process died \(SIGSEGV\) during C08 score-canonical; the 2 verdict\(s\) it reached before are kept; its last output:/),
  });
  expect(cell.serverVersion).toBe('toy 1.0.0 (in memory)');
  expect(rows(r, 'die@2').map(([id, s]) => [id, s])).toEqual(['C01', 'C03', 'C08', 'C09', 'C10'].map((id) => [id, 'passed']));
  expect(r.report!.summary).toMatchObject({ passed: 7, failed: 0, notRun: 3, cellErrors: 0 });
  expect(r.status).toBe(1);
  expect(r.stdout).toContain(`die@1: 3 check(s) not run (C08, C09, C10): ${died}`);
}, 240_000);

test('SIGSEGV during the golden load, before any verdict: the cell could not run (status error), exit 2', () => {
  const r = run('golden');
  const died = "not run: the cell's process died (SIGSEGV) during the golden load (its shared fixtures)";
  // C01 needs no golden collection but runs after the load (the shared fixtures come first).
  expect(rows(r, 'die@1')).toEqual(['C01', 'C03', 'C08', 'C09', 'C10'].map((id) => [id, 'failed', died]));
  const cell = r.report!.cells.find((c) => c.target === 'die@1')!;
  expect(cell.status).toBe('error');
  expect(cell.error).toMatchObject({ code: 'CHILD_FAILED', message: expect.stringMatching(/^die@1: the cell's child process died \(SIGSEGV\) during the golden load/) });
  expect(rows(r, 'die@2').every(([, s]) => s === 'passed')).toBe(true);
  expect(r.status).toBe(2);
}, 240_000);
