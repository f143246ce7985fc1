import { evaluateFilter, type MemoryRecord, parseFilter } from '@memory-matrix/spec';
import { sqliteEmbeddedEngine, type SqliteEngine } from '../src';

/**
 * The filter compiler (src/where-sql.ts) on the type edges of docs/filters.md, each filter's
 * count and recall ids compared with the reference `evaluateFilter` over the same records: 0,
 * false, "", null and a missing key apart; keys holding `.` and `"`; a nested path through a text
 * value (json_each would parse it as JSON); instants with µs and offsets; values bound, never
 * interpolated (a quote in an operand).
 */
const metas: Array<MemoryRecord['metadata']> = [
  { v: 0, 'a.b': 1, 'q"k': 'x' },
  { v: false, 'a.b': 2 },
  { v: '', 'q"k': "it's" },
  { v: null },
  {},
  { v: 1.5, s: 'text' },
  { v: 'x', s: '{"t":1}' },
  { v: true },
  { v: -3 },
];
const records: MemoryRecord[] = metas.map((metadata, i) => ({
  id: `m${i}`,
  namespace: i % 2 ? 'u1' : 'u2',
  text: `memory ${i}`,
  kind: i % 3 ? 'fact' : 'episode',
  createdAt: `2024-05-01T09:30:00.100${i + 1}00Z`, // µs 100, 200, … 900 past .100
  metadata,
  embedding: Float32Array.from([1, i + 1, 0, 1]),
}));

const FILTERS: unknown[] = [
  { 'metadata.v': 0 },
  { 'metadata.v': false },
  { 'metadata.v': '' },
  { 'metadata.v': null },
  { 'metadata.v': { $exists: false } },
  { 'metadata.v': { $ne: 0 } },
  { 'metadata.v': { $nin: [false, null] } },
  { 'metadata.v': { $in: [] } },
  { 'metadata.v': { $nin: [] } },
  { 'metadata.v': { $gt: -1 } },
  { 'metadata.v': { $lte: 0 } },
  { $not: { 'metadata.v': { $gte: 0 } } },
  { 'metadata.a\\.b': { $gte: 2 } },
  { 'metadata.q"k': "it's" },
  { 'metadata.s.t': 1 },
  { 'metadata.s.t': { $exists: false } },
  { 'metadata.v': { $contains: 'x' } },
  { createdAt: { $gt: { $date: '2024-05-01T19:00:00.1003+09:30' } } },
  { createdAt: { $eq: { $date: '2024-05-01T09:30:00.1005Z' } } },
  { $or: [{ namespace: 'u1', kind: 'episode' }, { 'metadata.v': { $lt: 0 } }] },
  { kind: { $ne: 'fact' }, namespace: { $in: ['u2'] } },
];

let engine: SqliteEngine;
beforeAll(async () => {
  engine = await sqliteEmbeddedEngine();
});
afterAll(async () => engine?.stop());

test.each(FILTERS.map((f) => [JSON.stringify(f), f]))('%s: count and recall equal the reference', async (_name, surface) => {
  const store = await engine.connect();
  const c = await store.createCollection({ name: `w${Math.random().toString(36).slice(2, 8)}`, dim: 4, metric: 'cosine', index: { type: 'none' } });
  await c.upsert(records);
  const where = parseFilter(surface, 'test filter');
  const want = records.filter((r) => evaluateFilter(where, r)).map((r) => r.id);
  expect(await c.count({ where })).toBe(want.length);
  const hits = await c.recall({ vector: Float32Array.from([1, 1, 1, 1]), k: 20, filter: { where }, scan: 'exact' });
  expect(hits.map((h) => h.id).sort()).toEqual([...want].sort());
  await store.close();
});
