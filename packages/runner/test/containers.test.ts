/**
 * The CLI against real containers: cleanup after Ctrl-C during loading, a registry-only target
 * offline, and a URL target that must touch nothing but its own tables.
 */
import { CHECKS } from '@memory-matrix/spec';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startTarget, type StartedBackend } from '@memory-matrix/targets';
import { catalogEditor, cli, recordCase, RUNNER_DIR, REPO } from './cli-helpers';
import { describeWithContainers } from './docker-gate';

/**
 * Containers (any state) that process `pid` started: the `memory-matrix.pid` label. Not every
 * container of the project: tests of other packages, other runs and jest workers share the engine
 * and start and stop their own at any time.
 */
const catalogWith = catalogEditor('mm-containers-catalog-');

const containersOf = (pid: number): string[] =>
  spawnSync('docker', ['ps', '-aq', '--filter', `label=memory-matrix.pid=${pid}`], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);

describeWithContainers('CLI with container targets', ['pgvector@pg17'], ([pg17]) => {
  test('Ctrl-C during loading: exit 130, partial report, no container of the run left', async () => {
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-sigint-'));
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
    delete env.JEST_WORKER_ID;
    // node --require tsx/cjs keeps the CLI in this very process, so the signal reaches it.
    const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), '--backend', 'pgvector@pg17', '--report-dir', reportDir], {
      cwd: REPO,
      env,
    });
    let err = '';
    const loading = new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('loading memories')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null))));
    await Promise.race([loading, exited]);
    expect(err).toContain('loading memories');
    expect(containersOf(child.pid!)).not.toEqual([]); // the run's container, found by its label
    child.kill('SIGINT');
    const code = await exited;
    if (code !== 130) throw new Error(`exit ${code}; stderr:\n${err.slice(-2000)}`);
    const report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8'));
    expect(report.error.code).toBe('INTERRUPTED');
    // Interrupted during loading: no check ran, so every check is listed as not run.
    expect(report.cells[0].checks.length).toBe(CHECKS.length);
    expect(report.cells[0].checks.filter((c: { skipReason?: string }) => c.skipReason === 'not run: the run was interrupted by SIGINT').length).toBeGreaterThan(0);
    expect(err).toContain(`SIGINT: stopping 1 target backend(s) and any fault instances their checks started`);
    expect(err).toContain(`partial report (INTERRUPTED): ${reportDir}/{report.json,junit.xml,report.md,report.html}`);
    expect(containersOf(child.pid!)).toEqual([]);
  }, 120_000);

  test('a container start cut short by the setup limit: exit 2 within 2 s of the reports, nothing left', async () => {
    // A 500 ms setup limit: the container start (create, initdb, readiness, versions) takes seconds,
    // so the cell gives up while the start is in flight, as a slow machine's cells did at 120 s.
    const catalog = catalogWith('targets.yaml', (y) =>
      y.replace('start: { kind: postgres, timeoutMs: 60000 }\n    expect: { postgres: "17"', 'start: { kind: postgres, timeoutMs: 60000, setupTimeoutMs: 500 }\n    expect: { postgres: "17"'),
    );
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-setup-limit-'));
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', MM_CATALOG: catalog };
    delete env.JEST_WORKER_ID;
    const child = spawn(
      process.execPath,
      ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), '--backend', 'pgvector@pg17', '--check', 'C01', '--report-dir', reportDir],
      {
        cwd: REPO,
        env,
      },
    );
    let out = '';
    let err = '';
    let reportsAt: number | undefined;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (reportsAt === undefined && out.includes('reports: ')) reportsAt = Date.now();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : null))));
    const exitAt = Date.now();
    if (code !== 2) throw new Error(`exit ${code}; stdout:\n${out.slice(-2000)}\nstderr:\n${err.slice(-2000)}`);
    expect(reportsAt).toBeDefined();
    expect(exitAt - reportsAt!).toBeLessThan(2_000);
    expect(err).not.toContain('still holds the process');
    const report = JSON.parse(readFileSync(path.join(reportDir, 'report.json'), 'utf8'));
    expect(report.cells[0].error.message).toContain('setup exceeded 500 ms');
    expect(containersOf(child.pid!)).toEqual([]);
  }, 120_000);

  test('registry-only pgvector@pg16 offline: exit 2, says the image is unavailable and how to get it', () => {
    const r = cli(['--backend', 'pgvector@pg16', '--image-source', 'registry']);
    expect(r.status).toBe(2);
    expect(r.report?.cells[0].status).toBe('error');
    expect(r.report?.cells[0].error?.message).toContain('image unavailable offline');
    expect(r.report?.cells[0].error?.message).toContain('docker load');
    expect(r.report?.summary.passed).toBe(0);
  }, 120_000);

  describe('url provider against an existing server', () => {
    let server: StartedBackend & { connectionString?: string };
    let url: string;
    beforeAll(async () => {
      server = await startTarget({ ...pg17 }, { runId: `url-test-${process.pid}` });
      url = (server as { connectionString: string }).connectionString;
      const c = new Client({ connectionString: url });
      await c.connect();
      try {
        // As the database's owner would. IF NOT EXISTS: startTarget already opened one store on this
        // container (the reported-vs-declared capability comparison), which created it here.
        await c.query(`CREATE EXTENSION IF NOT EXISTS vector`);
        await c.query(`CREATE TABLE user_notes (id int PRIMARY KEY, note text)`);
        await c.query(`INSERT INTO user_notes VALUES (1, 'keep me')`);
        await c.query(`CREATE ROLE reader LOGIN`);
        await c.query(`CREATE DATABASE novector`);
      } finally {
        await c.end();
      }
    }, 120_000);
    afterAll(async () => server?.stop());

    test('runs inside its own tables, leaves the user table and no mm_ table, never prints the password', async () => {
      const withPw = url.replace('postgres@', 'postgres:s3cret@');
      const r = cli(['--backend', `pgvector@url=${withPw}`, '--check', 'C01', '--check', 'C03', '--check', 'C25']);
      expect(r.status).toBe(0);
      expect(r.report?.cells[0].target).toMatch(/^pgvector@url\(127\.0\.0\.1:\d+\/postgres\)$/);
      expect(readFileSync(path.join(r.reportDir, 'report.json'), 'utf8')).not.toContain('s3cret');
      expect(r.stdout).not.toContain('s3cret');
      const c = new Client({ connectionString: url });
      await c.connect();
      try {
        expect((await c.query('SELECT note FROM user_notes')).rows).toEqual([{ note: 'keep me' }]);
        expect((await c.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'mm\\_%'`)).rows).toEqual([]);
      } finally {
        await c.end();
      }
    }, 180_000);

    test("Ctrl-C during loading into the user's server: exit 130, no mm_ table left there", async () => {
      const reportDir = mkdtempSync(path.join(os.tmpdir(), 'mm-url-sigint-'));
      const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
      delete env.JEST_WORKER_ID;
      const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(RUNNER_DIR, 'src', 'cli.ts'), '--backend', `pgvector@url=${url}`, '--report-dir', reportDir], {
        cwd: REPO,
        env,
      });
      let err = '';
      const loading = new Promise<void>((resolve) => {
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          if (err.includes('loading memories')) resolve();
        });
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null))));
      await Promise.race([loading, exited]);
      child.kill('SIGINT');
      const code = await exited;
      if (code !== 130) throw new Error(`exit ${code}; stderr:\n${err.slice(-2000)}`);
      const c = new Client({ connectionString: url });
      await c.connect();
      try {
        expect((await c.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'mm\\_%'`)).rows).toEqual([]);
        expect((await c.query('SELECT note FROM user_notes')).rows).toEqual([{ note: 'keep me' }]);
      } finally {
        await c.end();
      }
    }, 180_000);

    test('a user without CREATE, and a database without the extension: exit 2, nothing written', async () => {
      const u = new URL(url);
      const reader = cli(['--backend', `pgvector@url=postgres://reader@${u.host}/postgres`]);
      recordCase('url target without permission (role without CREATE)', reader);
      expect(reader.status).toBe(2);
      expect(reader.report?.cells[0].error?.message).toContain('may not CREATE');
      const novector = cli(['--backend', `pgvector@url=postgres://postgres@${u.host}/novector`]);
      recordCase('url target without the vector extension', novector);
      expect(novector.status).toBe(2);
      expect(novector.report?.cells[0].error?.message).toContain('vector extension is not installed');
      for (const db of ['postgres', 'novector']) {
        const c = new Client({ connectionString: url.replace(/\/postgres$/, `/${db}`) });
        await c.connect();
        try {
          // nothing written: no table of ours, and the extension was not created in a database we do not own
          expect((await c.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE 'mm\\_%'`)).rows).toEqual([]);
          if (db === 'novector') expect((await c.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`)).rows).toEqual([]);
        } finally {
          await c.end();
        }
      }
    }, 120_000);
  });
});
