/**
 * Redis targets against real containers started by the provider (container kind `redis`) from the
 * offline images of matrix/targets.yaml: what the provider promises (labels, loopback port, PING
 * readiness, version check, cleanup) and what only a real Redis can show about the adapter (VSIM
 * FILTER type conflation and the adapter's typed filter, quantization as VINFO reports it,
 * key-scoped drop, exact get vs VEMB, tie order, atomic history writes, Redis 7 without Vector
 * Sets). Without an engine or an image the suite is skipped with the reason in its title; under
 * CI=true that is a failure instead.
 */
import { spawnSync } from 'node:child_process';
import { hasCode, type MemoryRecord, type MetadataScalar } from '@memory-matrix/spec';
import type { RedisStore } from '@memory-matrix/adapter-redis';
import { loadCatalog, type ResolvedTarget } from '../src/catalog';
import { listRunContainers, startContainer, type ContainerStartSpec, type StartedContainer as StartedRedisContainer } from '../src/container';

const startRedisContainer = (spec: Omit<ContainerStartSpec, 'kind'>) => startContainer({ ...spec, kind: 'redis' });
import { recipeOf } from '../src/image-source';
import { recipeTag } from '../src/images';

const catalog = loadCatalog();
const T8 = catalog.targets.get('redis@8.0')!;
const T7 = catalog.targets.get('redis@7.0')!;
const RUN = `test-redis-${process.pid}-${Date.now()}`;
const tagOf = (t: ResolvedTarget) => recipeTag(recipeOf(t)!);

const dockerUp = spawnSync('docker', ['info'], { timeout: 10_000 }).status === 0;
const missingImages = dockerUp ? [T8, T7].map(tagOf).filter((tag) => spawnSync('docker', ['image', 'inspect', tag]).status !== 0) : [];
const missing = !dockerUp
  ? 'no Docker engine answers (run .ci/docker-up.sh)'
  : missingImages.length
    ? `images not built: ${missingImages.join(', ')} (memory-matrix images build redis@8.0 redis@7.0)`
    : '';
if (missing && process.env.CI === 'true') {
  test(`redis container tests need Docker and their images under CI: ${missing}`, () => {
    throw new Error(`CI=true but ${missing}`);
  });
}
const suite = missing ? describe.skip : describe;
const title = (s: string) => (missing ? `${s} [skipped: ${missing}]` : s);

const start = (t: ResolvedTarget, over: Partial<Parameters<typeof startRedisContainer>[0]> = {}) =>
  startRedisContainer({ target: t.name, image: tagOf(t), runId: RUN, expect: t.expect, startTimeoutMs: t.start?.timeoutMs, adapterOptions: t.adapterOptions, ...over });

const rec = (id: string, v: number[], metadata: MemoryRecord['metadata'] = {}, over: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  namespace: 'u1',
  kind: 'fact',
  text: `memory ${id} — 記憶 🧠`,
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata,
  embedding: Float32Array.from(v),
  ...over,
});

suite(title('redis@8.0 container (Vector Sets)'), () => {
  let b: StartedRedisContainer;
  let store: RedisStore;
  beforeAll(async () => {
    b = await start(T8);
    store = (await b.connect()) as RedisStore;
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
  }, 60_000);

  test('provider: labels, port on 127.0.0.1 only, versions from the server, a new client per connect()', async () => {
    const inspect = JSON.parse(spawnSync('docker', ['inspect', b.containerId], { encoding: 'utf8' }).stdout)[0];
    expect(inspect.Config.Labels['memory-matrix.run']).toBe(RUN);
    expect(inspect.Config.Labels['memory-matrix.target']).toBe('redis@8.0');
    expect(inspect.Config.Labels['memory-matrix.pid']).toBe(String(process.pid));
    expect(inspect.HostConfig.PortBindings['6379/tcp']).toEqual([{ HostIp: '127.0.0.1', HostPort: '0' }]);
    expect(b.connection).toEqual({ host: '127.0.0.1', port: expect.any(Number) });
    expect(b.info.components).toMatchObject({ redis: expect.stringMatching(/^8\.0\./), vectorset: '1', redisearch: 'absent' });
    expect(b.info.serverVersion).toMatch(/^Redis 8\.0\.\d+ \(standalone/);
    const other = (await b.connect()) as RedisStore;
    expect(other).not.toBe(store);
    const idA = await (store as unknown as { ctx: { client: { client(a: 'ID'): Promise<number> } } }).ctx.client.client('ID');
    const idB = await (other as unknown as { ctx: { client: { client(a: 'ID'): Promise<number> } } }).ctx.client.client('ID');
    expect(idA).not.toBe(idB);
    await other.close();
  });

  test('a version other than the catalog expects fails the start and leaves no container', async () => {
    const before = (await listRunContainers(RUN)).length;
    const err = await start(T8, { expect: { redis: '9.9' } }).catch((e: unknown) => e);
    expect(hasCode(err, 'TARGET_UNAVAILABLE')).toBe(true);
    expect(String((err as Error).message)).toMatch(/expected redis 9\.9, server reports 8\.0\.\d+/);
    expect((await listRunContainers(RUN)).length).toBe(before);
  }, 60_000);

  test("VSIM FILTER conflates 0, false, '' and non-numeric strings; the adapter's typed filter is exact", async () => {
    const c = await store.createCollection({ name: `types_${process.pid}`, dim: 3, metric: 'cosine', index: { type: 'none' } });
    const values: Array<[string, MetadataScalar]> = [
      ['zero', 0],
      ['false', false],
      ['empty', ''],
      ['str0', '0'],
      ['abc', 'abc'],
      ['null', null],
      ['one', 1],
      ['true', true],
    ];
    await c.upsert(values.map(([id, v], i) => rec(id, [1, i + 1, 0], { pinned: v })));
    const client = (store as unknown as { ctx: { client: { call(...a: unknown[]): Promise<unknown> } } }).ctx.client;
    // The server itself: set raw JSON attributes on a scratch set and filter with a number literal.
    await client.call('DEL', `mmtest:raw:${process.pid}`);
    for (const [i, [id, v]] of values.entries()) {
      await client.call('VADD', `mmtest:raw:${process.pid}`, 'VALUES', 3, 1, i + 1, 0, id, 'SETATTR', JSON.stringify({ pinned: v }));
    }
    const raw = ((await client.call('VSIM', `mmtest:raw:${process.pid}`, 'VALUES', 3, 1, 0, 0, 'COUNT', 20, 'FILTER', '.pinned == 0', 'TRUTH')) as string[]).sort();
    await client.call('DEL', `mmtest:raw:${process.pid}`);
    expect(raw).toEqual(['abc', 'empty', 'false', 'str0', 'zero']);
    const q = Float32Array.from([1, 0, 0]);
    for (const [id, v] of values) {
      const hits = await c.recall({ vector: q, k: 20, filter: { metadata: { pinned: v } }, scan: 'exact' });
      expect(hits.map((h) => h.id)).toEqual([id]);
      expect(await c.count({ metadata: { pinned: v } })).toBe(1);
    }
    expect(await c.recall({ vector: q, k: 20, filter: { metadata: { importance: false } } })).toEqual([]);
    await store.dropCollection(c.spec.name);
  });

  test('quantization: q8 → VINFO int8, noquant → f32; a new client reopens it from the marker', async () => {
    const noquant = (await startNoquantStore(b)) as RedisStore;
    const client = (store as unknown as { ctx: { client: { call(...a: unknown[]): Promise<unknown[]> } } }).ctx.client;
    for (const [s, want] of [
      [store, 'int8'],
      [noquant, 'f32'],
    ] as const) {
      const name = `quant_${want}_${process.pid}`;
      const c = await s.createCollection({ name, dim: 4, metric: 'cosine', index: { type: 'hnsw', m: 8, efConstruction: 32, efSearch: 16 } });
      await c.upsert([rec('a', [0.1, 0.2, 0.3, 0.4])]);
      const info = await client.call('VINFO', `mm:{${name}}:vset`);
      expect(info[info.indexOf('quant-type') + 1]).toBe(want);
      const reopened = await (await b.connect()).openCollection(name);
      expect(reopened.spec).toEqual(c.spec);
      expect((reopened as unknown as { quantization: string }).quantization).toBe(want === 'int8' ? 'q8' : 'noquant');
      await s.dropCollection(name);
    }
    await noquant.close();
  });

  test('get() returns the float32 vector bit for bit (−0, subnormal) while VEMB of int8 is approximate', async () => {
    const c = await store.createCollection({ name: `bits_${process.pid}`, dim: 4, metric: 'cosine', index: { type: 'none' } });
    const v = Float32Array.from([-0, 1.4e-45, 0.3333333432674408, -2.5]);
    await c.upsert([rec('bits', [...v], { n: 0, s: '', b: false, z: null })]);
    const [back] = await c.get(['bits']);
    expect([...new Uint8Array(back!.embedding.buffer)]).toEqual([...new Uint8Array(v.buffer)]);
    expect(back!.metadata).toEqual({ n: 0, s: '', b: false, z: null });
    const client = (store as unknown as { ctx: { client: { call(...a: unknown[]): Promise<string[]> } } }).ctx.client;
    const vemb = (await client.call('VEMB', `mm:{bits_${process.pid}}:vset`, 'bits')).map(Number);
    expect(vemb[2]).not.toBe(v[2]);
    await store.dropCollection(c.spec.name);
  });

  test('equal scores come back by id ascending, also when k cuts the tie group', async () => {
    const c = await store.createCollection({ name: `ties_${process.pid}`, dim: 3, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 64 } });
    await c.upsert(['f', 'e', 'd', 'c', 'b', 'a'].map((id) => rec(id, [0.5, 0.5, 0])).concat([rec('z', [1, 0, 0])]));
    for (const scan of ['exact', 'index'] as const) {
      const hits = await c.recall({ vector: Float32Array.from([0, 1, 0]), k: 3, scan });
      expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c']);
      expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    }
    await store.dropCollection(c.spec.name);
  });

  test('drop removes exactly the collection keys; keys without our marker are refused', async () => {
    const name = `drop_${process.pid}`;
    const c = await store.createCollection({ name, dim: 2, metric: 'cosine', index: { type: 'none' } });
    await c.upsert([rec('a', [1, 0])]);
    const client = (store as unknown as { ctx: { client: { set(k: string, v: string): Promise<unknown>; exists(...k: string[]): Promise<number>; del(...k: string[]): Promise<number> } } }).ctx.client;
    const neighbours = [`mm:{${name}x}:meta`, `mm:{${name}}`, `other:{${name}}:vset`];
    for (const k of neighbours) await client.set(k, 'not ours');
    await store.dropCollection(name);
    expect(await client.exists(`mm:{${name}}:meta`, `mm:{${name}}:vset`, `mm:{${name}}:docs`)).toBe(0);
    expect(await client.exists(...neighbours)).toBe(neighbours.length);
    await client.set(`mm:{${name}}:vset`, 'foreign');
    const err = await store.dropCollection(name).catch((e: unknown) => e);
    expect(hasCode(err, 'INVALID_INPUT')).toBe(true);
    expect(hasCode(await store.createCollection({ name, dim: 2, metric: 'cosine', index: { type: 'none' } }).catch((e: unknown) => e), 'COLLECTION_EXISTS')).toBe(true);
    expect(await client.exists(`mm:{${name}}:vset`)).toBe(1);
    await client.del(...neighbours, `mm:{${name}}:vset`);
  });

  test('history: a write the window cannot measure fails as PAYLOAD_UNSUPPORTED with nothing written; TTL on every key', async () => {
    const h = await store.openHistory({ sessionId: `h-${process.pid}`, keyPrefix: 'mmtest:hist:', ttlMs: 60_000, window: { maxChars: 100 } });
    await h.clear();
    await h.writeRaw(['{"type":"human","data":{"content":"legacy"}}']);
    const msg = { role: 'user' as const, content: 'hello', createdAt: '2024-05-01T09:30:00.000Z', metadata: {} };
    const err = await h.append([msg]).catch((e: unknown) => e);
    expect(hasCode(err, 'PAYLOAD_UNSUPPORTED')).toBe(true);
    expect(String((err as Error).message)).toContain('mmtest:hist:{h-');
    expect(await h.length()).toBe(1);
    expect(hasCode(await h.read().catch((e: unknown) => e), 'PAYLOAD_UNSUPPORTED')).toBe(true);
    const keys = await h.keys();
    expect(keys.map((k) => k.key)).toEqual([`mmtest:hist:{h-${process.pid}}:messages`, `mmtest:hist:{h-${process.pid}}:meta`]);
    for (const k of keys) expect(k.ttlMs).toBeGreaterThan(59_000);
    await h.clear();
    expect(await h.keys()).toEqual([]);
  });
});

suite(title('redis@7.0 container (no Vector Sets)'), () => {
  let b: StartedRedisContainer;
  beforeAll(async () => {
    b = await start(T7);
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
    // stop() removed the container: nothing of this run is left.
    if (!missing) expect((await listRunContainers(RUN)).filter((c) => c.target === 'redis@7.0')).toEqual([]);
  }, 60_000);

  test('history and TTL work; vectors are CAPABILITY_MISSING naming the version', async () => {
    expect(b.info.components).toMatchObject({ redis: expect.stringMatching(/^7\.0\./), redisearch: 'absent' });
    const store = (await b.connect()) as RedisStore;
    expect(store.capabilities.vectors).toBe(false);
    expect(store.capabilities.history && store.capabilities.ttl).toBe(true);
    const err = await store.createCollection({ name: 'v', dim: 3, metric: 'cosine', index: { type: 'none' } }).catch((e: unknown) => e);
    expect(hasCode(err, 'CAPABILITY_MISSING')).toBe(true);
    expect(String((err as Error).message)).toMatch(/Redis 7\.0\.\d+ has no Vector Sets/);
    const h = await store.openHistory({ sessionId: 's7', keyPrefix: 'mmtest:r7:', ttlMs: 5_000, window: { maxMessages: 2 } });
    await h.append([1, 2, 3].map((i) => ({ role: 'user' as const, content: `m${i} 🙂`, createdAt: '2024-05-01T09:30:00.000Z', metadata: { i } })));
    expect((await h.read()).map((m) => m.content)).toEqual(['m2 🙂', 'm3 🙂']);
    for (const k of await h.keys()) expect(k.ttlMs).toBeGreaterThan(4_000);
    await h.clear();
  });
});

/** A second store on the same server with `quantization: noquant` (what redis@8.0-noquant's adapterOptions give). */
async function startNoquantStore(b: StartedRedisContainer) {
  const { connectRedisStore } = await import('@memory-matrix/adapter-redis');
  return connectRedisStore({ ...b.connection, quantization: 'noquant' });
}
