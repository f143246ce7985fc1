/**
 * The report dir's lock (report/lock.ts): a second run given the same --report-dir stops at once
 * (exit 2 naming the pid and the command line of the run that holds it) and leaves the first run's reports as they were;
 * a lock left by a process that is gone is taken over. `merge` and `diff` take the same lock: refused
 * the same way while another process writes there, and they release it when they succeed, when
 * their write fails, and on SIGINT / SIGTERM. Real processes, real files (a named pipe as a merge
 * input holds a merge mid-read while it has the lock).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emptyReport } from '../src/report/model';
import { lockCommandLine, lockReportDir, REPORT_LOCK } from '../src/report/lock';
import { settleReport } from '../src/report/settle';
import { reportJson } from '../src/report/write';
import { cli, REPO, RUNNER_DIR } from './cli-helpers';

const dirs: string[] = [];
const tmpDir = (): string => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'mm-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A pid that certainly belongs to no process any more: a child that has exited and been reaped. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

test('taken, held against a live owner (USAGE naming its pid), released; a dead owner’s lock is taken over', () => {
  const dir = tmpDir();
  const release = lockReportDir(dir);
  // pid, command, and the command line of this process (jest's here), on one line each
  expect(readFileSync(path.join(dir, REPORT_LOCK), 'utf8')).toBe(`${process.pid}\nrun\n${lockCommandLine(process.argv.slice(2))}\n`);
  release();
  expect(existsSync(path.join(dir, REPORT_LOCK))).toBe(false);
  lockReportDir(dir, '--report-dir', 'merge')();
  expect(existsSync(path.join(dir, REPORT_LOCK))).toBe(false);

  writeFileSync(path.join(dir, REPORT_LOCK), `${deadPid()}\n`);
  lockReportDir(dir)();
  expect(existsSync(path.join(dir, REPORT_LOCK))).toBe(false);
});

test('a second run into a report dir a live run holds: exit 2 naming that pid, the first run’s report untouched', async () => {
  const dir = tmpDir();
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    writeFileSync(path.join(dir, REPORT_LOCK), `${holder.pid}\n`);
    writeFileSync(path.join(dir, 'report.json'), '{"the":"first run"}\n');
    const r = cli(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01', '--report-dir', dir]);
    expect(r.status).toBe(2);
    expect(r.stdout + r.stderr).toContain(`--report-dir ${dir}: another memory-matrix run (pid ${holder.pid}) is writing its reports there`);
    expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe('{"the":"first run"}\n');
    expect(readFileSync(path.join(dir, REPORT_LOCK), 'utf8')).toBe(`${holder.pid}\n`);
  } finally {
    holder.kill('SIGKILL');
  }
});

const CLI = path.join(RUNNER_DIR, 'src', 'cli.ts');
const LOCK_TEXT = (pid: number | undefined, command: string): string => `${pid}\n${command}\n`;
/** The lock a real CLI process writes: pid, command, command line. */
const CLI_LOCK = (pid: number | undefined, args: string[]): string => `${pid}\n${args[0]}\nmemory-matrix ${args.join(' ')}\n`;

/** The environment of a child CLI: ours minus jest's worker marker. */
function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete e.JEST_WORKER_ID;
  return e;
}

/** The CLI in one child process (`--require tsx/cjs`, no tsx wrapper process: the lock's pid is this child's). */
function mm(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), CLI, ...args], { cwd: REPO, encoding: 'utf8', env: env(), timeout: 120_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** The CLI started in the background: its output so far and its exit status (or the signal it died of, unhandled). */
function start(args: string[]): { child: ChildProcess; out: () => string; exited: Promise<number | NodeJS.Signals | null> } {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), CLI, ...args], { cwd: REPO, env: env() });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return { child, out: () => out, exited };
}

/** Resolves when `cond()` holds; rejects after `ms`, or at once when `child` has exited. */
async function until(cond: () => boolean, what: string, child: ChildProcess, out: () => string, ms = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before ${what}:\n${out()}`);
    if (Date.now() - t0 > ms) throw new Error(`no ${what} after ${ms} ms:\n${out()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const lockOf = (dir: string): string | null => (existsSync(path.join(dir, REPORT_LOCK)) ? readFileSync(path.join(dir, REPORT_LOCK), 'utf8') : null);
const files = (dir: string): string[] => readdirSync(dir).sort();

/** A merge input: a settled empty report.json (a valid report of version 1). */
const REPORT_TEXT = reportJson(settleReport(emptyReport(['run'], '2026-12-01T00:00:00.000Z')));
function reportFile(): string {
  const f = path.join(tmpDir(), 'report.json');
  writeFileSync(f, REPORT_TEXT);
  return f;
}

/** A minimal valid baseline file (diff of it with itself: PASS). */
function baselineFile(): string {
  const f = path.join(tmpDir(), 'baseline.json');
  const query = { query: 'q1', k: 2, ids: ['a', 'b'], scores: [0.9, 0.8], ms: 1 };
  writeFileSync(
    f,
    JSON.stringify({
      format: 'memory-matrix-baseline',
      version: 1,
      target: 'toy@1',
      backend: 'toy',
      provider: 'embedded',
      provenance: { tolerances: { scoreTolerance: 1e-5, tieEpsilon: 1e-5 }, components: {}, serverVersion: 'toy 1', image: null, imageId: null, indexOverride: null },
      dataset: { name: 'toy', sha256: 'a'.repeat(64) },
      runs: { index: { scan: 'index', index: { type: 'none' }, oracleRecall: { mean: 1, min: 1 }, queries: [query] } },
    }),
  );
  return f;
}

/**
 * A named pipe as a merge input: the merge blocks reading it (holding the lock) until `feed` writes
 * `REPORT_TEXT` into it from a child process (which waits for the reader, so the order does not matter).
 */
function namedPipe(): { file: string; feed: () => ChildProcess } {
  const file = path.join(tmpDir(), 'shard.json');
  const r = spawnSync('mkfifo', [file]);
  if (r.status !== 0) throw new Error(`mkfifo ${file}: ${r.stderr?.toString() ?? r.error?.message}`);
  return {
    file,
    feed: () => spawn(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(file)}, ${JSON.stringify(REPORT_TEXT)})`], { stdio: 'ignore' }),
  };
}

const POSIX = process.platform !== 'win32';

describe('merge and diff take the report dir’s lock as run does', () => {
  test('merge into a report dir a live run holds: exit 2 (USAGE) naming the dir and the pid; nothing written, the lock kept', () => {
    const dir = tmpDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(path.join(dir, REPORT_LOCK), `${holder.pid}\n`);
      writeFileSync(path.join(dir, 'report.json'), '{"the":"first run"}\n');
      const r = mm(['merge', reportFile(), '--report-dir', dir]);
      expect(r.status).toBe(2);
      expect(r.out).toContain(
        `memory-matrix: USAGE: --report-dir ${dir}: another memory-matrix run (pid ${holder.pid}) is writing its reports there; wait for it to end or give this merge its own --report-dir`,
      );
      expect(files(dir)).toEqual([REPORT_LOCK, 'report.json']);
      expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe('{"the":"first run"}\n');
      expect(lockOf(dir)).toBe(`${holder.pid}\n`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  test('diff into a report dir a live merge holds: exit 2 (USAGE) naming the merge and its pid; nothing written or removed, the lock kept', () => {
    const dir = tmpDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(path.join(dir, REPORT_LOCK), LOCK_TEXT(holder.pid, 'merge'));
      writeFileSync(path.join(dir, 'diff.md'), '# the previous diff\n');
      const b = baselineFile();
      const r = mm(['diff', '--baseline', b, '--candidate', b, '--report-dir', dir]);
      expect(r.status).toBe(2);
      expect(r.out).toContain(`USAGE: --report-dir ${dir}: another memory-matrix merge (pid ${holder.pid}) is writing its reports there; wait for it to end or give this diff its own --report-dir`);
      expect(files(dir)).toEqual([REPORT_LOCK, 'diff.md']);
      expect(readFileSync(path.join(dir, 'diff.md'), 'utf8')).toBe('# the previous diff\n');
      expect(lockOf(dir)).toBe(LOCK_TEXT(holder.pid, 'merge'));
    } finally {
      holder.kill('SIGKILL');
    }
  });

  test('migrate into a report dir a live diff holds: exit 2 (USAGE) naming the diff and its pid, before any backend starts; nothing written', () => {
    const dir = tmpDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(path.join(dir, REPORT_LOCK), LOCK_TEXT(holder.pid, 'diff'));
      writeFileSync(path.join(dir, 'migrate.json'), '{"the":"first migrate"}\n');
      const r = mm(['migrate', '--from', 'pgvector@pglite-pg18', '--to', 'pgvector@pglite-pg16', '--report-dir', dir]);
      expect(r.status).toBe(2);
      expect(r.out).toContain(`USAGE: --report-dir ${dir}: another memory-matrix diff (pid ${holder.pid}) is writing its reports there; wait for it to end or give this migrate its own --report-dir`);
      expect(r.out).not.toContain('starting both');
      expect(files(dir)).toEqual([REPORT_LOCK, 'migrate.json']);
      expect(readFileSync(path.join(dir, 'migrate.json'), 'utf8')).toBe('{"the":"first migrate"}\n');
      expect(lockOf(dir)).toBe(LOCK_TEXT(holder.pid, 'diff'));
    } finally {
      holder.kill('SIGKILL');
    }
  });

  test('merge and diff release the lock when they succeed and when their write fails (no temporary file either)', () => {
    const merged = tmpDir();
    expect(mm(['merge', reportFile(), '--report-dir', merged]).status).toBe(1); // written; its one input holds no check: "no check ran", exit 1
    expect(files(merged)).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md']);

    const htmlDir = tmpDir();
    mkdirSync(path.join(htmlDir, 'report.html'));
    const m = mm(['merge', reportFile(), '--report-dir', htmlDir]);
    expect(m.status).toBe(2);
    expect(m.out).toMatch(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(files(htmlDir)).toEqual(['report.html']);

    const b = baselineFile();
    const diffed = tmpDir();
    expect(mm(['diff', '--baseline', b, '--candidate', b, '--report-dir', diffed]).status).toBe(0);
    expect(files(diffed)).toEqual(['diff.json', 'diff.md']);

    const mdDir = tmpDir();
    mkdirSync(path.join(mdDir, 'diff.md'));
    const d = mm(['diff', '--baseline', b, '--candidate', b, '--report-dir', mdDir]);
    expect(d.status).toBe(2);
    expect(d.out).toMatch(/EISDIR|EEXIST|ENOTEMPTY/);
    expect(files(mdDir)).toEqual(['diff.md']);
  }, 120_000);

  (POSIX ? test : test.skip)(
    'a merge holds the lock while it reads its inputs: a run and a diff into that dir are refused naming the merge; it then writes its report and releases the lock',
    async () => {
      const dir = tmpDir();
      const pipe = namedPipe();
      const args = ['merge', pipe.file, '--report-dir', dir];
      const m = start(args);
      let feeder: ChildProcess | undefined;
      try {
        await until(() => lockOf(dir) === CLI_LOCK(m.child.pid, args), 'merge lock', m.child, m.out);
        const run = cli(['--backend', 'sqlite@3.53-vec0.1.9', '--check', 'C01', '--report-dir', dir]);
        expect(run.status).toBe(2);
        expect(run.stdout + run.stderr).toContain(
          `--report-dir ${dir}: another memory-matrix merge (pid ${m.child.pid}: memory-matrix ${args.join(' ')}) is writing its reports there; wait for it to end or give this run its own --report-dir`,
        );
        const b = baselineFile();
        const diff = mm(['diff', '--baseline', b, '--candidate', b, '--report-dir', dir]);
        expect(diff.status).toBe(2);
        expect(diff.out).toContain(
          `another memory-matrix merge (pid ${m.child.pid}: memory-matrix ${args.join(' ')}) is writing its reports there; wait for it to end or give this diff its own --report-dir`,
        );
        expect(files(dir)).toEqual([REPORT_LOCK]);
        feeder = pipe.feed();
        expect(await m.exited).toBe(1); // its one input holds no check: "no check ran", exit 1
        expect(files(dir)).toEqual(['junit.xml', 'report.html', 'report.json', 'report.md']);
      } finally {
        m.child.kill('SIGKILL');
        feeder?.kill('SIGKILL');
      }
    },
    180_000,
  );

  (POSIX ? test.each : test.skip.each)([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'a merge interrupted by %s while it holds the lock: exit %d, INTERRUPTED, nothing written, the lock released',
    async (sig, code) => {
      const dir = tmpDir();
      writeFileSync(path.join(dir, 'report.json'), '{"the":"previous merge"}\n');
      const pipe = namedPipe();
      const args = ['merge', pipe.file, '--report-dir', dir];
      const m = start(args);
      let feeder: ChildProcess | undefined;
      try {
        await until(() => lockOf(dir) === CLI_LOCK(m.child.pid, args), 'merge lock', m.child, m.out);
        m.child.kill(sig);
        feeder = pipe.feed(); // lets the read end, if the merge got that far, so it reaches the signal
        expect(await m.exited).toBe(code);
        expect(m.out()).toContain(`${sig}: INTERRUPTED: nothing merged`);
        expect(lockOf(dir)).toBeNull();
        expect(files(dir)).toEqual(['report.json']);
        expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe('{"the":"previous merge"}\n');
      } finally {
        m.child.kill('SIGKILL');
        feeder?.kill('SIGKILL');
      }
    },
    120_000,
  );
});
