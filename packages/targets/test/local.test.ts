/**
 * Local provider against the real Chroma server of the pinned bindings (chromadb-js-bindings
 * 1.0.1 → Chroma 1.0.0): start on a free loopback port with a temp dir, versions checked, a new
 * store per connect(), stop kills the process and removes the dir; a version mismatch fails the
 * start with TARGET_UNAVAILABLE and leaves nothing running.
 */
import { existsSync } from 'node:fs';
import { hasCode } from '@memory-matrix/spec';
import { liveLocalPids, startLocal as startLocalChroma } from '../src/local';
import { loadCatalog, resolveTarget } from '../src/catalog';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('chroma@1.0 from the catalog: starts, reports the catalog versions, serves two clients, stops without a trace', async () => {
  const target = resolveTarget(loadCatalog(), 'chroma@1.0');
  expect(target.provider).toBe('local');
  const b = await startLocalChroma({ target: target.name, engine: target.engine!, expect: target.expect, startTimeoutMs: target.start?.timeoutMs });
  try {
    expect(b.info.components).toEqual({ chroma: '1.0.0', chromaApi: '1.0.0', bindings: '1.0.1' });
    expect(b.connection.host).toBe('127.0.0.1');
    expect(existsSync(b.dataDir)).toBe(true);
    expect(liveLocalPids()).toContain(b.pid);
    const w = await b.connect();
    const c = await w.createCollection({ name: 'local_smoke', dim: 2, metric: 'cosine', index: { type: 'none' } });
    await c.upsert([{ id: 'a', namespace: 'n', text: 't', kind: 'fact', createdAt: '2024-01-01T00:00:00.000Z', metadata: {}, embedding: Float32Array.from([1, 0]) }]);
    const r = await b.connect();
    expect(await (await r.openCollection('local_smoke')).count()).toBe(1);
    expect(w.capabilities.maxBatch).toBe(5461);
    console.log(`local chroma@1.0 start ${b.startMs} ms`);
  } finally {
    await b.stop();
  }
  expect(alive(b.pid)).toBe(false);
  expect(existsSync(b.dataDir)).toBe(false);
  expect(liveLocalPids()).not.toContain(b.pid);
  await expect(fetch(`http://127.0.0.1:${b.connection.port}/api/v2/heartbeat`)).rejects.toThrow();
  await b.stop(); // idempotent
});

test('a version the server does not report fails the start loudly and leaves no process', async () => {
  const before = liveLocalPids().length;
  const err = (await startLocalChroma({ target: 'chroma@9.9', engine: 'chroma-bindings-1.0', expect: { chroma: '9.9' } }).then(
    () => undefined,
    (e: unknown) => e,
  )) as Error & { code?: string };
  expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
  expect(err.message).toMatch(/expected chroma 9\.9, server reports 1\.0\.0/);
  expect(liveLocalPids().length).toBe(before);
});

test('an unknown engine is TARGET_UNAVAILABLE naming the known ones', async () => {
  const err = (await startLocalChroma({ target: 'chroma@x', engine: 'nope' as never }).then(
    () => undefined,
    (e: unknown) => e,
  )) as Error & { code?: string };
  expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
  expect(err.message).toMatch(/chroma-bindings-1\.0/);
});
