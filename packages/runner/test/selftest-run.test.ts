/**
 * `memory-matrix selftest` end to end through the real CLI, on backends that need no Docker:
 * - the toy driver (fixtures/toy-driver, registered through MM_DRIVERS alone, as a user's own
 *   driver would be), in this process (`--parallel 1`): a mutant caught, one n/a, exit 0, the
 *   reports written; with a profile's check tier in 2 kept worker processes (`--profile`,
 *   `--first` in FIRST_ORDER); an unknown mutant or check is USAGE (exit 2) before anything starts;
 * - sqlite@3.53-vec0.1.9 (embedded) with two mutants in worker processes (`--parallel 2`): the
 *   clean run passes the whole catalogue and both mutants are caught (`--first`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SelftestReport } from '../src/selftest/model';
import { REPO, RUNNER_DIR } from './cli-helpers';

const TOY = path.join(__dirname, 'fixtures', 'toy-driver');
const TOY_ENV = { MM_DRIVERS: path.join(TOY, 'index.ts'), MM_CATALOG: path.join(TOY, 'targets.yaml') };

/** Run `memory-matrix selftest …` in a child process; its status, output and selftest.json. */
function selftest(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000): { status: number | null; stdout: string; stderr: string; report?: SelftestReport } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-selftest-report-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...env };
  delete childEnv.JEST_WORKER_ID;
  const r = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(RUNNER_DIR, 'src', 'cli.ts'), 'selftest', '--report-dir', dir, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: childEnv,
    timeout: timeoutMs,
  });
  let report: SelftestReport | undefined;
  try {
    report = JSON.parse(readFileSync(path.join(dir, 'selftest.json'), 'utf8')) as SelftestReport;
  } catch {
    report = undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, report };
}

describe('selftest on a driver of its own (the toy driver through MM_DRIVERS)', () => {
  test('score-as-distance is caught, ttl-missing-one-key is n/a: exit 0, selftest.json and the table', () => {
    const r = selftest(['--backend', 'toy@1', '--mutant', 'score-as-distance,ttl-missing-one-key', '--first', '--parallel', '1'], TOY_ENV, 600_000);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    const t = r.report!.targets[0]!;
    expect(t.clean.status).toBe('clean');
    expect(t.mutants.map((m) => [m.mutant, m.status])).toEqual([
      ['score-as-distance', 'caught'],
      ['ttl-missing-one-key', 'n/a'],
    ]);
    expect(t.mutants[0]!.caughtBy).toHaveLength(1); // --first: stopped at the first catching check
    expect(r.report!.summary).toMatchObject({ applicable: 1, caught: 1, escaped: 0, caughtPct: 100 });
    expect(r.stdout).toMatch(/score-as-distance\s+│ caught by C\d\d/);
    expect(r.stdout).toContain('1 of 1 mutants caught (100.0 %)');
  }, 600_000);

  test('--profile runs only its check tier, --first in FIRST_ORDER, in 2 kept worker processes: 3 runs, both mutants caught', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mm-selftest-catalog-'));
    try {
      const catalog = path.join(dir, 'targets.yaml');
      writeFileSync(catalog, readFileSync(TOY_ENV.MM_CATALOG, 'utf8') + '  fast:\n    description: three checks\n    targets: [toy@1]\n    checks: [C08, C10, C25]\n');
      const r = selftest(['--profile', 'fast', '--mutant', 'score-as-distance,filter-dropped', '--first', '--parallel', '2'], { ...TOY_ENV, MM_CATALOG: catalog }, 600_000);
      expect(r.report?.error).toBeUndefined();
      expect(r.stdout).toContain('1 target(s) from profile fast, 2 mutant(s), checks C08 C10 C25, --first, 2 run(s) at once (worker processes)');
      expect(r.report!.checks).toEqual(['C08', 'C10', 'C25']);
      const t = r.report!.targets[0]!;
      expect(t.clean).toMatchObject({ status: 'clean', checksRun: 3 });
      expect(Object.keys(t.clean.checkMs!).sort()).toEqual(['C08', 'C10', 'C25']);
      // FIRST_ORDER: C25, then C10 (then C08): score-as-distance passes C25 and is caught by C10; filter-dropped is caught by C25 alone.
      expect(t.mutants.map((m) => [m.mutant, m.status, m.caughtBy.map((c) => c.id), m.checksRun])).toEqual([
        ['score-as-distance', 'caught', ['C10'], 2],
        ['filter-dropped', 'caught', ['C25'], 1],
      ]);
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  test('an unknown --check is USAGE naming it (exit 2) before anything starts', () => {
    const r = selftest(['--backend', 'toy@1', '--check', 'C08,C99', '--parallel', '1'], TOY_ENV);
    expect(r.status).toBe(2);
    expect(r.report!.error).toMatchObject({ code: 'USAGE', message: expect.stringContaining('--check "C99": no such check; checks are C01 write-read') });
    expect(r.report!.targets).toEqual([]);
  }, 120_000);

  test('an unknown mutant is USAGE naming it and listing the known ones (exit 2)', () => {
    const r = selftest(['--backend', 'toy@1', '--mutant', 'no-such-mutant', '--parallel', '1'], TOY_ENV);
    expect(r.status).toBe(2);
    expect(r.report!.error).toMatchObject({ code: 'USAGE', message: expect.stringContaining('"no-such-mutant": no such mutant; mutants are score-as-distance') });
    expect(r.report!.targets).toEqual([]);
  }, 120_000);
});

describe('selftest on sqlite@3.53-vec0.1.9 (embedded, no Docker)', () => {
  test('two mutants in worker processes: the clean run passes, both caught (exit 0)', () => {
    const r = selftest(['--backend', 'sqlite@3.53-vec0.1.9', '--mutant', 'k-minus-one,falsy-metadata-lost', '--first', '--parallel', '2'], {}, 900_000);
    expect(r.report?.error).toBeUndefined();
    const t = r.report!.targets[0]!;
    expect(t.clean).toMatchObject({ status: 'clean', failed: [] });
    expect(t.mutants.map((m) => [m.mutant, m.status])).toEqual([
      ['k-minus-one', 'caught'],
      ['falsy-metadata-lost', 'caught'],
    ]);
    expect(r.status).toBe(0);
  }, 900_000);
});
