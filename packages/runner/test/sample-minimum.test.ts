/**
 * `memory-matrix sample` refuses datasets the checks cannot use, before it touches the store (the
 * --from URL points at a closed port: a refusal that read the store would fail with
 * TARGET_UNAVAILABLE instead). No Docker needed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHECK_MIN_MEMORIES, MIN_DATASET_MEMORIES, MIN_DATASET_QUERIES } from '@memory-matrix/spec';
import { REPO, RUNNER_DIR } from './cli-helpers';

const NO_STORE = 'postgres://nobody@127.0.0.1:9/none';
const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-sample-min-'));

function sample(args: string[]): { status: number | null; stderr: string } {
  const env = { ...process.env };
  delete env.JEST_WORKER_ID;
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), 'sample', '--from', NO_STORE, '--seed', '1', ...args], {
    cwd: REPO,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('sample: minimum dataset size (derived from the checks)', () => {
  test('the minimum is the largest per-check need: C23 with 53 memories; queries: C04 with 10', () => {
    expect(MIN_DATASET_MEMORIES).toEqual({ count: Math.max(...Object.values(CHECK_MIN_MEMORIES)), check: 'C23' });
    expect(MIN_DATASET_MEMORIES.count).toBe(53);
    expect(CHECK_MIN_MEMORIES.C22).toBe(22);
    expect(MIN_DATASET_QUERIES).toEqual({ count: 10, check: 'C04' });
  });

  test('--n below the minimum: exit 2 naming the check, before the store is read', () => {
    const r = sample(['--n', '20', '--out', path.join(tmp, 'n20')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--n 20: a dataset needs at least 53 memories .*check C23 needs 53; the per-check minimums are C11 6, .*C22 22/);
    expect(r.stderr).not.toMatch(/TARGET_UNAVAILABLE|ECONNREFUSED/);
  }, 120_000);

  test('--queries below the minimum: exit 2 naming C04, before the store is read', () => {
    const r = sample(['--n', '100', '--queries', '5', '--out', path.join(tmp, 'q5')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--queries 5: a dataset needs at least 10 held-out queries: check C04/);
    expect(r.stderr).not.toMatch(/TARGET_UNAVAILABLE|ECONNREFUSED/);
  }, 120_000);

  test('an existing --out without --overwrite names the CLI flag, not the library option', () => {
    const out = path.join(tmp, 'exists');
    mkdirSync(out);
    writeFileSync(path.join(out, 'manifest.json'), '{}');
    const r = sample(['--n', '100', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/exists; pass --overwrite to replace it/);
    expect(r.stderr).not.toMatch(/overwrite: true/);
  }, 120_000);
});
