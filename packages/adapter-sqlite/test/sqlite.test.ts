import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ChatMessage, MemoryRecord } from '@memory-matrix/spec';
import { runChild } from '@memory-matrix/spec/src/checks/c26-snapshot-rollback';
import { createSqliteStore, sqliteEmbeddedEngine, type SqliteEngine } from '../src';

/** SQLite-specific behaviour beyond the shared suite: refusals, typed filters, ties, NUL, files, other processes. */

const DIM = 4;
const rec = (id: string, embedding: number[], extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  namespace: 'ns',
  text: `text of ${id}`,
  kind: 'fact',
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: {},
  embedding: Float32Array.from(embedding),
  ...extra,
});

let engine: SqliteEngine;
beforeEach(async () => {
  engine = await sqliteEmbeddedEngine();
});
afterEach(async () => engine.stop());

test('serverInfo reports SQLite and sqlite-vec as they report themselves', async () => {
  const store = await engine.connect();
  const info = await store.serverInfo();
  expect(info.server).toMatch(/^SQLite 3\.\d+\.\d+$/);
  expect(info.components).toEqual({ sqlite: expect.stringMatching(/^3\./), 'sqlite-vec': '0.1.9' });
});

test('ip and ANN indexes are refused with CAPABILITY_MISSING; nothing is created', async () => {
  const store = await engine.connect();
  await expect(store.createCollection({ name: 'c_ip', dim: DIM, metric: 'ip', index: { type: 'none' } })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
  await expect(store.createCollection({ name: 'c_hnsw', dim: DIM, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 } })).rejects.toMatchObject({
    code: 'CAPABILITY_MISSING',
  });
  await expect(store.openCollection('c_ip')).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
});

test('metadata filters compare JSON types: 0, false, "", null and a missing key are five different things', async () => {
  const store = await engine.connect();
  const c = await store.createCollection({ name: 'typed', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  const v = [1, 0, 0, 0];
  await c.upsert([
    rec('zero', v, { metadata: { a: 0 } }),
    rec('false', v, { metadata: { a: false } }),
    rec('empty', v, { metadata: { a: '' } }),
    rec('null', v, { metadata: { a: null } }),
    rec('none', v, { metadata: { b: 1.5 } }),
  ]);
  for (const [value, id] of [
    [0, 'zero'],
    [false, 'false'],
    ['', 'empty'],
    [null, 'null'],
  ] as const) {
    const hits = await c.recall({ vector: Float32Array.from(v), k: 10, filter: { metadata: { a: value } } });
    expect(hits.map((h) => h.id)).toEqual([id]);
    expect(await c.count({ metadata: { a: value } })).toBe(1);
  }
  expect((await c.recall({ vector: Float32Array.from(v), k: 10, filter: { metadata: { b: 1.5 } } })).map((h) => h.id)).toEqual(['none']);
  expect(await c.count({ kinds: [] })).toBe(0);
});

test('a tie group wider than k + TIE_MARGIN is still cut by id (the KNN fetch grows)', async () => {
  const store = await engine.connect();
  const c = await store.createCollection({ name: 'ties', dim: DIM, metric: 'l2', index: { type: 'none' } });
  const ids = Array.from({ length: 60 }, (_, i) => `t${String(59 - i).padStart(2, '0')}`); // inserted in descending id order
  await c.upsert(ids.map((id) => rec(id, [1, 2, 3, 4])));
  await c.upsert([rec('a-far', [9, 9, 9, 9])]);
  const hits = await c.recall({ vector: Float32Array.from([1, 2, 3, 4]), k: 5 });
  expect(hits).toEqual(['t00', 't01', 't02', 't03', 't04'].map((id) => ({ id, score: -0 })));
});

test('text with control characters, CJK and emoji, and µs createdAt read back byte for byte from a new connection', async () => {
  const store = await engine.connect();
  const c = await store.createCollection({ name: 'bytes', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  const r = rec('nul', [0.5, -1, 2, 0], { text: 'a\u0001b\tc 記憶 👩‍👩‍👧', createdAt: '2024-05-01T09:30:00.450250Z', metadata: { z: -1.25e-300, s: 'x\u0001y' } });
  await c.upsert([r]);
  const other = await engine.connect();
  const [back] = await (await other.openCollection('bytes')).get(['nul']);
  expect(back).toEqual(r);
  expect(Buffer.from(back!.embedding.buffer).equals(Buffer.from(r.embedding.buffer))).toBe(true);
});

test('a store without a file owns a temp dir and removes it on close; an engine removes its dir on stop', async () => {
  const store = await createSqliteStore();
  const dir = path.dirname(store.file);
  expect(existsSync(store.file)).toBe(true);
  await store.close();
  expect(existsSync(dir)).toBe(false);
  const e = await sqliteEmbeddedEngine({ journalMode: 'DELETE', synchronous: 'FULL' });
  await (await e.connect()).createCollection({ name: 'x', dim: DIM, metric: 'cosine', index: { type: 'none' } });
  await e.stop();
  expect(existsSync(e.dir)).toBe(false);
});

test('4 writer PROCESSES append to one session at once: appended = read back, each writer in its own order', async () => {
  const store = await engine.connect();
  const recipe = store.processRecipe();
  const sessionId = 's-procs';
  const keyPrefix = 'mmtest:';
  const per = 25;
  const msg = (w: number, i: number): ChatMessage => ({ role: 'user', content: `writer ${w} turn ${i} ✍️`, createdAt: new Date(Date.UTC(2024, 4, 1) + i).toISOString(), metadata: { w, i } });
  const runs = await Promise.all([0, 1, 2, 3].map((w) => runChild({ recipe, sessionId, keyPrefix, ops: Array.from({ length: per }, (_, i) => ({ op: 'append' as const, messages: [msg(w, i)] })) })));
  for (const r of runs) {
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(0);
  }
  const got = await (await store.openHistory({ sessionId, keyPrefix })).read();
  expect(got).toHaveLength(4 * per);
  for (let w = 0; w < 4; w++) expect(got.filter((m) => m.metadata.w === w).map((m) => m.metadata.i)).toEqual(Array.from({ length: per }, (_, i) => i));
}, 120_000);
