/**
 * Durability and faults end to end, on real containers: the CLI runs C15, C16 and C23 on
 * pgvector@pg18 (C16 starts pgvector@pg17 too) and writes the durability table into report.json,
 * report.md and the console; nothing of the run is left in `docker ps -a` / `docker volume ls`
 * after success, after a failing check, after Ctrl-C; a run killed with SIGKILL leaves containers
 * and volumes that the next run removes at its start. Skipped without Docker or the images
 * (a failure under CI=true).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadGoldenDataset, selectChecks, type CheckResult } from '@memory-matrix/spec';
import { loadCatalog } from '@memory-matrix/targets';
import { datasetDir, registerTargetCell } from '../src/run';
import { loadExpectation } from '../src/golden';
import { MatrixRuntime } from '../src/runtime';
import type { MatrixReport } from '../src/report/model';
import { REPO, RUNNER_DIR } from './cli-helpers';
import { describeWithContainers } from './docker-gate';

/** Containers and volumes a process (by its pid label) left behind. */
function leftovers(pid: number): { containers: string[]; volumes: string[] } {
  const list = (args: string[]) => spawnSync('docker', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  return {
    containers: list(['ps', '-aq', '--filter', `label=memory-matrix.pid=${pid}`]),
    volumes: list(['volume', 'ls', '-q', '--filter', `label=memory-matrix.pid=${pid}`]),
  };
}

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.JEST_WORKER_ID;
  return env;
}

/** The CLI in a child (`node --require tsx/cjs`, so signals reach it); resolves when it exits. */
function startCli(args: string[]) {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-dur-'));
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), '--report-dir', reportDir, ...args], { cwd: REPO, env: childEnv() });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : signal ? 128 : null))));
  const report = (): MatrixReport => JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8')) as MatrixReport;
  return { child, exited, output: () => out, report, reportDir };
}

/** Resolves once the child has a fault volume (C15 has started its first instance). */
async function faultVolumeOf(pid: number, limitMs = 120_000): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < limitMs) {
    if (leftovers(pid).volumes.length) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no fault volume of pid ${pid} within ${limitMs} ms`);
}

describeWithContainers('durability and faults (CLI, real containers)', ['pgvector@pg17', 'pgvector@pg18'], ([pg17]) => {
  test('C15 + C16 + C23 on pgvector@pg18 pass; durability table in report.json, report.md and the console; nothing left', async () => {
    const run = startCli(['--backend', 'pgvector@pg18', '--check', 'C15', '--check', 'C16', '--check', 'C23']);
    const code = await run.exited;
    const report = run.report();
    if (code !== 0) throw new Error(`exit ${code}:\n${run.output().slice(-4000)}`);
    const rows = report.durability ?? [];
    expect(rows.map((r) => [r.target, r.configuration, r.durable, r.cycles])).toEqual([
      ['pgvector@pg18', 'default', true, 5],
      ['pgvector@pg18', 'synchronous_commit=off', false, 5],
    ]);
    const def = rows[0]!;
    expect(def.lost).toBe(0); // fsync on, synchronous_commit on: no acknowledged write may be lost
    expect(def.acknowledged).toBeGreaterThan(1000);
    expect(def).toMatchObject({ phantomUnknown: 0, duplicated: 0, changed: 0, verdict: 'pass' });
    expect(rows[1]!.verdict).toBe(rows[1]!.lost > 0 ? 'reported' : 'pass');
    const c16 = report.cells[0]!.checks.find((c) => c.id === 'C16')!;
    expect(c16.status).toBe('passed');
    expect(c16.figures).toMatchObject({ from: 'pgvector@pg17', 'restore/count': 5111, 'restore/missing': 0, 'restore/changed': 0, 'restore/failedQueries': 0, 'direct/opened': false });
    expect(String(c16.figures['direct/refused'])).toMatch(/database files are incompatible with server/);
    const c23 = report.cells[0]!.checks.find((c) => c.id === 'C23')!;
    expect(c23.figures).toMatchObject({ pauseWrite: 'BACKEND_ERROR', pauseQuery: 'BACKEND_ERROR', dropMidBatch: 'BACKEND_ERROR', countAfter: 5050 });
    const md = readFileSync(path.join(run.reportDir, 'report.md'), 'utf8');
    expect(md).toContain('**Durability**');
    expect(md).toMatch(/\| pgvector@pg18 \| default \| durable \| \d+ \| 0 \| \d+ \| 0 \| 0 \| 0 \| 5 \| pass \|/);
    expect(run.output()).toContain('durability configuration');
    expect(leftovers(run.child.pid!)).toEqual({ containers: [], volumes: [] });
  }, 600_000);

  test('a check that fails while fault instances exist leaves nothing either', async () => {
    // A durability configuration with a setting the server does not know: the instance is
    // started, the setting is refused, C23 fails with that error; the run still cleans up.
    const target = { ...pg17, durability: [{ name: 'broken', durable: true, settings: { no_such_setting: 'on' } }] };
    const dataset = loadGoldenDataset(datasetDir('agent-memories'));
    const exp = loadExpectation(dataset, { update: false, tieEpsilon: 1e-5 });
    const rt = new MatrixRuntime();
    const results: CheckResult[] = [];
    const runId = `dur-fail-${process.pid}-${Date.now()}`;
    registerTargetCell(rt, target, dataset, exp.expectation, { runId, checks: selectChecks(['C23']), sink: { record: (r) => results.push(r) } });
    await rt.run();
    expect(results[0]).toMatchObject({ id: 'C23', status: 'failed' });
    expect(results[0]!.error?.message).toMatch(/pgvector@pg17 \[broken\].*no_such_setting/);
    const list = (args: string[]) => spawnSync('docker', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    expect(list(['ps', '-aq', '--filter', `label=memory-matrix.run=${runId}`])).toEqual([]);
    expect(list(['volume', 'ls', '-q', '--filter', `label=memory-matrix.run=${runId}`])).toEqual([]);
  }, 180_000);

  test('Ctrl-C during C15: exit 130, partial report, no container or volume of the run left', async () => {
    const run = startCli(['--backend', 'pgvector@pg17', '--check', 'C15']);
    await faultVolumeOf(run.child.pid!);
    await new Promise((r) => setTimeout(r, 3_000)); // inside the kill cycles
    run.child.kill('SIGINT');
    const code = await run.exited;
    if (code !== 130) throw new Error(`exit ${code}:\n${run.output().slice(-3000)}`);
    expect(run.report().error?.code).toBe('INTERRUPTED');
    expect(leftovers(run.child.pid!)).toEqual({ containers: [], volumes: [] });
  }, 240_000);

  test('SIGKILL during C15 leaves containers and volumes; the next run removes them at its start', async () => {
    const run = startCli(['--backend', 'pgvector@pg17', '--check', 'C15']);
    const pid = run.child.pid!;
    await faultVolumeOf(pid);
    await new Promise((r) => setTimeout(r, 2_000)); // the fault instance is up and being written to
    run.child.kill('SIGKILL');
    expect(await run.exited).toBe(137);
    const left = leftovers(pid);
    expect(left.containers.length).toBeGreaterThanOrEqual(1); // the cell's container and the fault instance
    expect(left.volumes.length).toBeGreaterThanOrEqual(1);
    // Any run's start removes dead runs' left-overs, and the other test files of this package run
    // CLIs in parallel jest workers (signals, cell-died, load-step …): one of them may remove ours
    // between this line and our run's sweep (seen in a CI rehearsal: the message missing, nothing
    // left). What must hold: nothing of the killed run is left after our run's start; a removal our
    // run reports counts what it removed (never more than the killed run and others left).
    const next = startCli(['--backend', 'pgvector@pglite-pg18', '--check', 'C08']);
    const nextCode = await next.exited;
    if (nextCode !== 0) throw new Error(`next run: exit ${nextCode}:\n${next.output().slice(-3000)}`);
    expect(leftovers(pid)).toEqual({ containers: [], volumes: [] });
    const said = /removed (\d+) container\(s\) left by an earlier run that died/.exec(next.output());
    if (said) expect(Number(said[1])).toBeGreaterThanOrEqual(1);
  }, 240_000);
});

test('durability capabilities come from the catalog: container targets with durability only', () => {
  const c = loadCatalog();
  expect(c.targets.get('pgvector@pg17')!.capabilities).toMatchObject({ faults: true, upgrade: false });
  expect(c.targets.get('pgvector@pg18')!.capabilities).toMatchObject({ faults: true, upgrade: true });
  expect(c.targets.get('pgvector@pg18')!.upgradeFromTarget?.name).toBe('pgvector@pg17');
  expect(c.targets.get('pgvector@pglite-pg18')!.capabilities).toMatchObject({ faults: false, upgrade: false });
});
