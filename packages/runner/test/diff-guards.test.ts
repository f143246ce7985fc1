/**
 * `memory-matrix record` / `diff` guards through the real CLI: what is refused before anything
 * starts (a target without capability `vectors`, a bad `--out`), the previous run's files removed
 * from a reused --report-dir, and Ctrl-C (SIGINT) on the embedded target pgvector@pglite-pg18 (no
 * Docker): exit 130, INTERRUPTED printed and in diff.json / diff.md, no baseline or temporary file left,
 * the report dir's lock (taken as a run takes it) released.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DiffReport } from '../src/baseline/model';
import { REPORT_LOCK } from '../src/report/lock';
import { REPO, RUNNER_DIR } from './cli-helpers';

const TARGET = 'pgvector@pglite-pg18';
const CLI = path.join(RUNNER_DIR, 'src', 'cli.ts');

function env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...extra };
  delete e.JEST_WORKER_ID;
  return e;
}

/** The CLI as `pnpm matrix …` runs it, in a child process without jest's worker marker. */
function mm(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), CLI, ...args], { cwd: opts.cwd ?? REPO, encoding: 'utf8', env: env(opts.env), timeout: 400_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Start the CLI, send SIGINT once stdout shows `when`; resolves with the exit status and output. */
async function interrupt(args: string[], when: RegExp, cwd = REPO): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), CLI, ...args], { cwd, env: env() });
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const seen = new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => ((out += d.toString()), when.test(out) && resolve())));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null))));
  await Promise.race([seen, exited]);
  child.kill('SIGINT');
  return { code: await exited, out };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-diff-guards-'));

describe('record: refused before anything starts', () => {
  test('--backend naming a target without capability vectors: exit 2 naming the target and the capability', () => {
    const cwd = mkdtempSync(path.join(tmp, 'cwd-'));
    const r = mm(['record', '--backend', 'redis@7.0'], { cwd });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('CAPABILITY_MISSING: record --backend: redis@7.0 has no capability vectors');
    expect(r.stdout).not.toContain('starting');
    expect(existsSync(path.join(cwd, 'matrix-baselines'))).toBe(false);
  });

  test('--out naming a directory, or an existing file that is not a baseline: exit 2, the file untouched', () => {
    const dir = mkdtempSync(path.join(tmp, 'outdir-'));
    const d = mm(['record', '--backend', TARGET, '--out', dir]);
    expect(d.status).toBe(2);
    expect(d.stderr).toContain(`USAGE: --out ${dir} is a directory`);
    expect(d.stdout).not.toContain('starting');
    const notes = path.join(tmp, 'notes.txt');
    writeFileSync(notes, 'my notes\n');
    const n = mm(['record', '--backend', TARGET, '--out', notes]);
    expect(n.status).toBe(2);
    expect(n.stderr).toContain(`USAGE: --out: refusing to overwrite ${notes} (not a baseline: not JSON`);
    const report = path.join(tmp, 'report.json');
    writeFileSync(report, JSON.stringify({ format: 'memory-matrix-report', version: 1 }));
    expect(mm(['record', '--backend', TARGET, '--out', report]).stderr).toContain(`refusing to overwrite ${report} (not a baseline: its format is "memory-matrix-report"`);
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');
    expect(n.stdout).not.toContain('starting');
  });
});

describe('diff: a reused --report-dir and a target without vectors', () => {
  test("the previous run's diff.json, diff.md, baseline.json, candidate.json are removed (other files and an input kept)", () => {
    const dir = mkdtempSync(path.join(tmp, 'reused-'));
    for (const f of ['diff.json', 'candidate.json']) writeFileSync(path.join(dir, f), '{}');
    writeFileSync(path.join(dir, 'diff.md'), '# memory-matrix diff — ✅ PASS\n');
    writeFileSync(path.join(dir, 'baseline.json'), '{"format": "stale"}');
    writeFileSync(path.join(dir, 'other.txt'), 'keep');
    const r = mm(['diff', '--baseline', 'pgvector@pg99', '--candidate', TARGET, '--report-dir', dir]);
    expect(r.status).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['diff.json', 'diff.md', 'other.txt']);
    expect(readFileSync(path.join(dir, 'diff.md'), 'utf8')).toMatch(/^# memory-matrix diff — ⚠️ could not run/);
    // a file this run writes given as this run's input: refused up front (it would be overwritten), not removed
    writeFileSync(path.join(dir, 'baseline.json'), '{"format": "stale"}');
    const kept = mm(['diff', '--baseline', path.join(dir, 'baseline.json'), '--candidate', TARGET, '--report-dir', dir]);
    expect(kept.status).toBe(2);
    expect(existsSync(path.join(dir, 'baseline.json'))).toBe(true);
    expect((JSON.parse(readFileSync(path.join(dir, 'diff.json'), 'utf8')) as DiffReport).error!.message).toContain(
      `--baseline ${path.join(dir, 'baseline.json')} is one of the files this diff writes`,
    );
  });

  test('--candidate naming a target without capability vectors: exit 2 before anything starts', () => {
    const dir = mkdtempSync(path.join(tmp, 'novec-'));
    const r = mm(['diff', '--baseline', TARGET, '--candidate', 'redis@7.0', '--report-dir', dir]);
    expect(r.status).toBe(2);
    expect(r.stdout).toContain('memory-matrix: CAPABILITY_MISSING: --candidate redis@7.0: redis@7.0 has no capability vectors');
    expect(r.stdout).not.toContain('starting');
  });
});

describe('record --profile: a target without vectors is skipped, the others recorded', () => {
  test('skipped with the reason, pgvector@pglite-pg18 recorded, exit 0', () => {
    const catalog = path.join(tmp, 'targets.yaml');
    writeFileSync(
      catalog,
      readFileSync(path.join(REPO, 'matrix', 'targets.yaml'), 'utf8').replace(/^profiles:\n/m, `profiles:\n  mixed:\n    description: test\n    targets: [redis@7.0, ${TARGET}]\n`),
    );
    const cwd = mkdtempSync(path.join(tmp, 'profile-'));
    const r = mm(['record', '--profile', 'mixed'], { cwd, env: { MM_CATALOG: catalog } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('skipped redis@7.0: redis@7.0 has no capability vectors');
    expect(r.stdout).not.toContain('redis@7.0: starting');
    expect(r.stdout).toContain(`recorded ${TARGET} → matrix-baselines/${TARGET}.json`);
    expect(readdirSync(path.join(cwd, 'matrix-baselines'))).toEqual([`${TARGET}.json`]);
  }, 400_000);
});

describe('Ctrl-C', () => {
  test('diff: exit 130, INTERRUPTED printed, diff.json error INTERRUPTED, diff.md says so, no stale PASS, the lock released', async () => {
    const dir = mkdtempSync(path.join(tmp, 'sigint-diff-'));
    writeFileSync(path.join(dir, 'diff.md'), '# memory-matrix diff — ✅ PASS\n');
    writeFileSync(path.join(dir, 'candidate.json'), '{}');
    const r = await interrupt(['diff', '--baseline', TARGET, '--candidate', TARGET, '--report-dir', dir], /loaded 5111 memories/);
    if (r.code !== 130) throw new Error(`exit ${r.code}\n${r.out.slice(-3000)}`);
    expect(r.out).toContain('SIGINT: stopping 1 backend(s)');
    expect(r.out).toContain('INTERRUPTED: verdict none, exit 130');
    const report = JSON.parse(readFileSync(path.join(dir, 'diff.json'), 'utf8')) as DiffReport;
    expect(report).toMatchObject({ verdict: null, exitCode: 130, error: { code: 'INTERRUPTED' } });
    expect(readFileSync(path.join(dir, 'diff.md'), 'utf8')).toMatch(/^# memory-matrix diff — ⚠️ INTERRUPTED/);
    expect(existsSync(path.join(dir, REPORT_LOCK))).toBe(false);
    expect(
      readdirSync(dir)
        .filter((f) => f !== 'baseline.json')
        .sort(),
    ).toEqual(['diff.json', 'diff.md']);
  }, 400_000);

  test('record: exit 130, INTERRUPTED printed, no baseline and no temporary file', async () => {
    const dir = mkdtempSync(path.join(tmp, 'sigint-record-'));
    mkdirSync(dir, { recursive: true });
    const r = await interrupt(['record', '--backend', TARGET, '--out', path.join(dir, 'b.json')], /loaded 5111 memories/);
    if (r.code !== 130) throw new Error(`exit ${r.code}\n${r.out.slice(-3000)}`);
    expect(r.out).toContain('INTERRUPTED by SIGINT: nothing recorded');
    expect(readdirSync(dir)).toEqual([]);
  }, 400_000);
});
