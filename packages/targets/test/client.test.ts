import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { parse, stringify } from 'yaml';
import { defineDriver, hnswIndexSchema, ivfflatIndexSchema, type MemoryRecord } from '@memory-matrix/spec';
import { createPgvectorStore, fromPgPool, pgPoolOptions, PGVECTOR_CAPABILITIES, PGVECTOR_SCORES, sandboxProblem } from '@memory-matrix/adapter-pgvector';
import { loadCatalog, registerDriver, resolveTarget, startTarget } from '../src';

/**
 * The client provider (src/client.ts) end to end on a real server without Docker: a client driver
 * that speaks plain `pg` to whatever URL the server gives — here pgvector@pglite-pg18, served on a
 * loopback port by pglite-socket — runs over the server target the catalog names. The client is the
 * pgvector adapter itself over a `pg.Pool` (a real client library over the wire protocol), so what
 * is tested is the mechanism: catalog resolution, the server start, the address, the stores.
 */
const pgClient = defineDriver({
  name: 'pg-wire-client',
  description: 'the pgvector adapter over node-postgres at the server URL (client-provider test fixture)',
  capabilities: { ...PGVECTOR_CAPABILITIES, faults: false, upgrade: false },
  scores: PGVECTOR_SCORES,
  indexes: { hnsw: hnswIndexSchema, ivfflat: ivfflatIndexSchema },
  client: {
    servers: ['pgvector'],
    description: 'node-postgres over the wire protocol',
    preflight: () => ({ 'pg-wire-client': '1.0.0' }),
    connect: (server, opts) => createPgvectorStore(fromPgPool(new Pool({ connectionString: server.url, max: 4, ...pgPoolOptions(opts) }))),
  },
});
registerDriver(pgClient);

const REAL = parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'matrix', 'targets.yaml'), 'utf8')) as { defaults: unknown; targets: Record<string, unknown> };
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A catalog with the real PGlite server targets plus `clients` (target name → entry). */
function catalogWith(clients: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-client-catalog-'));
  dirs.push(dir);
  const file = path.join(dir, 'targets.yaml');
  const servers = Object.fromEntries(['pgvector@pglite-pg16', 'pgvector@pglite-pg18', 'sqlite@3.53-vec0.1.9'].map((n) => [n, REAL.targets[n]]));
  writeFileSync(file, stringify({ defaults: REAL.defaults, targets: { ...servers, ...clients }, profiles: { p: { targets: Object.keys(servers) } } }));
  return file;
}

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  return '(no error)';
};

describe('catalog: client targets (server:)', () => {
  test('a client target takes provider, engine and start from its server, capabilities and expect of its own', () => {
    const cat = loadCatalog(catalogWith({ 'pg-wire-client@pglite-pg18': { backend: 'pg-wire-client', server: 'pgvector@pglite-pg18', expect: { 'pg-wire-client': '1' } } }));
    const t = resolveTarget(cat, 'pg-wire-client@pglite-pg18');
    expect(t).toMatchObject({ backend: 'pg-wire-client', provider: 'embedded', engine: 'pglite-0.5', version: 'pglite-pg18', expect: { 'pg-wire-client': '1' } });
    expect(t.serverTarget?.name).toBe('pgvector@pglite-pg18');
    expect(t.capabilities.faults).toBe(false);
  });

  test.each([
    [{ backend: 'pg-wire-client', server: 'pgvector@pglite-pg18', provider: 'embedded' }, /pg-wire-client@x\.provider: a client target takes provider from its server/],
    [{ backend: 'pg-wire-client', server: 'pgvector@nope' }, /\.server: "pgvector@nope" is not a server target of this catalog/],
    [{ backend: 'pg-wire-client', server: 'sqlite@3.53-vec0.1.9' }, /runs over pgvector servers, not sqlite/],
    [{ backend: 'pgvector', server: 'pgvector@pglite-pg18' }, /driver pgvector is not a client driver/],
    [{ backend: 'pg-wire-client' }, /\.provider: give the provider that starts/],
  ])('refused with the line and field: %j', (entry, why) => {
    const name = `${entry.backend}@x`;
    expect(message(() => loadCatalog(catalogWith({ [name]: entry })))).toMatch(why);
    expect(message(() => loadCatalog(catalogWith({ [name]: entry })))).toMatch(/targets\.yaml:\d+: /);
  });
});

const problem = sandboxProblem();
const describeEmbedded = problem ? describe.skip : describe;
if (problem) {
  if (process.env.CI === 'true') throw new Error(`client provider test cannot run under CI: ${problem}`);
  console.warn(`SKIPPED client provider start: ${problem}`);
}

describeEmbedded('the client provider on pgvector@pglite-pg18 (PGlite served on a loopback port)', () => {
  const rec = (id: string, e: number[]): MemoryRecord => ({
    id,
    namespace: 'n',
    kind: 'fact',
    text: `t ${id}`,
    createdAt: '2024-05-01T09:30:00.123Z',
    metadata: { n: 1 },
    embedding: Float32Array.from(e),
  });

  test('stores are the client, over the server URL; components merged; stop closes everything', async () => {
    const cat = loadCatalog(catalogWith({ 'pg-wire-client@pglite-pg18': { backend: 'pg-wire-client', server: 'pgvector@pglite-pg18' } }));
    const started = await startTarget(resolveTarget(cat, 'pg-wire-client@pglite-pg18'), { runId: `client-test-${process.pid}` });
    try {
      expect(started.info.components).toMatchObject({ postgres: '18.6', pgvector: '0.8.7', 'pg-wire-client': '1.0.0' });
      const address = await started.address!();
      expect(address.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      const a = await started.connect({ clientName: 'client-test-a' });
      const col = await a.createCollection({ name: `mm_client_${process.pid}`, dim: 3, metric: 'cosine', index: { type: 'none' } });
      await col.upsert([rec('x', [1, 0, 0]), rec('y', [0, 1, 0])]);
      const b = await started.connect(); // a second client on the same server sees the write
      const again = await b.openCollection(`mm_client_${process.pid}`);
      expect((await again.recall({ vector: Float32Array.from([1, 0.1, 0]), k: 2 })).map((h) => h.id)).toEqual(['x', 'y']);
      await b.close();
      await a.close();
    } finally {
      await started.stop();
    }
  }, 120_000);

  test('over PGlite 0.2 (no pglite-socket for it) the start fails naming the target and what is missing', async () => {
    const cat = loadCatalog(catalogWith({ 'pg-wire-client@pglite-pg16': { backend: 'pg-wire-client', server: 'pgvector@pglite-pg16' } }));
    await expect(startTarget(resolveTarget(cat, 'pg-wire-client@pglite-pg16'), { runId: `client-test-${process.pid}` })).rejects.toMatchObject({
      code: 'TARGET_UNAVAILABLE',
      message: expect.stringMatching(/pgvector@pglite-pg16 .*cannot serve its wire protocol/),
    });
  }, 120_000);
});
