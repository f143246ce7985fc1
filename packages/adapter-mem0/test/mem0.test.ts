/**
 * The mem0 driver over the real mem0ai 3.3.1 `Memory` (mem0ai/oss) and its embedded vector store,
 * in a temporary directory: the driver contract (write, read back, recall, filters, delete,
 * reopen, drop) and what mem0 itself does that the README measures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { referenceScore, type MemoryRecord, type MemoryStore } from '@memory-matrix/spec';
import { HandedEmbeddings, MEM0_CAPABILITIES, mem0Driver, Mem0Store, QUERY_TEXT } from '../src';

const rec = (id: string, e: number[], extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  id,
  namespace: 'ns-a',
  kind: 'fact',
  text: `text of ${id}`,
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { n: 1 },
  embedding: Float32Array.from(e),
  ...extra,
});
const code = async (p: Promise<unknown>): Promise<string | null> =>
  p.then(
    () => null,
    (e: { code?: string }) => e.code ?? 'no code',
  );

let dir: string;
let store: MemoryStore;
let n = 0;
const name = (label: string) => `m_${label}_${n++}`;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mm-mem0-test-'));
  store = new Mem0Store(dir);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the driver: embedded engine mem0-memory, packages as pinned, cosine only, no upsert', () => {
  expect(Object.keys(mem0Driver.embedded!.engines)).toEqual(['mem0-memory']);
  expect(mem0Driver.embedded!.engines['mem0-memory']!.preflight('t')).toEqual({ mem0ai: '3.3.1', 'better-sqlite3': '12.11.1' });
  expect(MEM0_CAPABILITIES).toMatchObject({ metrics: ['cosine'], upsert: false, exactScan: true, annIndexes: [], timeDecay: false, readYourWrites: 'strong' });
});

test('write, read back exactly, recall with cosine scores, filters, delete; a new store reopens the collection', async () => {
  const col = await store.createCollection({ name: name('rw'), dim: 3, metric: 'cosine', index: { type: 'none' } });
  const vs = { a: [1, 0, 0], b: [0.6, 0.8, 0], c: [-0.2, 2, 0.5] };
  await col.upsert([
    rec('a', vs.a, { metadata: { tag: '家族', z: false, e: '', nil: null, n: 0 } }),
    rec('b', vs.b, { namespace: 'ns-b', kind: 'episode', metadata: { n: '0' } }),
    rec('c', vs.c, { text: 'ü 🎙 the the', createdAt: '2024-05-01T09:30:00.123456Z' }),
  ]);
  const [a, c] = await col.get(['a', 'x', 'c', 'a']);
  expect(a).toEqual(rec('a', vs.a, { metadata: { tag: '家族', z: false, e: '', nil: null, n: 0 } }));
  expect(c).toEqual(rec('c', vs.c, { text: 'ü 🎙 the the', createdAt: '2024-05-01T09:30:00.123456Z' }));
  const q = Float32Array.from([0.9, 0.3, -0.2]);
  const hits = await col.recall({ vector: q, k: 3 });
  expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c']);
  for (const h of hits) expect(Math.abs(h.score - referenceScore('cosine', Float32Array.from(vs[h.id as keyof typeof vs]), q))).toBeLessThan(1e-9);
  expect((await col.recall({ vector: q, k: 5, filter: { namespaces: ['ns-b'] } })).map((h) => h.id)).toEqual(['b']);
  expect((await col.recall({ vector: q, k: 5, filter: { kinds: ['fact'], metadata: { n: 0 } } })).map((h) => h.id)).toEqual(['a']);
  expect(await col.count({ metadata: { n: 1 } })).toBe(1);
  expect(await col.count()).toBe(3);
  expect((await col.recall({ vector: q, k: 5, minScore: 0.5 })).map((h) => h.id)).toEqual(['a', 'b']);
  const other = await mem0Driver.embedded!.engines['mem0-memory']!.open({ where: 't', dataDir: dir });
  const reopened = await (await other.connect()).openCollection(col.spec.name);
  expect(reopened.spec).toMatchObject({ dim: 3, metric: 'cosine' });
  expect(await reopened.delete(['a', 'a', 'nope'])).toBe(1);
  expect(await col.count()).toBe(2);
  await store.dropCollection(col.spec.name);
  expect(await code(store.openCollection(col.spec.name))).toBe('COLLECTION_MISSING');
});

test('refusals: a stored id again (mem0 add creates a new memory), mm_ and mem0 keys, ip / l2, an index, decay', async () => {
  const col = await store.createCollection({ name: name('no'), dim: 3, metric: 'cosine', index: { type: 'none' } });
  await col.upsert([rec('a', [1, 0, 0])]);
  expect(await code(col.upsert([rec('a', [0, 1, 0])]))).toBe('CAPABILITY_MISSING');
  expect(await code(col.upsert([rec('d', [0, 1, 0]), rec('d', [0, 1, 0])]))).toBe('INVALID_INPUT');
  expect(await code(col.upsert([rec('m', [1, 0, 0], { metadata: { mm_kind: 'x' } })]))).toBe('INVALID_INPUT');
  expect(await code(col.upsert([rec('h', [1, 0, 0], { metadata: { hash: 'x' } })]))).toBe('INVALID_INPUT');
  expect(await code(col.upsert([rec('n', [1, 0, 0], { metadata: { src: { a: 1 } } })]))).toBe('CAPABILITY_MISSING'); // metadataShapes undeclared
  expect(await code(col.upsert([rec('w', [1, 0])]))).toBe('DIMENSION_MISMATCH');
  expect(await code(store.createCollection({ name: name('ip'), dim: 3, metric: 'ip', index: { type: 'none' } }))).toBe('CAPABILITY_MISSING');
  expect(await code(store.createCollection({ name: name('ix'), dim: 3, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 } }))).toBe('CAPABILITY_MISSING');
  expect(await code(col.recall({ vector: Float32Array.from([1, 0, 0]), k: 1, decay: { fn: 'exponential', halfLifeMs: 1 }, now: '2024-05-01T09:30:00.123Z' }))).toBe('CAPABILITY_MISSING');
  expect(await code(store.createCollection({ name: col.spec.name, dim: 3, metric: 'cosine', index: { type: 'none' } }))).toBe('COLLECTION_EXISTS');
});

describe('mem0 itself (what the README measures)', () => {
  test('the query text "the" gives no BM25 or entity term: search score = semantic score (explain)', async () => {
    process.env.MEM0_TELEMETRY = 'false';
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Memory } = require('mem0ai/oss');
    const emb = new HandedEmbeddings();
    const m = new Memory({
      embedder: { provider: 'langchain', config: { model: emb, embeddingDims: 3 } },
      vectorStore: { provider: 'memory', config: { dimension: 3, dbPath: path.join(dir, 'raw', 'v.db') } },
      llm: { provider: 'openai', config: { apiKey: 'unused', model: 'unused' } },
      disableHistory: true,
    });
    const add = (text: string, v: number[]) => (emb.expect(text, Float32Array.from(v)), m.add([{ role: 'user', content: text }], { agentId: 'x', infer: false }));
    await add('the the the', [1, 0, 0]);
    await add('Alice met Bob in Paris', [0.6, 0.8, 0]);
    await add('zero', [0, 0, 0]);
    await add('opposite', [-1, 0, 0]);
    emb.expect(QUERY_TEXT, Float32Array.from([1, 0.2, 0]));
    const { results } = await m.search(QUERY_TEXT, { filters: { agent_id: 'x' }, topK: 10, threshold: 0, explain: true });
    // A zero vector comes back with a NaN score; the opposite vector (similarity -0.98) never: threshold is at least 0.
    expect(results.map((r: { memory: string }) => r.memory)).toEqual(['the the the', 'Alice met Bob in Paris', 'zero']);
    for (const r of results) expect(r.score_details).toMatchObject({ bm25Score: 0, entityBoost: 0, maxPossibleScore: 1 });
    expect(results[2].score).toBeNaN();
    expect(await code(m.search(QUERY_TEXT, { filters: { agent_id: 'x' }, topK: 10, threshold: -0.5 }))).toBe('no code');
  });
});
