/**
 * The migration gate (`memory-matrix migrate`, src/migrate/): the real CLI in a child process from
 * chroma@1.0 (local server, no Docker) to pgvector@pglite-pg18 passes, and with the self-test
 * `--tamper <id>` fails naming the row; redis@8.0 → pgvector@pg17 passes and Ctrl-C leaves no
 * container (Docker-gated: skipped with the reason outside CI, a failure under CI=true); the
 * record verification on its own (pure) names rows for every field; bad arguments exit 2 before
 * anything starts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MemoryRecord } from '@memory-matrix/spec';
import type { MigrationReport } from '../src/migrate/report';
import { tamperText } from '../src/migrate/tamper';
import { verifyRecords } from '../src/migrate/verify-records';
import { REPO, RUNNER_DIR } from './cli-helpers';
import { describeWithContainers } from './docker-gate';

interface MigrateRun {
  status: number | null;
  stdout: string;
  stderr: string;
  report?: MigrationReport;
  pid?: number;
}

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.JEST_WORKER_ID; // the child is not in jest's sandbox
  return env;
}

/** `pnpm matrix migrate …` as a child process; migrate.json parsed when written. */
function migrate(args: string[]): MigrateRun {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-migrate-'));
  const r = spawnSync(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), 'migrate', '--report-dir', reportDir, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: childEnv(),
    timeout: 540_000,
  });
  let report: MigrationReport | undefined;
  try {
    report = JSON.parse(readFileSync(path.join(reportDir, 'migrate.json'), 'utf8')) as MigrationReport;
  } catch {
    report = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, report, pid: r.pid };
}

const explain = (r: MigrateRun) => `exit ${r.status}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-2000)}`;

describe('migrate chroma@1.0 → pgvector@pglite-pg18 (no Docker)', () => {
  test('passes: every record identical, recall equivalent', () => {
    const r = migrate(['--from', 'chroma@1.0', '--to', 'pgvector@pglite-pg18']);
    if (r.status !== 0) throw new Error(explain(r));
    const res = r.report!.result!;
    expect(r.report!.verdict).toBe('pass');
    expect(res.export.records).toBe(5111);
    expect(res.checks.map((c) => [c.name, c.status])).toEqual(['count', 'ids', 'text', 'metadata', 'timestamps', 'fields', 'vectors', 'recall'].map((n) => [n, 'pass']));
    expect(r.stdout).toMatch(/migration chroma@1\.0 → pgvector@pglite-pg18: PASS \(exit 0\)/);
  }, 600_000);

  test('--tamper mem-00042 (self-test): exit 1, the text check names the row and the byte', () => {
    const r = migrate(['--from', 'chroma@1.0', '--to', 'pgvector@pglite-pg18', '--tamper', 'mem-00042']);
    if (r.status !== 1) throw new Error(explain(r));
    const text = r.report!.result!.checks.find((c) => c.name === 'text')!;
    expect(text.failureCount).toBe(1);
    expect(text.failures[0]).toMatch(/^mem-00042: text differs at byte \d+ \(".*" vs ".*X.*"\)$/);
    expect(r.report!.tamper).toMatchObject({ id: 'mem-00042', detected: true });
    expect(r.report!.result!.checks.filter((c) => c.status === 'fail').map((c) => c.name)).toEqual(['text']);
    expect(r.stdout).toContain('✗ text: mem-00042: text differs at byte');
  }, 600_000);
});

describe('migrate: bad arguments exit 2 before anything starts', () => {
  test('unknown target', () => {
    const r = migrate(['--from', 'redis@9.9', '--to', 'pgvector@pglite-pg18']);
    expect(r.status).toBe(2);
    expect(r.report!.error).toMatchObject({ code: 'UNKNOWN_TARGET' });
  }, 60_000);
  test('--tamper of an id that is not in the dataset', () => {
    const r = migrate(['--from', 'chroma@1.0', '--to', 'pgvector@pglite-pg18', '--tamper', 'nope']);
    expect(r.status).toBe(2);
    expect(r.report!.error!.message).toMatch(/--tamper "nope": no memory with that id/);
  }, 60_000);
});

describe('verifyRecords names the row for every field', () => {
  const rec = (id: string, over: Partial<MemoryRecord> = {}): MemoryRecord => ({
    id,
    namespace: 'u1',
    kind: 'fact',
    text: 'Call me Ishmael. 記憶 🧠',
    createdAt: '2024-05-01T09:30:00.123Z',
    metadata: { pinned: 0, tag: '', ok: false, nil: null },
    embedding: Float32Array.from([0.5, -0, 1e-30]),
    ...over,
  });
  test('each difference in its check, with the id first', () => {
    const a = [rec('m1'), rec('m2'), rec('m3'), rec('m4'), rec('m5'), rec('m6')];
    const b = [
      rec('m1', { text: tamperText(a[0]!.text) }),
      rec('m2', { metadata: { pinned: false, tag: '', ok: false, nil: null } }),
      rec('m3', { createdAt: '2024-05-01T09:30:00.123456Z' }),
      rec('m4', { embedding: Float32Array.from([0.5, 0, 1e-30]) }),
      rec('m5', { kind: 'summary' }),
      rec('m7'),
    ];
    const checks = Object.fromEntries(verifyRecords(a, b, 6, { mode: 'bit-exact' }, []).map((c) => [c.name, c]));
    expect(checks.text!.failures).toEqual(['m1: text differs at byte 10 ("Call me Ishmael. 記憶 🧠" vs "Call me IsXmael. 記憶 🧠")']);
    expect(checks.metadata!.failures).toEqual(['m2: metadata.pinned differs (0 (number) vs false (boolean))']);
    expect(checks.timestamps!.failures).toEqual(['m3: createdAt differs ("2024-05-01T09:30:00.123Z" vs "2024-05-01T09:30:00.123456Z")']);
    expect(checks.vectors!.failures[0]).toMatch(/^m4: embedding is not bit-exact: component 1 \(0 vs 0\)/);
    expect(checks.fields!.failures).toEqual(['m5: kind differs ("fact" vs "summary")']);
    expect(checks.ids!.failures).toEqual(['m6: exported from A, missing in B', 'm7: in B, never exported from A']);
    expect(checks.count!.status).toBe('pass');
  });
});

const projectContainersOf = (pid: number | undefined): string[] =>
  spawnSync('docker', ['ps', '-aq', '--filter', `label=memory-matrix.pid=${pid}`], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);

describeWithContainers('migrate redis@8.0 → pgvector@pg17 (containers)', ['redis@8.0', 'pgvector@pg17'], () => {
  test('passes, and removes both containers', () => {
    const r = migrate(['--from', 'redis@8.0', '--to', 'pgvector@pg17']);
    if (r.status !== 0) throw new Error(explain(r));
    expect(r.report!.result!.checks.every((c) => c.status === 'pass')).toBe(true);
    expect(r.report!.result!.checks.find((c) => c.name === 'vectors')!.notes.join(' ')).toMatch(/redis@8\.0 quantizes .* bit-exact/);
    expect(projectContainersOf(r.pid)).toEqual([]);
  }, 600_000);

  test('Ctrl-C after A is loaded: exit 130, migrate.json says INTERRUPTED, no container left', async () => {
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-migrate-sigint-'));
    const child = spawn(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), 'migrate', '--from', 'redis@8.0', '--to', 'pgvector@pg17', '--report-dir', reportDir],
      { cwd: REPO, env: childEnv() },
    );
    let out = '';
    const loaded = new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes('loaded 5111 memories') && resolve())));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null))));
    await Promise.race([loaded, exited]);
    child.kill('SIGINT');
    const code = await exited;
    if (code !== 130) throw new Error(`exit ${code}\n${out.slice(-2000)}`);
    expect(JSON.parse(readFileSync(path.join(reportDir, 'migrate.json'), 'utf8')).error.code).toBe('INTERRUPTED');
    expect(projectContainersOf(child.pid)).toEqual([]);
  }, 300_000);
});
