/**
 * The CLI always ends (issue 35, item 4): SIGINT and SIGTERM at each phase of a run — the start of
 * a backend, the golden load, the checks, the teardown, the writing of the reports — end it with
 * 130 / 143 within 10 s, and nothing it started is left running. The die driver
 * (fixtures/die-driver) hangs at the chosen step in the cell's child process (MM_TEST_PAUSE_AT;
 * its marker file says it is there, with the child's pid); the report phase hangs on the file
 * system: a FIFO nobody reads in place of report.json's temporary file, so the write never returns
 * (a hung network mount). There a process can only end by the signal itself (Node's exit waits for
 * the worker thread stuck in the write: exit-surely.ts), which a shell reports as 130 / 143 too.
 * SIGINT runs the cell in a child process (whose pid must be gone too), SIGTERM in the CLI's own
 * process (MM_EMBEDDED_INPROCESS). Real CLI, no Docker.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO, RUNNER_DIR } from './cli-helpers';

const DIE = path.join(__dirname, 'fixtures', 'die-driver');
const TINY = path.join(REPO, 'packages', 'spec', 'test', 'fixtures', 'golden-tiny');
const PHASES = ['start', 'load', 'checks', 'teardown', 'report'] as const;
type Phase = (typeof PHASES)[number];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-signals-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** One run paused at `phase`, sent `sig` once there: how it ended, ms from the signal to its end, its output, the child cell's pid. */
async function signalledAt(
  phase: Phase,
  sig: 'SIGINT' | 'SIGTERM',
  mode: 'child' | 'inprocess',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number; out: string; pids: number[]; dir: string }> {
  const dir = path.join(tmp, `${sig}-${phase}`);
  const marker = path.join(tmp, `${sig}-${phase}.marker`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FORCE_COLOR: '0',
    MM_DRIVERS: path.join(DIE, 'index.ts'),
    MM_CATALOG: path.join(DIE, 'targets.yaml'),
    MM_EMBEDDED_INPROCESS: mode === 'child' ? '0' : '1',
    MM_TEST_PAUSE_AT: phase,
    MM_TEST_PAUSE_MARKER: marker,
  };
  delete env.JEST_WORKER_ID;
  const cliArgs = ['--backend', 'die@1', '--dataset', TINY, '--check', 'C01,C03', '--update-golden', '--report-dir', dir];
  const run = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), ...cliArgs], { cwd: REPO, env });
  let out = '';
  run.stdout.on('data', (d: Buffer) => (out += d.toString()));
  run.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => run.on('exit', (code, signal) => resolve({ code, signal })));
  let exited = false;
  void ended.then(() => (exited = true));
  try {
    if (phase === 'report') {
      // report.json's temporary file (report/atomic.ts tempFileOf) is a FIFO nobody opens: its write never returns.
      execFileSync('mkdir', ['-p', dir]);
      execFileSync('mkfifo', [path.join(dir, `.report.json.tmp-${run.pid}`)]);
    }
    // At the step: the marker (the driver is there); for the report, the cell's process has ended too (its engine closed).
    const pids = (): number[] => [...out.matchAll(/running in a child process \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    const reached = (): boolean => existsSync(marker) && (phase !== 'report' || !pids().some(alive));
    for (let t = 0; !reached() && !exited && t < 600; t++) await sleep(200);
    if (phase === 'report') await sleep(1_000);
    if (exited || !reached()) throw new Error(`${sig} ${phase}: the run ended or never reached the phase; its output:\n${out.slice(-3000)}`);
    const t0 = performance.now();
    run.kill(sig);
    let timer: NodeJS.Timeout | undefined;
    const end = await Promise.race([ended, new Promise<null>((r) => (timer = setTimeout(() => r(null), 30_000)))]);
    clearTimeout(timer);
    if (!end) throw new Error(`${sig} ${phase}: still running 30 s after the signal; its output:\n${out.slice(-3000)}`);
    return { ...end, ms: performance.now() - t0, out, pids: pids(), dir };
  } finally {
    if (!exited) run.kill('SIGKILL');
  }
}

// SIGINT with the cell in a child process (its pid must be gone too), SIGTERM with the cell in the CLI's own process.
describe.each([
  ['SIGINT', 'child'],
  ['SIGTERM', 'inprocess'],
] as const)('%s, the cell %s', (sig, mode) => {
  const status = sig === 'SIGINT' ? 130 : 143;
  test.each(PHASES)(
    `at the %s: exit ${status} within 10 s, no process of the run left`,
    async (phase) => {
      const r = await signalledAt(phase, sig, mode);
      process.stderr.write(`${sig} ${mode} ${phase}: ${r.code === null ? `signal ${r.signal}` : `exit ${r.code}`} ${Math.round(r.ms)} ms after the signal\n`);
      // Stuck in a write, the process ends by the signal's own default action (a shell reports 128 + n); elsewhere by process.exit(130 / 143).
      if (phase === 'report') expect(r.code === status || r.signal === sig).toBe(true);
      else if (r.code !== status) throw new Error(`${sig} ${phase}: exit ${r.code} (signal ${r.signal}); its output:\n${r.out.slice(-3000)}`);
      expect(r.ms).toBeLessThan(10_000);
      expect(r.pids).toHaveLength(mode === 'child' ? 1 : 0);
      await sleep(500);
      for (const pid of r.pids) expect([pid, alive(pid)]).toEqual([pid, false]);
      if (phase !== 'report') {
        const report = JSON.parse(readFileSync(path.join(r.dir, 'report.json'), 'utf8')) as { error?: { code: string } };
        expect(report.error?.code).toBe('INTERRUPTED');
      } else expect(r.out).toContain('the partial report could not be written');
    },
    180_000,
  );
});
