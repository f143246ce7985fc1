/**
 * `memory-matrix sample` without `--columns` on tables real clients wrote, on a real PostgreSQL 17
 * + pgvector (the pgvector@pg17 container, started through the backends' own `startTarget`):
 *
 * - LangChain.js `PGVectorStore` itself (@langchain/community, `initialize` + `addDocuments`, with
 *   precomputed vectors through `GoldenEmbeddings`: no model) writes one table without and one
 *   with a collection table (two collections). `sample` picks langchain-js / langchain-js-collection,
 *   prints the layout and mapping, copies text and embeddings exactly, and `memory-matrix run
 *   --dataset <sample> --backend pgvector@pglite-pg18 --check C03` passes on the result.
 *   `--columns namespace=metadata.user` still overrides the detected mapping.
 * - mem0ai (mem0's TypeScript client) itself, `Memory.add(…, { userId, infer: false })` with a
 *   LangChain-style embedder returning precomputed vectors (no model; the LLM is never called
 *   with `infer: false`), writes a mem0 table: `sample` picks mem0 and reads text from
 *   payload.data, namespace from payload.user_id, created_at from payload.createdAt.
 * - The layouts verified against source only (langchain-postgres v1 and v2, LlamaIndex Python and
 *   TS, Mastra, and the payload Python mem0 writes) are created with the DDL their sources run
 *   (quoted in packages/adapter-pgvector/src/sample/layouts.ts) and detected from what this
 *   server's information_schema reports; the Python-mem0 table (created_at beside createdAt
 *   rows) is sampled end to end.
 *
 * Each LangChain.js store gets its own pool and `end()`: `initialize()` checks one client out of
 * the pool and holds it until `end()`, so stores sharing one pool without `end()` exhaust it and
 * the next `pool.connect()` waits forever (pg's Pool has no connect time limit by default).
 * Behind the Docker gate (fails under CI=true without Docker).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Document } from '@langchain/core/documents';
import { Memory } from 'mem0ai/oss';
import { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import { pgvectorSampleSource } from '@memory-matrix/adapter-pgvector';
import { startTarget, type StartedBackend } from '@memory-matrix/targets';
import { loadGoldenDataset, type MemoryRecord } from '@memory-matrix/spec';
import { GoldenEmbeddings } from '../src/bench/golden-embeddings';
import { matchLayouts } from '../src/sample/layouts';
import { describeWithContainers } from './docker-gate';
import { runSampleCli, unitVectors } from './sample-helpers';

const DIM = 16;
const ROWS = 120;
const vecs = unitVectors(ROWS, DIM, 777);
const uuidOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const textOf = (i: number) => `Memory ${i}: the user asked to be reminded about item ${i * 7} on day ${i % 28}.`;
const record = (i: number): MemoryRecord => ({
  id: uuidOf(i),
  namespace: 'default',
  kind: 'fact',
  text: textOf(i),
  createdAt: '2025-01-01T00:00:00.000Z',
  metadata: { user: `user-${i % 3}`, n: i },
  embedding: vecs[i]!,
});
const vecText = (v: Float32Array) => `[${Array.from(v, String).join(',')}]`;
const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** Seed `rows` through LangChain.js' own PGVectorStore (its own pool, ended after). */
async function seedLangChain(url: string, tableName: string, rows: number[], collection?: { table: string; name: string }): Promise<void> {
  const records = rows.map(record);
  const store = await PGVectorStore.initialize(new GoldenEmbeddings(records), {
    postgresConnectionOptions: { connectionString: url },
    tableName,
    dimensions: DIM,
    distanceStrategy: 'cosine',
    ...(collection ? { collectionTableName: collection.table, collectionName: collection.name } : {}),
  });
  try {
    await store.addDocuments(
      records.map((r) => new Document({ pageContent: r.text, metadata: r.metadata })),
      { ids: records.map((r) => r.id) },
    );
  } finally {
    await store.end();
  }
}

/** Seed `rows` through mem0ai's own Memory over its pgvector store (memories of users alice and bob). */
async function seedMem0(url: string, collectionName: string, rows: number[]): Promise<void> {
  process.env.MEM0_TELEMETRY = 'false';
  const byText = new Map(rows.map((i) => [textOf(i), Array.from(vecs[i]!)]));
  const embed = (t: string) => byText.get(t) ?? Promise.reject(new Error(`no precomputed vector for ${JSON.stringify(t)}`));
  const memory = new Memory({
    embedder: { provider: 'langchain', config: { model: { embedQuery: async (t: string) => embed(t), embedDocuments: async (ts: string[]) => Promise.all(ts.map(embed)) }, embeddingDims: DIM } },
    vectorStore: { provider: 'pgvector', config: { connectionString: url, collectionName, embeddingModelDims: DIM, dimension: DIM } },
    // Never called: infer false stores each message as one memory without the LLM.
    llm: { provider: 'openai', config: { apiKey: 'unused', model: 'unused' } },
    disableHistory: true,
  });
  try {
    for (const i of rows) await memory.add([{ role: 'user', content: textOf(i) }], { userId: i % 2 ? 'alice' : 'bob', infer: false });
  } finally {
    // Memory has no close(); its pgvector store's pg Client stays open and, with no 'error' listener,
    // crashes the process when the server stops. The store's own close() ends it.
    await (memory as unknown as { vectorStore: { close(): Promise<void> } }).vectorStore.close();
  }
}

describeWithContainers('sample detects the table layouts real clients write', ['pgvector@pg17'], ([pg17]) => {
  let server: StartedBackend;
  let url: string;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-sample-layouts-'));
  const all = Array.from({ length: ROWS }, (_, i) => i);
  const sample = (table: string, out: string, extra: string[] = []) =>
    runSampleCli(['sample', '--from', url, '--table', table, '--n', '60', '--queries', '10', '--seed', '4', '--out', path.join(tmp, out), '--name', out, ...extra]);
  const runC03 = (out: string) => runSampleCli(['run', '--dataset', path.join(tmp, out), '--backend', 'pgvector@pglite-pg18', '--check', 'C03', '--report-dir', mkdtempSync(path.join(tmp, 'rep-'))]);
  const ok = (r: ReturnType<typeof runSampleCli>) => {
    if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stderr}\n${r.stdout}`);
    return r;
  };

  beforeAll(async () => {
    server = await startTarget({ ...pg17 }, { runId: `sample-layouts-test-${process.pid}` });
    url = (server as unknown as { connectionString: string }).connectionString;
    await seedLangChain(url, 'lc_memories', all);
    await seedLangChain(
      url,
      'lc_team_memories',
      all.filter((i) => i % 4 !== 0),
      { table: 'lc_collections', name: 'team-a' },
    );
    await seedLangChain(
      url,
      'lc_team_memories',
      all.filter((i) => i % 4 === 0),
      { table: 'lc_collections', name: 'team-b' },
    );
    await seedMem0(url, 'mem0_ts', all.slice(0, 80));
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      // The DDL of the clients verified against source only (see layouts.ts for each source and version).
      await c.query(`CREATE TABLE langchain_pg_collection (uuid uuid PRIMARY KEY, name varchar NOT NULL UNIQUE, cmetadata json);
        CREATE TABLE langchain_pg_embedding (id varchar PRIMARY KEY, collection_id uuid REFERENCES langchain_pg_collection(uuid) ON DELETE CASCADE,
          embedding vector(${DIM}), document varchar, cmetadata jsonb);
        CREATE TABLE "public"."lc_v2"("langchain_id" UUID PRIMARY KEY, "content" TEXT NOT NULL, "embedding" vector(${DIM}) NOT NULL, "langchain_metadata" JSON);
        CREATE TABLE data_notes (id BIGSERIAL PRIMARY KEY, text VARCHAR NOT NULL, metadata_ JSON, node_id VARCHAR, embedding vector(${DIM}));
        CREATE TABLE llamaindex_embedding (id uuid DEFAULT gen_random_uuid() PRIMARY KEY, external_id VARCHAR, collection VARCHAR, document TEXT,
          metadata JSONB DEFAULT '{}', embeddings VECTOR(${DIM}));
        CREATE TABLE mastra_docs (id SERIAL PRIMARY KEY, vector_id TEXT NOT NULL, embedding vector(${DIM}), metadata JSONB DEFAULT '{}'::jsonb,
          namespace VARCHAR(255) NOT NULL DEFAULT 'default');
        CREATE TABLE mem0 (id UUID PRIMARY KEY, vector vector(${DIM}), payload JSONB);
        CREATE TABLE odd_notes (pk bigint PRIMARY KEY, body text, metadata jsonb, emb vector(${DIM}));`);
      for (const i of all) {
        // mem0: Python writes created_at (local offset), TypeScript createdAt (UTC); both keep the text as data and the user as user_id.
        const when = new Date(Date.UTC(2025, 2, 1) + i * 3_600_000);
        const payload = {
          data: textOf(i),
          hash: `h${i}`,
          user_id: i % 2 ? 'alice' : 'bob',
          ...(i % 2 ? { createdAt: when.toISOString() } : { created_at: when.toISOString().replace('Z', '+00:00') }),
        };
        await c.query('INSERT INTO mem0 VALUES ($1, $2::vector, $3::jsonb)', [uuidOf(i), vecText(vecs[i]!), JSON.stringify(payload)]);
      }
    } finally {
      await c.end();
    }
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  test('the real LangChain.js PGVectorStore table: langchain-js picked without --columns, exact text and vectors, run --dataset C03 passes', () => {
    const r = ok(sample('lc_memories', 'lc'));
    expect(r.stdout).toContain('layout: langchain-js — LangChain.js PGVectorStore (@langchain/community)\n');
    expect(r.stdout).toContain('mapping: id=id,text=text,embedding=embedding,metadata=metadata,created_at=none,namespace=none,kind=none\n');
    expect(r.stdout).toMatch(/sampled 60 memories \+ 10 held-out queries from postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres lc_memories \(120 eligible of 120 rows\)/);
    const ds = loadGoldenDataset(path.join(tmp, 'lc'));
    for (const m of ds.memories) {
      const i = parseInt(m.id.slice(-12), 16);
      expect(m.text).toBe(textOf(i));
      expect(bytes(m.embedding)).toEqual(bytes(vecs[i]!));
      expect(m.metadata).toEqual({ user: `user-${i % 3}`, n: i });
      expect(m.namespace).toBe('default');
    }
    ok(runC03('lc'));
  }, 400_000);

  test('the real LangChain.js PGVectorStore with a collection table: langchain-js-collection, namespaces are the collections, run --dataset C03 passes', async () => {
    const r = ok(sample('lc_team_memories', 'lc-team', ['--stratify', 'namespace']));
    expect(r.stdout).toMatch(/^layout: langchain-js-collection — LangChain\.js PGVectorStore with a collection table \(@langchain\/community\) \(collection_id → lc_collections\)$/m);
    expect(r.stdout).toContain('also matches langchain-js (fewer columns');
    expect(r.stdout).toContain('mapping: id=id,text=text,embedding=embedding,metadata=metadata,created_at=none,namespace=collection_id,kind=none\n');
    const c = new Client({ connectionString: url });
    await c.connect();
    const uuids = new Map((await c.query<{ uuid: string; name: string }>('SELECT uuid::text, name FROM lc_collections')).rows.map((x) => [x.name, x.uuid]));
    await c.end();
    // 90 rows in team-a, 30 in team-b; 70 sampled (--n 60 + --queries 10) in proportion: 52.5 and 17.5, the
    // half going to the stratum listed first (the collections' uuids are random, so either).
    const share = (team: string, rows: number) => Number(new RegExp(`stratum ${uuids.get(team)}: (\\d+) of ${rows}\\n`).exec(r.stdout)?.[1]);
    expect([share('team-a', 90) + share('team-b', 30), Math.abs(share('team-a', 90) - 52.5)]).toEqual([70, 0.5]);
    const ds = loadGoldenDataset(path.join(tmp, 'lc-team'));
    for (const m of ds.memories) expect(m.namespace).toBe(uuids.get(parseInt(m.id.slice(-12), 16) % 4 === 0 ? 'team-b' : 'team-a'));
    ok(runC03('lc-team'));
  }, 400_000);

  test('--columns still overrides the detected mapping (namespace from a metadata key)', () => {
    const r = ok(sample('lc_memories', 'lc-user', ['--columns', 'namespace=metadata.user', '--stratify', 'namespace']));
    expect(r.stdout).toContain('layout: langchain-js — ');
    expect(r.stdout).toContain("mapping (--columns over langchain-js's): id=id,text=text,embedding=embedding,metadata=metadata,created_at=none,namespace=metadata.user,kind=none\n");
    expect(r.stdout).toMatch(/stratum user-0: \d+ of 40/);
    expect(new Set(loadGoldenDataset(path.join(tmp, 'lc-user')).memories.map((m) => m.namespace))).toEqual(new Set(['user-0', 'user-1', 'user-2']));
  }, 300_000);

  test("each source-verified client's DDL is detected from this server's information_schema", async () => {
    const expected: Record<string, string> = {
      lc_memories: 'langchain-js',
      lc_team_memories: 'langchain-js-collection',
      langchain_pg_embedding: 'langchain-postgres',
      lc_v2: 'langchain-postgres-v2',
      data_notes: 'llamaindex',
      llamaindex_embedding: 'llamaindex-ts',
      mastra_docs: 'mastra',
      mem0: 'mem0',
      mem0_ts: 'mem0',
    };
    const got: Record<string, string | null> = {};
    for (const table of Object.keys(expected)) {
      const shape = await pgvectorSampleSource.describeTable!({ url, label: 'pg17', table });
      got[table] = matchLayouts(pgvectorSampleSource.layouts!, shape).chosen?.layout.name ?? null;
    }
    expect(got).toEqual(expected);
    const odd = await pgvectorSampleSource.describeTable!({ url, label: 'pg17', table: 'odd_notes' });
    expect(odd.columns).toEqual([
      { name: 'pk', type: 'bigint' },
      { name: 'body', type: 'text' },
      { name: 'metadata', type: 'jsonb' },
      { name: 'emb', type: 'vector' },
    ]);
    await expect(pgvectorSampleSource.describeTable!({ url, label: 'pg17', table: 'nosuch' })).rejects.toMatchObject({
      code: 'USAGE',
      message: 'pg17: table "nosuch" does not exist (give it with --table)',
    });
  }, 120_000);

  test('an unknown layout: exit 2 listing the columns and the closest known layout, nothing written', () => {
    const r = sample('odd_notes', 'odd');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('odd_notes: the table matches no known layout (');
    expect(r.stderr).toContain(
      'its columns: pk bigint, body text, metadata jsonb, emb vector; closest known layout: langchain-js (LangChain.js PGVectorStore (@langchain/community)), which needs no column id (uuid)',
    );
    expect(() => readFileSync(path.join(tmp, 'odd', 'manifest.json'))).toThrow();
  }, 120_000);

  test('the real mem0ai table: mem0 picked without --columns, text, user and creation time from the payload, exact vectors', () => {
    const r = ok(sample('mem0_ts', 'mem0-ts', ['--stratify', 'namespace']));
    expect(r.stdout).toContain("layout: mem0 — mem0's pgvector store (Python mem0, TypeScript mem0ai)\n");
    expect(r.stdout).toContain('mapping: id=id,text=metadata.data,embedding=vector,metadata=payload,created_at=metadata.created_at|createdAt,namespace=metadata.user_id,kind=none\n');
    expect(r.stdout).toMatch(/stratum alice: 35 of 40\n {2}stratum bob: 35 of 40\n/);
    const byText = new Map(all.map((i) => [textOf(i), i]));
    const ds = loadGoldenDataset(path.join(tmp, 'mem0-ts'));
    for (const m of ds.memories) {
      const i = byText.get(m.text)!;
      expect([m.namespace, bytes(m.embedding)]).toEqual([i % 2 ? 'alice' : 'bob', bytes(vecs[i]!)]);
      expect(m.createdAt).toBe(m.metadata.createdAt);
      expect(m.metadata).toMatchObject({ data: m.text, user_id: m.namespace });
    }
    expect(JSON.parse(readFileSync(path.join(tmp, 'mem0-ts', 'sample-provenance.json'), 'utf8')).conversion.createdAtMissing).toBe(0);
  }, 300_000);

  test('mem0 with the payload Python mem0 writes (created_at) beside createdAt rows: text from payload.data, namespace from user_id, created_at from either', () => {
    const r = ok(sample('mem0', 'mem0'));
    expect(r.stdout).toContain("layout: mem0 — mem0's pgvector store (Python mem0, TypeScript mem0ai)\n");
    expect(r.stdout).toContain('mapping: id=id,text=metadata.data,embedding=vector,metadata=payload,created_at=metadata.created_at|createdAt,namespace=metadata.user_id,kind=none\n');
    const ds = loadGoldenDataset(path.join(tmp, 'mem0'));
    for (const m of ds.memories) {
      const i = parseInt(m.id.slice(-12), 16);
      expect([m.text, m.namespace, m.createdAt]).toEqual([textOf(i), i % 2 ? 'alice' : 'bob', new Date(Date.UTC(2025, 2, 1) + i * 3_600_000).toISOString()]);
      expect(bytes(m.embedding)).toEqual(bytes(vecs[i]!));
    }
    const prov = JSON.parse(readFileSync(path.join(tmp, 'mem0', 'sample-provenance.json'), 'utf8'));
    expect(prov.source.columns).toMatchObject({ text: 'metadata.data', created_at: 'metadata.created_at|createdAt', namespace: 'metadata.user_id' });
    expect(prov.conversion.createdAtMissing).toBe(0);
  }, 300_000);
});
