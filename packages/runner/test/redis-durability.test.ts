/**
 * Redis durability and faults end to end, on real containers: the CLI runs C15, C16 and C23 on
 * redis@8.0 (C16 starts redis@7.0 too: chat history written by 7.0.15 read in place by 8.0.2) and
 * writes the durability table for the four persistence configurations, memories and chat history; nothing of the run is left
 * in `docker ps -a` / `docker volume ls`. Skipped without Docker or the images (a failure under CI=true).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalog } from '@memory-matrix/targets';
import type { MatrixReport } from '../src/report/model';
import { REPO, RUNNER_DIR } from './cli-helpers';
import { describeWithContainers } from './docker-gate';

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env.JEST_WORKER_ID;
  return env;
}

describeWithContainers('redis durability and faults (CLI, real containers)', ['redis@7.0', 'redis@8.0'], () => {
  test('C15 per persistence configuration, C16 7.0 -> 8.0 (chat history in place), C23 on redis@8.0; nothing left', () => {
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-rdur-'));
    const r = spawnSync(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), '--report-dir', reportDir, '--backend', 'redis@8.0', '--check', 'C15', '--check', 'C16', '--check', 'C23'],
      { cwd: REPO, env: childEnv(), encoding: 'utf8', timeout: 900_000 },
    );
    if (r.status !== 0) throw new Error(`exit ${r.status}:\n${(r.stdout + r.stderr).slice(-4000)}`);
    const report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8')) as MatrixReport;
    const rows = report.durability ?? [];
    // Memories (Vector Sets) and chat history (rows "<configuration> (history)", counts of messages) per configuration.
    expect(rows.map((x) => [x.configuration, x.durable, x.cycles])).toEqual([
      ['aof-everysec', false, 5],
      ['aof-everysec (history)', false, 5],
      ['aof-always', true, 5],
      ['aof-always (history)', true, 5],
      ['rdb', false, 5],
      ['rdb (history)', false, 5],
      ['none', false, 5],
      ['none (history)', false, 5],
    ]);
    for (const x of rows) {
      expect(x.acknowledged).toBeGreaterThan(1000);
      expect(x).toMatchObject({ duplicated: 0, changed: 0 });
      // Chat history may show an append from an EARLIER cycle coming back (the known Redis AOF MULTI
      // bug, matrix/targets.yaml knownFailures of redis@7.0 / @8.0: a vanished append's dangling
      // MULTI is applied at the next restart), which the audit counts as unknown: seen once, 1 message,
      // in a fresh-clone CI run. The memories (Vector Sets, no MULTI) never.
      if (!x.configuration.endsWith('(history)')) expect(x.phantomUnknown).toBe(0);
    }
    const by = Object.fromEntries(rows.map((x) => [x.configuration, x]));
    for (const h of ['', ' (history)']) {
      // fsync before the reply: nothing acknowledged is lost. The verdict is pass, or known when the
      // intermittent Redis AOF MULTI bug (knownFailures of redis@7.0 / @8.0, kinds it lists only) came
      // back at a kill: a rehearsal of this test on a fresh clone saw aof-always "known" with lost 0.
      expect(by[`aof-always${h}`]!.lost).toBe(0);
      expect(['pass', 'known']).toContain(by[`aof-always${h}`]!.verdict);
      expect(by[`none${h}`]!.lost).toBe(by[`none${h}`]!.acknowledged); // nothing persisted: the whole dataset is gone
      expect(by[`rdb${h}`]!.lost).toBeGreaterThan(0); // no snapshot between the kills (save points 60 s and more)
    }
    expect(report.cells[0]!.checks.find((c) => c.id === 'C15')!.figures).toMatchObject({ 'durability/aof-always (history)/reordered': 0, 'durability/aof-always (history)/unit': 'chat messages' });
    const checks = Object.fromEntries(report.cells[0]!.checks.map((c) => [c.id, c]));
    expect(checks.C16!.status).toBe('passed');
    expect(checks.C16!.figures).toMatchObject({
      from: 'redis@7.0',
      written: 'chat history',
      writtenMessages: 480,
      'direct/messages': 480,
      'direct/payloadsDiffer': 0,
      'direct@rdb/messages': 480,
      'direct@rdb/missingSessions': 0,
    });
    expect(checks.C23!.figures).toMatchObject({ pauseWrite: 'BACKEND_ERROR', pauseQuery: 'BACKEND_ERROR', dropMidBatch: 'BACKEND_ERROR', dropPresentAfter: 0, countAfter: 5050 });
    const list = (args: string[]) => spawnSync('docker', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    expect(list(['ps', '-aq', '--filter', `label=memory-matrix.pid=${r.pid}`])).toEqual([]);
    expect(list(['volume', 'ls', '-q', '--filter', `label=memory-matrix.pid=${r.pid}`])).toEqual([]);
  }, 900_000);
});

test('redis durability capabilities come from the catalog (q8 targets and 7.0; the noquant target has none)', () => {
  const c = loadCatalog();
  expect(c.targets.get('redis@7.0')!.capabilities).toMatchObject({ faults: true, upgrade: false, vectors: false });
  expect(c.targets.get('redis@8.0')!.capabilities).toMatchObject({ faults: true, upgrade: true });
  expect(c.targets.get('redis@8.0')!.upgradeFromTarget?.name).toBe('redis@7.0');
  expect(c.targets.get('redis@8.0.6')!.upgradeFromTarget?.name).toBe('redis@8.0');
  expect(c.targets.get('redis@8.0-noquant')!.capabilities).toMatchObject({ faults: false, upgrade: false });
  expect(c.targets.get('redis@8.0')!.durability!.map((d) => [d.name, d.durable])).toEqual([
    ['aof-everysec', false],
    ['aof-always', true],
    ['rdb', false],
    ['none', false],
  ]);
});
