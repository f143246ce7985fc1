/**
 * An embedded cell run in a child process by the real CLI (src/cell-child) records the same cell
 * as the same cell run in the runner's process: same checks, verdicts, figures and notes (times
 * aside), and the console names the child. A run of child cells interrupted by SIGINT / SIGTERM
 * records that signal in every cell and prints only the user's report dir. Needs no Docker
 * (SQLite and PGlite in process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CellReport, MatrixReport } from '../src/report/model';
import { cli, REPO, RUNNER_DIR } from './cli-helpers';

/** How the CLI (working directory REPO) prints a report dir: relative inside REPO, absolute outside it (src/shown-dir.ts). */
const shown = (dir: string): string => (path.relative(REPO, dir).startsWith('..') ? dir : path.relative(REPO, dir));

const TARGET = 'sqlite@3.53-vec0.1.9';
const ARGS = ['--backend', TARGET, '--check', 'C01,C03,C18'];

/** A cell without what varies from run to run (times, and the host factor each step measured as it began). */
function stable(c: CellReport): unknown {
  return JSON.parse(JSON.stringify(c, (k, v: unknown) => (k === 'durationMs' || k === 'timings' || k === 'hostFactor' || /Ms$/.test(k) ? undefined : v)));
}

test('MM_EMBEDDED_INPROCESS=0 (child) and =1 (in process) record the same cell', () => {
  const child = cli(ARGS, { env: { MM_EMBEDDED_INPROCESS: '0' } });
  expect(child.stderr).toContain(`${TARGET}: running in a child process (pid `);
  expect(child.stderr).toContain(`✓ ${TARGET} × agent-memories › C01 write-read`);
  expect(child.status).toBe(0);
  const inproc = cli(ARGS, { env: { MM_EMBEDDED_INPROCESS: '1' } });
  expect(inproc.stderr).not.toContain('child process');
  expect(inproc.status).toBe(0);
  const [a, b] = [child.report!, inproc.report!];
  expect(a.cells).toHaveLength(1);
  expect(a.cells[0]!.checks.map((c) => [c.id, c.status])).toEqual([
    ['C01', 'passed'],
    ['C03', 'passed'],
    ['C18', 'skipped'],
  ]);
  expect(a.cells[0]!.timings.startMs).toEqual(expect.any(Number));
  expect(stable(a.cells[0]!)).toEqual(stable(b.cells[0]!));
  expect(a.summary).toEqual(b.summary);
  expect(a.capabilityMatrix).toEqual(b.capabilityMatrix);
}, 480_000);

describe('a run of child cells interrupted', () => {
  const PGLITE = ['pgvector@pglite-pg16', 'pgvector@pglite-pg18'];
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-interrupt-'));
  afterAll(() => rmSync(reportDir, { recursive: true, force: true }));
  /** The run of the current test: a test that fails before it signals the run stops it (SIGTERM: it stops its child cells). */
  let running: ChildProcess | undefined;
  afterEach(() => {
    if (running?.exitCode === null && running.signalCode === null) running.kill('SIGTERM');
    running = undefined;
  });

  // SIGINT to the process group, as a terminal's Ctrl-C sends it (the child cells are in groups of their own); SIGTERM to the pid.
  test.each<['SIGINT' | 'SIGTERM', 'group' | 'pid', number]>([
    ['SIGINT', 'group', 130],
    ['SIGTERM', 'pid', 143],
  ])(
    '%s to the %s: every cell names it, the only report path printed is --report-dir, no child or temp dir left',
    async (sig, to, status) => {
      const dir = path.join(reportDir, sig);
      const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
      delete env.JEST_WORKER_ID;
      delete env.MM_EMBEDDED_INPROCESS;
      const run = spawn(
        process.execPath,
        ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), ...PGLITE.flatMap((t) => ['--backend', t]), '--parallel', '2', '--report-dir', dir],
        {
          cwd: REPO,
          env,
          detached: true, // a process group of its own, led by the run (setsid)
        },
      );
      running = run;
      let out = '';
      let err = '';
      run.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => run.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null))));
      // Each child has completed a check (`› Cnn`, not a step such as `› load 5111 memories`) and has more
      // to run: the partial cells come from the children's own reports.
      const checking = new Promise<void>((resolve) => {
        run.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          if (PGLITE.every((t) => err.includes(`✓ ${t} × agent-memories › C`))) resolve();
        });
      });
      await Promise.race([checking, exited]);
      if (run.exitCode !== null) throw new Error(`the run ended before it was interrupted (exit ${run.exitCode}); stderr:\n${err.slice(-2000)}`);
      const pids = [...err.matchAll(/running in a child process \(pid (\d+)\)/g)].map((m) => Number(m[1]));
      expect(pids).toHaveLength(2);
      process.kill(to === 'group' ? -run.pid! : run.pid!, sig);
      const code = await exited;
      if (code !== status) throw new Error(`exit ${code}; stderr:\n${err.slice(-2000)}`);

      // The console: the run and each child name the signal sent; no child temp dir, one report path.
      const other = sig === 'SIGINT' ? 'SIGTERM' : 'SIGINT';
      expect(err).toContain(`\n${sig}: stopping 0 target backend(s) and any fault instances their checks started, 2 cell process(es)`);
      // Each child stops on the signal passed on, or, busy past its grace (a long synchronous PGlite call on a loaded host), is killed: its journal keeps its verdicts.
      for (const t of PGLITE)
        expect(err).toMatch(
          new RegExp(`${t}: (${sig}: stopping |its cell process was stopped before it wrote its report \\(signal SIGKILL\\) during .*; the \\d+ result\\(s\\) its journal holds are kept)`),
        );
      expect(out + err).not.toContain(other);
      expect(out + err).not.toContain('mm-cell-');
      expect(err.match(/partial report \(INTERRUPTED\): .*/g)).toEqual([`partial report (INTERRUPTED): ${shown(dir)}/{report.json,junit.xml,report.md,report.html}`]);

      // The report: each cell holds what its child completed, and its checks not run name the signal sent.
      const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as MatrixReport;
      expect(report.error).toEqual({ code: 'INTERRUPTED', message: `interrupted by ${sig}; the report holds the checks that completed before it` });
      expect(report.cells.map((c) => c.target)).toEqual(PGLITE);
      for (const c of report.cells) {
        expect(c.checks.filter((r) => r.status === 'passed').length).toBeGreaterThan(0);
        const notRun = c.checks.filter((r) => r.skipReason?.startsWith('not run'));
        expect(notRun.length).toBeGreaterThan(0);
        expect(new Set(notRun.map((r) => r.skipReason))).toEqual(new Set([`not run: the run was interrupted by ${sig}`]));
      }
      expect(readFileSync(path.join(dir, 'report.md'), 'utf8') + readFileSync(path.join(dir, 'junit.xml'), 'utf8')).not.toContain(other);

      // Nothing left: the child cells have exited, the run's temp root (holding their report dirs) is gone.
      for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
      expect(readdirSync(os.tmpdir()).filter((d) => d.startsWith(`mm-run-${run.pid}-`))).toEqual([]);
    },
    300_000,
  );
});
