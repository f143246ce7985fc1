/**
 * A bad MM_TIME_ZONE (or MM_*_TIMEOUT_MS) stops a run as a bad MM_HOST_FACTOR does: the run takes its report dir, records
 * the USAGE error naming the variable in report.json and report.md, prints it, and exits 2 before
 * any backend starts. Other commands (they write no matrix report) stop with the same USAGE error
 * on stderr, exit 2. Real CLI processes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { cli, REPO, RUNNER_DIR } from './cli-helpers';

const ARGS = ['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01'];

describe.each([
  ['MM_HOST_FACTOR', 'abc', 'MM_HOST_FACTOR "abc": expected a number from 1 to 8'],
  ['MM_TIME_ZONE', 'Nowhere/Town', 'MM_TIME_ZONE="Nowhere/Town": not a time zone Node\'s ICU knows'],
  ['MM_TIME_ZONE', 'utc', 'MM_TIME_ZONE="utc": the C library has no zone file'],
  ['MM_CHECK_TIMEOUT_MS', ' 100', 'MM_CHECK_TIMEOUT_MS " 100": expected a positive integer of milliseconds in digits'],
  ['MM_LOAD_TIMEOUT_MS', '150000000000', `MM_LOAD_TIMEOUT_MS "150000000000": above the maximum, 2147483647 ms (2^31−1, ≈ 24.8 days: the longest delay Node's timers hold)`],
])('%s=%s on a run', (name, value, message) => {
  const r = cli(ARGS, { env: { [name]: value } });

  test('exit 2, USAGE naming the variable in report.json, report.md and the console; nothing started', () => {
    expect(r.status).toBe(2);
    expect(r.report?.error).toEqual({ code: 'USAGE', message: expect.stringContaining(message) });
    expect(r.report?.cells).toEqual([]);
    expect(readFileSync(path.join(r.reportDir, 'report.md'), 'utf8')).toContain(`> **USAGE**: ${message}`);
    expect(r.stdout).toContain(`memory-matrix: USAGE: ${message}`);
    expect(r.stdout + r.stderr).not.toContain('starting');
  });
});

test('MM_TIME_ZONE bad on another command (targets): exit 2, the USAGE error on stderr', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', MM_TIME_ZONE: 'Nowhere/Town' };
  delete env.JEST_WORKER_ID;
  const r = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(RUNNER_DIR, 'src', 'cli.ts'), 'targets'], { cwd: REPO, encoding: 'utf8', env, timeout: 120_000 });
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('memory-matrix: USAGE: MM_TIME_ZONE="Nowhere/Town": not a time zone');
  expect(r.stdout).toBe('');
});
