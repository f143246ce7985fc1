import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import type { MemoryRecord } from '@memory-matrix/spec';
import { pgvectorDriver } from '@memory-matrix/adapter-pgvector';
import { startEmbedded as startEngine, type EmbeddedOptions } from '../src/embedded';

type EmbeddedEngine = 'pglite-0.2' | 'pglite-0.5';
const EMBEDDED_ENGINES = Object.keys(pgvectorDriver.embedded!.engines) as EmbeddedEngine[];
const startEmbedded = (engine: EmbeddedEngine, opts: EmbeddedOptions = {}) => startEngine(engine, { backend: 'pgvector', ...opts });
import type { StartedBackend } from '../src/types';

/**
 * The embedded provider on both PGlite engines, started side by side. Expected versions come
 * from matrix/targets.yaml (the catalog), never from this file.
 */
const catalog = parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'matrix', 'targets.yaml'), 'utf8')) as {
  targets: Record<string, { provider: string; engine?: string; expect?: Record<string, string> }>;
};
const targetOf = (engine: EmbeddedEngine) => {
  const hit = Object.entries(catalog.targets).find(([, t]) => t.provider === 'embedded' && t.engine === engine);
  if (!hit) throw new Error(`matrix/targets.yaml has no embedded target with engine ${engine}`);
  return { name: hit[0], expect: hit[1].expect ?? {} };
};

const rec = (id: string, e: number[], over: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  namespace: 'n',
  kind: 'fact',
  text: `t ${id}`,
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: {},
  embedding: Float32Array.from(e),
  ...over,
});

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return `${(e as { code?: string }).code}: ${(e as Error).message}`;
  }
  return 'resolved';
}

describe('embedded provider (PGlite), both engines side by side', () => {
  const started = new Map<EmbeddedEngine, StartedBackend>();
  const startMs: Record<string, number> = {};
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'mm-embedded-'));
    dirs.push(d);
    return d;
  };

  beforeAll(async () => {
    await Promise.all(
      EMBEDDED_ENGINES.map(async (engine) => {
        const t = targetOf(engine);
        const t0 = performance.now();
        started.set(engine, await startEmbedded(engine, { target: t.name, expect: t.expect }));
        startMs[engine] = Math.round(performance.now() - t0);
      }),
    );
    console.log(`embedded start (ms, both engines started concurrently): ${JSON.stringify(startMs)}`);
  });
  afterAll(async () => {
    for (const b of started.values()) await b.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test.each(EMBEDDED_ENGINES)('%s reports the versions the catalog expects', (engine) => {
    const b = started.get(engine)!;
    const t = targetOf(engine);
    expect(b.provider).toBe('embedded');
    expect(b.target).toBe(t.name);
    for (const [k, v] of Object.entries(t.expect)) expect(b.info.components[k]).toBe(v);
    expect(b.info.serverVersion).toMatch(new RegExp(`^PostgreSQL ${t.expect.postgres!.replace('.', '\\.')}`));
    expect(b.info.components.pglite).toMatch(engine === 'pglite-0.2' ? /^0\.2\./ : /^0\.5\./);
  });

  test.each(EMBEDDED_ENGINES)('%s: connect() gives a new client each call; writes from one read back from another (C01, C10)', async (engine) => {
    const b = started.get(engine)!;
    const writer = await b.connect();
    const reader = await b.connect();
    expect(reader).not.toBe(writer);
    const coll = await writer.createCollection({ name: 'emb_rt', dim: 3, metric: 'ip', index: { type: 'none' } });
    const r = rec('😀 中文', [0.5, -0, 1e-30], { text: '東京 🍣 "q"', metadata: { a: 0, b: '', c: false } });
    await coll.upsert([r]);
    await writer.close();
    const back = await reader.openCollection('emb_rt');
    expect(back.spec.metric).toBe('ip');
    const [got] = await back.get([r.id]);
    expect({ ...got!, embedding: Array.from(got!.embedding) }).toEqual({ ...r, embedding: Array.from(r.embedding) });
    expect(Object.is(got!.embedding[1], -0)).toBe(true);
    await reader.dropCollection('emb_rt');
    await reader.close();
  });

  test('a version the catalog does not expect fails loudly with TARGET_UNAVAILABLE', async () => {
    expect(await codeOf(startEmbedded('pglite-0.2', { target: 'pgvector@wrong', expect: { postgres: '17', pgvector: '0.8.0' } }))).toMatch(
      /^TARGET_UNAVAILABLE: pgvector@wrong \(embedded pglite-0.2\): expected postgres 17, server reports 16\.4$/,
    );
    expect(await codeOf(startEmbedded('pglite-0.9' as EmbeddedEngine))).toMatch(/^TARGET_UNAVAILABLE: .*unknown embedded engine "pglite-0.9"/);
  });

  test('dataDir: data survives stop() and a restart on the same directory; another engine refuses it loudly', async () => {
    const dir = tmp();
    const first = await startEmbedded('pglite-0.2', { dataDir: dir });
    const s = await first.connect();
    const c = await s.createCollection({ name: 'durable', dim: 2, metric: 'l2', index: { type: 'hnsw', m: 4, efConstruction: 16, efSearch: 10 } });
    await c.upsert([rec('a', [1, 2]), rec('b', [3, 4])]);
    await c.buildIndex();
    await first.stop();
    await first.stop(); // idempotent
    expect(await codeOf(first.connect())).toMatch(/^TARGET_UNAVAILABLE: .*after stop/);
    expect(await codeOf(c.count())).toMatch(/^BACKEND_ERROR: .*closed/);

    const again = await startEmbedded('pglite-0.2', { dataDir: dir });
    const reopened = await (await again.connect()).openCollection('durable');
    expect(reopened.spec.metric).toBe('l2');
    expect(await reopened.count()).toBe(2);
    expect((await reopened.recall({ vector: Float32Array.from([1, 2]), k: 1, scan: 'index' }))[0]).toEqual({ id: 'a', score: -0 });
    await again.stop();

    const other = await codeOf(startEmbedded('pglite-0.5', { dataDir: dir }));
    console.log(`pglite-0.5 on a pglite-0.2 dataDir: ${other.split('\n')[0]}`);
    expect(other).toMatch(/^TARGET_UNAVAILABLE: /);
  });
});
