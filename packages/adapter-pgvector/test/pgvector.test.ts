import type { MemoryRecord, Metric } from '@memory-matrix/spec';
import { COPY_MIN_ROWS, createPgvectorStore, type PGliteLike, type PgvectorStore } from '../src';
import { client, ENGINES, openEngine } from './helpers/engines';
import { prng, normal } from './helpers/data';

/** Backend-specific cases of the pgvector adapter on real PGlite (both engines, side by side). */

let seq = 0;
const uniq = (label: string) => `${label}_${process.pid}_${++seq}`;

function vec(values: number[]): Float32Array {
  return Float32Array.from(values);
}

function record(id: string, embedding: Float32Array, over: Partial<MemoryRecord> = {}): MemoryRecord {
  return { id, namespace: 'ns', kind: 'fact', text: `text of ${id}`, createdAt: '2024-05-01T09:30:00.123Z', metadata: {}, embedding, ...over };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code ?? `no code: ${String(e)}`;
  }
  return 'resolved';
}

describe.each(ENGINES)('pgvector adapter on %s', (engine) => {
  let db: PGliteLike;
  let store: PgvectorStore;
  const newStore = () => createPgvectorStore(client(db));

  beforeAll(async () => {
    db = await openEngine(engine);
    store = await newStore();
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  // The same records through both write paths: alone (one INSERT) and among COPY_MIN_ROWS fillers (binary COPY).
  test.each([
    ['INSERT', 0],
    ['binary COPY', COPY_MIN_ROWS],
  ])('C01 round trip from a NEW client (%s): CJK, emoji, falsy metadata, timestamps with µs, bit-exact float32', async (_path, fillers) => {
    const rand = prng(7);
    const tricky = vec([-0, 1e-45, 3.4028234663852886e38 / 1e10, Math.fround(0.1), -Math.fround(1 / 3), 1.17549435e-38, 123456.789, -2.5e-7]);
    const rs: MemoryRecord[] = [
      record('cjk', tricky, {
        text: '我喜欢在周末去爬山。東京の天気は晴れ。한국어 텍스트',
        // eslint-disable-next-line no-loss-of-precision -- deliberately 2^53 + 1: the double it parses to must come back unchanged
        metadata: { zero: 0, empty: '', no: false, nil: null, lang: '中文', big: 9007199254740993, frac: 0.30000000000000004, neg: -1e-300 },
        createdAt: '1999-12-31T23:59:59.999Z',
      }),
      record(
        'emoji 🚀 "quoted" \\ back,slash {brace}',
        Float32Array.from({ length: 8 }, () => normal(rand)),
        {
          text: 'I ❤️ pizza 🍕 — family 👨‍👩‍👧‍👦, flags 🇯🇵; quote \' and "double", newline\nand tab\t, backslash \\ and NULL-looking text NULL',
          namespace: 'ns with spaces, "quotes" and {braces}',
          metadata: { 'key.with.dots': 'dotted key', 'key with "quote"': "it's", emoji: '🙂' },
          createdAt: '0001-01-01T00:00:00.000Z',
          kind: 'preference',
        },
      ),
      record(
        'NULL',
        Float32Array.from({ length: 8 }, () => normal(rand)),
        { text: '', namespace: '', createdAt: '9999-12-31T23:59:59.999Z', kind: 'summary' },
      ),
      record('micro', vec([1, 2, 3, 4, 5, 6, 7, 8]), { createdAt: '2024-02-29T12:00:00.000450Z', metadata: { tab: 'a\tb', n: -2.5 } }),
    ];
    const name = uniq('c01');
    const coll = await store.createCollection({ name, dim: 8, metric: 'l2', index: { type: 'none' } });
    await coll.upsert([...rs, ...Array.from({ length: fillers }, (_, i) => record(`filler-${i}`, vec([i + 1, 0, 0, 0, 0, 0, 0, 0])))]);
    expect(await coll.count()).toBe(rs.length + fillers);
    const reader = await newStore();
    const back = await (await reader.openCollection(name)).get([...rs.map((r) => r.id), 'missing'].reverse());
    expect(back.map((r) => r.id)).toEqual(rs.map((r) => r.id).reverse());
    for (const r of rs) {
      const b = back.find((x) => x.id === r.id)!;
      expect({ ...b, embedding: null }).toEqual({ ...r, embedding: null });
      expect(Object.keys(b.metadata).sort()).toEqual(Object.keys(r.metadata).sort());
      for (const k of Object.keys(r.metadata)) expect(Object.is(b.metadata[k], r.metadata[k])).toBe(true);
      expect(b.embedding).toBeInstanceOf(Float32Array);
      expect(Buffer.from(b.embedding.buffer).equals(Buffer.from(r.embedding.buffer))).toBe(true); // bit for bit, −0 included
    }
    await reader.close();
  });

  test('C21 upsert: same id twice → one memory, newest content; last occurrence wins within a call', async () => {
    const coll = await store.createCollection({ name: uniq('c21'), dim: 3, metric: 'cosine', index: { type: 'none' } });
    await coll.upsert([record('a', vec([1, 0, 0]), { text: 'old' }), record('b', vec([0, 1, 0]))]);
    await coll.upsert([record('a', vec([0, 0, 1]), { text: 'new', metadata: { v: 2 } })]);
    await coll.upsert([record('c', vec([1, 1, 0]), { text: 'first' }), record('c', vec([1, 1, 1]), { text: 'second' })]);
    expect(await coll.count()).toBe(3);
    const [a, c] = await coll.get(['a', 'c']);
    expect(a!.text).toBe('new');
    expect(a!.metadata).toEqual({ v: 2 });
    expect(Array.from(a!.embedding)).toEqual([0, 0, 1]);
    expect(c!.text).toBe('second');
    const hits = await coll.recall({ vector: vec([0, 0, 1]), k: 1, scan: 'exact' });
    expect(hits).toEqual([{ id: 'a', score: 1 }]);
  });

  test('C11 dimension guard: a bad record anywhere writes nothing and names id and index', async () => {
    const coll = await store.createCollection({ name: uniq('c11'), dim: 4, metric: 'cosine', index: { type: 'none' } });
    await coll.upsert([record('keep', vec([1, 2, 3, 4]))]);
    const batch = [record('n1', vec([1, 0, 0, 0])), record('bad', vec([1, 0, 0])), record('keep', vec([9, 9, 9, 9]))];
    await expect(coll.upsert(batch)).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH', message: expect.stringMatching(/"bad" \(index 1\).*3 components.*dimension is 4/) });
    for (const [bad, code] of [
      [vec([NaN, 0, 0, 0]), 'INVALID_VECTOR'],
      [vec([Infinity, 0, 0, 0]), 'INVALID_VECTOR'],
      [vec([0, 0, 0, 0]), 'INVALID_VECTOR'],
    ] as const) {
      expect(await codeOf(coll.upsert([record('n2', vec([1, 1, 1, 1])), record('x', bad)]))).toBe(code);
    }
    for (const over of [
      { id: '' },
      { kind: 'memo' as never },
      { createdAt: '2024-05-01T09:30:00Z' },
      { createdAt: '2024-02-30T00:00:00.000Z' },
      { text: 'nul\u0000' },
      { metadata: { nested: { x: Number.NaN } } as never },
      { metadata: { n: -0 } },
      { embedding: [1, 2, 3, 4] as never },
    ]) {
      expect(await codeOf(coll.upsert([record('n3', vec([1, 1, 1, 1]), over)]))).toBe('INVALID_INPUT');
    }
    expect(await coll.count()).toBe(1);
    expect(Array.from((await coll.get(['keep']))[0]!.embedding)).toEqual([1, 2, 3, 4]);
    await expect(coll.recall({ vector: vec([1, 0, 0]), k: 1 })).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
    await expect(coll.recall({ vector: vec([0, 0, 0, 0]), k: 1 })).rejects.toMatchObject({ code: 'INVALID_VECTOR' });
    await expect(coll.recall({ vector: vec([1, 0, 0, 0]), k: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test.each<[Metric, number, number, number]>([
    // metric, identical, orthogonal, opposite — canonical scores for unit vectors
    ['cosine', 1, 0, -1],
    ['ip', 1, 0, -1],
    ['l2', 0, -Math.SQRT2, -2],
  ])('C08 canonical score under %s: identical / orthogonal / opposite', async (metric, same, ortho, opposite) => {
    const coll = await store.createCollection({ name: uniq(`c08_${metric}`), dim: 3, metric, index: { type: 'none' } });
    await coll.upsert([record('same', vec([0, 1, 0])), record('ortho', vec([1, 0, 0])), record('opposite', vec([0, -1, 0]))]);
    for (const scan of ['exact', 'index'] as const) {
      const hits = await coll.recall({ vector: vec([0, 1, 0]), k: 3, scan });
      expect(hits.map((h) => h.id)).toEqual(['same', 'ortho', 'opposite']);
      expect(hits[0]!.score).toBeCloseTo(same, 6);
      expect(hits[1]!.score).toBeCloseTo(ortho, 6);
      expect(hits[2]!.score).toBeCloseTo(opposite, 6);
    }
    if (metric === 'cosine') {
      // scale invariance of cosine, and ip grows with the norm
      const hits = await coll.recall({ vector: vec([0, 5, 0]), k: 1 });
      expect(hits[0]!.score).toBeCloseTo(1, 6);
    }
  });

  test('C10 reopen from a NEW client keeps metric, dim, index config and model id (no default)', async () => {
    for (const metric of ['ip', 'l2', 'cosine'] as const) {
      const name = uniq(`c10_${metric}`);
      const index = { type: 'hnsw' as const, m: 8, efConstruction: 32, efSearch: 20 };
      const coll = await store.createCollection({ name, dim: 2, metric, index, embeddingModel: "model 'x' \\ v1" });
      await coll.upsert([record('a', vec([3, 4])), record('b', vec([-1, 0.5]))]);
      await coll.buildIndex();
      const other = await newStore();
      const reopened = await other.openCollection(name);
      expect(reopened.spec).toEqual({ name, dim: 2, metric, index, embeddingModel: "model 'x' \\ v1" });
      const [hit] = await reopened.recall({ vector: vec([3, 4]), k: 1 });
      const expected = { cosine: 1, ip: 25, l2: -0 }[metric];
      expect(hit!.id).toBe('a');
      expect(hit!.score).toBeCloseTo(expected, 5);
      await other.close();
    }
  });

  test('filters: metadata 0 vs false vs "" vs null vs missing (jsonb containment compares types), namespace, kind', async () => {
    const coll = await store.createCollection({ name: uniq('filt'), dim: 2, metric: 'l2', index: { type: 'none' } });
    await coll.upsert([
      record('zero', vec([0, 1]), { metadata: { f: 0 }, namespace: 'u1' }),
      record('false', vec([0, 2]), { metadata: { f: false }, namespace: 'u1', kind: 'preference' }),
      record('empty', vec([0, 3]), { metadata: { f: '' }, namespace: 'u2' }),
      record('null', vec([0, 4]), { metadata: { f: null }, namespace: 'u2', kind: 'episode' }),
      record('missing', vec([0, 5]), { metadata: {}, namespace: 'u3' }),
      record('float', vec([0, 6]), { metadata: { f: 0.0, g: 1 }, namespace: 'u3' }),
    ]);
    const ids = async (filter: object) => (await coll.recall({ vector: vec([0, 0]), k: 10, filter })).map((h) => h.id);
    expect(await ids({ metadata: { f: 0 } })).toEqual(['zero', 'float']);
    expect(await ids({ metadata: { f: false } })).toEqual(['false']);
    expect(await ids({ metadata: { f: '' } })).toEqual(['empty']);
    expect(await ids({ metadata: { f: null } })).toEqual(['null']);
    expect(await ids({ metadata: { f: 0, g: 1 } })).toEqual(['float']);
    expect(await ids({ metadata: {} })).toHaveLength(6);
    expect(await ids({ namespaces: ['u1', 'u3'] })).toEqual(['zero', 'false', 'missing', 'float']);
    expect(await ids({ namespaces: [] })).toEqual([]);
    expect(await ids({ kinds: ['preference', 'episode'] })).toEqual(['false', 'null']);
    expect(await ids({ namespaces: ['u1'], kinds: ['fact'], metadata: { f: 0 } })).toEqual(['zero']);
    expect(await coll.count({ metadata: { f: false } })).toBe(1);
    expect(await coll.count()).toBe(6);
  });

  test('C09 minScore keeps exactly the hits at or above it; C07 ties by id ascending', async () => {
    const coll = await store.createCollection({ name: uniq('thr'), dim: 2, metric: 'ip', index: { type: 'none' } });
    await coll.upsert([record('b', vec([1, 0])), record('a', vec([1, 0])), record('c', vec([0.5, 0])), record('d', vec([0.25, 0]))]);
    const all = await coll.recall({ vector: vec([1, 0]), k: 4 });
    expect(all).toEqual([
      { id: 'a', score: 1 },
      { id: 'b', score: 1 },
      { id: 'c', score: 0.5 },
      { id: 'd', score: 0.25 },
    ]);
    expect((await coll.recall({ vector: vec([1, 0]), k: 4, minScore: 0.5 })).map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(await coll.recall({ vector: vec([1, 0]), k: 1 })).toEqual([{ id: 'a', score: 1 }]);
  });

  test('delete counts existing rows; get leaves missing ids out', async () => {
    const coll = await store.createCollection({ name: uniq('del'), dim: 2, metric: 'l2', index: { type: 'none' } });
    await coll.upsert([record('a', vec([1, 0])), record('b', vec([0, 1]))]);
    expect(await coll.delete(['a', 'zz', 'a'])).toBe(1);
    expect((await coll.get(['a', 'b'])).map((r) => r.id)).toEqual(['b']);
    expect(await coll.delete([])).toBe(0);
  });

  test('only touches its own tables: create/open/drop refuse a foreign table; drop of a missing one is fine', async () => {
    const name = uniq('foreign');
    await db.query(`CREATE TABLE "mm_${name}" (id int)`);
    await expect(store.createCollection({ name, dim: 2, metric: 'l2', index: { type: 'none' } })).rejects.toMatchObject({ code: 'COLLECTION_EXISTS' });
    await expect(store.openCollection(name)).rejects.toMatchObject({ code: 'COLLECTION_MISSING', message: expect.stringMatching(/no memory-matrix marker/) });
    await expect(store.dropCollection(name)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect((await db.query(`SELECT to_regclass('"mm_${name}"') IS NOT NULL AS e`)).rows).toEqual([{ e: true }]);
    await store.dropCollection(uniq('never_created'));
    await expect(store.openCollection(uniq('never_created'))).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
    const mine = uniq('mine');
    await store.createCollection({ name: mine, dim: 2, metric: 'l2', index: { type: 'none' } });
    await expect(store.createCollection({ name: mine, dim: 2, metric: 'l2', index: { type: 'none' } })).rejects.toMatchObject({ code: 'COLLECTION_EXISTS' });
    await store.dropCollection(mine);
    await expect(store.openCollection(mine)).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
    await expect(store.createCollection({ name: 'Bad-Name', dim: 2, metric: 'l2', index: { type: 'none' } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(store.createCollection({ name: uniq('big'), dim: 2001, metric: 'l2', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 } })).rejects.toMatchObject({
      code: 'CAPABILITY_MISSING',
    });
  });

  test('backend errors are BACKEND_ERROR naming adapter and table, with the cause; closed store refuses', async () => {
    const name = uniq('err');
    const coll = await store.createCollection({ name, dim: 2, metric: 'l2', index: { type: 'none' } });
    await db.query(`ALTER TABLE "mm_${name}" ADD CONSTRAINT short_text CHECK (length(text) < 5)`);
    const err = await coll.upsert([record('a', vec([1, 0]), { text: 'too long' })]).catch((e) => e);
    expect(err).toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(new RegExp(`^pgvector: upsert .* on table mm_${name} failed: .*short_text.*SQLSTATE 23514`)) });
    expect(err.cause).toBeDefined();
    expect(await coll.count()).toBe(0);
    // 2,500 new rows = one binary COPY in one transaction; the bad row is near its end
    const many = Array.from({ length: 2500 }, (_, i) => record(`r${String(i).padStart(4, '0')}`, vec([1, i]), { text: i === 2400 ? 'too long' : 'ok' }));
    await expect(coll.upsert(many)).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(/upsert of 2500 records .*SQLSTATE 23514/) });
    expect(await coll.count()).toBe(0);
    // one of the ids exists: the same rows take the INSERT path (three chunks of ≤ 1,000), the bad row in the last one
    await coll.upsert([record('r0000', vec([1, 0]), { text: 'ok' })]);
    await expect(coll.upsert(many)).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(/upsert of 2500 records .*SQLSTATE 23514/) });
    expect(await coll.count()).toBe(1);
    await coll.delete(['r0000']);
    const s = await newStore();
    const c2 = await s.openCollection(name);
    await s.close();
    await s.close();
    await expect(c2.count()).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringMatching(/closed/) });
  });

  test('serverInfo reports the server and pgvector versions', async () => {
    const info = await store.serverInfo();
    expect(info.server).toMatch(/^PostgreSQL \d+\.\d+/);
    // exact versions are checked against matrix/targets.yaml by the embedded provider's tests
    expect(info.components.postgres).toMatch(/^\d+\.\d+$/);
    expect(info.components.pgvector).toMatch(/^\d+\.\d+\.\d+$/);
    expect(info.server).toContain(`PostgreSQL ${info.components.postgres}`);
  });
});
