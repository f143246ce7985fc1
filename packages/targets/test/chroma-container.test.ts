/**
 * Container kind `chroma` against real Docker and the offline image of chroma@1.4 (built from the
 * recipe in matrix/targets.yaml: trixie + nodejs + chromadb 3.5.0 + chromadb-js-bindings 1.3.4).
 * Without an engine or the image the suite is skipped with the reason in its title; under CI=true
 * that is a failure instead.
 */
import { spawnSync } from 'node:child_process';
import { hasCode } from '@memory-matrix/spec';
import { loadCatalog, resolveTarget } from '../src/catalog';
import { listRunContainers, removeRunContainers, startContainer, type ContainerStartSpec } from '../src/container';

const startChromaContainer = (spec: Omit<ContainerStartSpec, 'kind'>) => startContainer({ ...spec, kind: 'chroma' });
import { recipeOf } from '../src/image-source';
import { recipeTag } from '../src/images';

const TARGET = resolveTarget(loadCatalog(), 'chroma@1.4');
const IMAGE = recipeTag(recipeOf(TARGET)!);
const RUN = `chroma-test-${process.pid}-${Date.now()}`;
const dockerUp = spawnSync('docker', ['info'], { timeout: 10_000 }).status === 0;
const missing = !dockerUp
  ? 'no Docker engine answers (run .ci/docker-up.sh)'
  : spawnSync('docker', ['image', 'inspect', IMAGE]).status !== 0
    ? `image not built: ${IMAGE} (pnpm matrix images build -t chroma@1.4)`
    : '';
if (missing && process.env.CI !== 'true') console.warn(`SKIPPED chroma container tests: ${missing}`);
if (missing && process.env.CI === 'true') {
  test(`chroma container tests need Docker and ${IMAGE} under CI: ${missing}`, () => {
    throw new Error(`CI=true but ${missing}`);
  });
}

afterAll(async () => {
  if (!missing) await removeRunContainers(RUN);
});

(missing ? describe.skip : describe)(`container kind chroma (real Docker)${missing ? ` — SKIPPED: ${missing}` : ''}`, () => {
  test('chroma@1.4: ready (log line, heartbeat, client call), release from the CLI, labelled, loopback only, two clients, removed at stop', async () => {
    const c = await startChromaContainer({ target: TARGET.name, image: IMAGE, runId: RUN, expect: TARGET.expect, startTimeoutMs: TARGET.start?.timeoutMs });
    try {
      expect(c.info.components).toEqual({ chroma: '1.4.4', chromaApi: '1.0.0' });
      expect(c.connection.host).toBe('127.0.0.1');
      const [mine] = await listRunContainers(RUN);
      expect(mine?.target).toBe('chroma@1.4');
      expect(mine?.pid).toBe(process.pid);
      const ports = spawnSync('docker', ['port', c.containerId, '8000'], { encoding: 'utf8' }).stdout.trim();
      expect(ports.split('\n').every((l) => l.startsWith('127.0.0.1:'))).toBe(true);
      const w = await c.connect();
      expect(w.capabilities.maxBatch).toBe(5461);
      const coll = await w.createCollection({ name: 'container_smoke', dim: 2, metric: 'ip', index: { type: 'none' } });
      await coll.upsert([{ id: 'a', namespace: 'n', text: '家族 🎉', kind: 'fact', createdAt: '2024-01-01T00:00:00.000Z', metadata: { pinned: false, n: 0 }, embedding: Float32Array.from([1, 2]) }]);
      const r = await (await c.connect()).openCollection('container_smoke');
      expect(r.spec.metric).toBe('ip');
      expect((await r.get(['a']))[0]?.metadata).toEqual({ pinned: false, n: 0 });
      expect(await r.count({ metadata: { n: false } })).toBe(0);
      console.log(`chroma@1.4 container start ${c.startMs} ms`);
    } finally {
      await c.stop();
    }
    expect(await listRunContainers(RUN)).toEqual([]);
  }, 120_000);

  test('a release the image does not have fails the start and removes the container', async () => {
    const err = (await startChromaContainer({ target: 'chroma@9.9', image: IMAGE, runId: RUN, expect: { chroma: '9.9' } }).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { code?: string };
    expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
    expect(err.message).toMatch(/expected chroma 9\.9, server reports 1\.4\.4/);
    expect(await listRunContainers(RUN)).toEqual([]);
  }, 120_000);
});
