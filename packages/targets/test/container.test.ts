/**
 * Container provider against real Docker and the real offline images (built from the recipes in
 * matrix/targets.yaml or, until merged, matrix/images.md). Without an engine or an image the
 * suite is skipped with the reason in its title; under CI=true that is a failure instead.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { hasCode } from '@memory-matrix/spec';
import { listRunContainers, removeRunContainers, Semaphore, startContainer, type StartedContainer } from '../src/container';
import type { StartedBackend } from '../src/types';
import { readContainerTarget, recipeTag, type ContainerTargetEntry } from '../src/images';

const REPO = resolve(__dirname, '../../..');
const CATALOGS = [join(REPO, 'matrix/targets.yaml'), join(REPO, 'matrix/images.md')];
const TARGETS = ['pgvector@pg17', 'pgvector@pg18'].map((n) => readContainerTarget(n, CATALOGS));
const RUN = `test-${process.pid}-${Date.now()}`;

const dockerUp = spawnSync('docker', ['info'], { timeout: 10_000 }).status === 0;
const missingImages = dockerUp ? TARGETS.filter((t) => spawnSync('docker', ['image', 'inspect', recipeTag(t.offline)]).status !== 0).map((t) => recipeTag(t.offline)) : [];
const missing = !dockerUp
  ? 'no Docker engine answers (run .ci/docker-up.sh)'
  : missingImages.length > 0
    ? `images not built: ${missingImages.join(', ')} (build them with buildImage / memory-matrix images build)`
    : '';
if (missing && process.env.CI !== 'true') console.warn(`SKIPPED container provider tests: ${missing}`);
if (missing && process.env.CI === 'true') {
  test(`container provider needs Docker and its images under CI: ${missing}`, () => {
    throw new Error(`CI=true but ${missing}`);
  });
}

describe('Semaphore (bounded parallel start)', () => {
  test('never more than `limit` holders; a rejection releases its slot; FIFO hand-over', async () => {
    const sem = new Semaphore(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) =>
      sem.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 10));
        active--;
        order.push(i);
        if (i === 1) throw new Error('task 1 fails');
        return i;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(task));
    expect(peak).toBe(2);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(sem.inUse).toBe(0);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});

function specFor(t: ContainerTargetEntry, runId = RUN) {
  return { target: t.name, image: recipeTag(t.offline), kind: 'postgres' as const, runId, expect: t.expect, startTimeoutMs: t.start.timeoutMs };
}

(missing ? describe.skip : describe)(`container provider (real Docker)${missing ? ` — SKIPPED: ${missing}` : ''}`, () => {
  afterAll(async () => {
    await removeRunContainers(RUN);
  });

  test('starts pgvector@pg17 and @pg18 in parallel, vector works, versions reported, stop leaves nothing', async () => {
    const started: StartedContainer[] = await Promise.all(TARGETS.map((t) => startContainer(specFor(t))));
    try {
      for (const [i, c] of started.entries()) {
        const t = TARGETS[i]!;
        console.log(`${t.name}: ready in ${c.startMs} ms from ${c.info.image}; ${JSON.stringify(c.info.components)}`);
        const asBackend: StartedBackend = c; // the provider's handle is a StartedBackend (compile-time check)
        expect(asBackend.provider).toBe('container');
        expect(c.info.imageId).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(c.info.serverVersion).toMatch(new RegExp(`^PostgreSQL ${t.expect.postgres}\\.`));
        expect(c.info.components.pgvector).toBe(t.expect.pgvector);
        expect(c.connection.host).toBe('127.0.0.1');
        // Published on loopback only.
        const port = spawnSync('docker', ['port', c.containerId, '5432/tcp'], { encoding: 'utf8' }).stdout.trim();
        expect(port).toBe(`127.0.0.1:${c.connection.port}`);
        const shm = spawnSync('docker', ['inspect', '--format', '{{.HostConfig.ShmSize}}', c.containerId], { encoding: 'utf8' }).stdout.trim();
        expect(Number(shm)).toBe(1024 ** 3); // room for parallel HNSW builds
        const pg = new Client({ connectionString: c.connectionString });
        await pg.connect();
        try {
          await pg.query('CREATE EXTENSION vector');
          const v = await pg.query(`SELECT extversion, '[1,0]'::vector <=> '[0,1]'::vector AS d FROM pg_extension WHERE extname = 'vector'`);
          expect(v.rows[0]).toEqual({ extversion: t.expect.pgvector, d: 1 });
        } finally {
          await pg.end();
        }
      }
      const labelled = await listRunContainers(RUN);
      expect(labelled.map((l) => l.target).sort()).toEqual(TARGETS.map((t) => t.name).sort());
    } finally {
      await Promise.all(started.map((c) => c.stop()));
    }
    expect(await listRunContainers(RUN)).toEqual([]);
    await started[0]!.stop(); // idempotent
  });

  test('connect() gives a new pgvector store each call; stop() closes stores left open', async () => {
    const c = await startContainer(specFor(TARGETS[0]!));
    try {
      const a = await c.connect();
      const b = await c.connect();
      expect(a).not.toBe(b);
      expect(a.adapter).toBe('pgvector');
      expect((await a.serverInfo()).components.pgvector).toBe(TARGETS[0]!.expect.pgvector);
      await a.close();
      await b.serverInfo(); // leaves an idle pooled connection open across stop()
    } finally {
      await c.stop();
    }
    await new Promise((r) => setTimeout(r, 200)); // an unhandled pool 'error' would surface here
    expect(await listRunContainers(RUN)).toEqual([]);
  });

  test('a version other than expected is TARGET_UNAVAILABLE and leaves no container', async () => {
    let err: unknown;
    try {
      await startContainer({ ...specFor(TARGETS[0]!), expect: { postgres: '99' } });
    } catch (e) {
      err = e;
    }
    expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toMatch(/pgvector@pg17 .*expected postgres 99, server reports 17\./);
    expect(await listRunContainers(RUN)).toEqual([]);
  });

  test('a missing image is TARGET_UNAVAILABLE naming target and image, without a pull', async () => {
    let err: unknown;
    try {
      await startContainer({ ...specFor(TARGETS[0]!), image: 'memory-matrix/none:missing-00000000' });
    } catch (e) {
      err = e;
    }
    expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toContain('pgvector@pg17 (container memory-matrix/none:missing-00000000): image not found locally');
  });

  test('left-overs: without runId only containers of dead processes go; with runId the whole run goes', async () => {
    const image = recipeTag(TARGETS[0]!.offline);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!; // a pid that has exited
    const runA = `${RUN}-crashed`;
    const runB = `${RUN}-alive`;
    const create = (run: string, pid: number) =>
      spawnSync('docker', ['create', '--label', `memory-matrix.run=${run}`, '--label', 'memory-matrix.target=pgvector@pg17', '--label', `memory-matrix.pid=${pid}`, image], {
        encoding: 'utf8',
      }).stdout.trim();
    const crashed = create(runA, dead);
    const alive = create(runB, process.pid);
    try {
      const removed = await removeRunContainers();
      expect(removed.map((c) => c.id)).toContain(crashed.slice(0, 12));
      expect(removed.map((c) => c.id)).not.toContain(alive.slice(0, 12));
      expect(await listRunContainers(runA)).toEqual([]);
      expect((await listRunContainers(runB)).map((c) => c.id)).toEqual([alive.slice(0, 12)]);
      expect((await removeRunContainers(runB)).map((c) => c.id)).toEqual([alive.slice(0, 12)]);
      expect(await listRunContainers(runB)).toEqual([]);
    } finally {
      spawnSync('docker', ['rm', '-f', crashed, alive]);
    }
  });

  test('MM_START_TIMEOUT_SCALE scales the deadline: a tiny one fails with TARGET_UNAVAILABLE and cleans up', async () => {
    process.env.MM_START_TIMEOUT_SCALE = '0.001'; // 60 000 ms × 0.001 × the host factor (≤ 8) ≤ 480 ms: too short to boot
    let err: unknown;
    try {
      await startContainer({ ...specFor(TARGETS[1]!), startTimeoutMs: 60_000 });
    } catch (e) {
      err = e;
    } finally {
      delete process.env.MM_START_TIMEOUT_SCALE;
    }
    expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toMatch(/pgvector@pg18 .*(start failed within \d+ ms|before the start deadline)/);
    expect(await listRunContainers(RUN)).toEqual([]);
  });
});
