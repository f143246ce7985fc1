import { spawnSync } from 'node:child_process';
import Database from 'libsql';
import { createLibsqlStore, libsqlPackageVersions, type LibsqlStore } from '../src';

/**
 * The probe of issue 33 step 10 (libsql alone, no adapter): the native prebuilt loads on this
 * machine, an F32_BLOB column stores bound Float32 blobs bit for bit, a DiskANN index
 * (`libsql_vector_idx`) answers `vector_top_k` and follows updates and deletes, the distance
 * functions are the documented ones. Then what the adapter does with them.
 */
const blob = (a: number[]): Buffer => Buffer.from(new Float32Array(a).buffer);

describe('libsql probe (the npm package alone)', () => {
  const db = new Database(':memory:');
  afterAll(() => db.close());

  test('the prebuilt loads and reports its SQLite; the installed package is the pinned one', () => {
    expect((db.prepare('SELECT sqlite_version() AS v').get([]) as { v: string }).v).toBe('3.45.1');
    expect(libsqlPackageVersions('probe')).toEqual({ libsql: '0.5.29' });
  });

  test('F32_BLOB(3) keeps bound float32 blobs bit for bit; distances are cosine distance and Euclidean', () => {
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, e F32_BLOB(3))');
    const vs: Record<string, number[]> = { a: [1, 0, 0], b: [0, 1, 0], c: [1, 1, 0], d: [0.1, 0.2, 0.3] };
    for (const [id, v] of Object.entries(vs)) db.prepare('INSERT INTO t (id, e) VALUES (?, ?)').run([id, blob(v)]);
    const back = db.prepare('SELECT e FROM t WHERE id = ?').get(['d']) as { e: Buffer };
    expect(Buffer.from(back.e).equals(blob(vs.d!))).toBe(true);
    const q = blob([1, 0.1, 0]);
    const cos = db.prepare('SELECT id, vector_distance_cos(e, ?) AS d FROM t ORDER BY d, id').all([q]) as Array<{ id: string; d: number }>;
    expect(cos.map((r) => r.id)).toEqual(['a', 'c', 'd', 'b']);
    expect(cos[0]!.d).toBeCloseTo(1 - 1 / Math.sqrt(1.01), 6);
    const l2 = db.prepare('SELECT vector_distance_l2(e, ?) AS d FROM t WHERE id = ?').get([q, 'a']) as { d: number };
    expect(l2.d).toBeCloseTo(0.1, 6); // Euclidean, not squared
    const zero = db.prepare('SELECT vector_distance_cos(?, ?) AS d').get([blob([0, 0, 0]), q]) as { d: number | null };
    expect(zero.d).toBeNull(); // a zero vector has no cosine distance
  });

  test('DiskANN index: vector_top_k returns rowids, follows a DELETE and a re-INSERT of the row; no inner-product metric', () => {
    db.exec("CREATE INDEX t_idx ON t (libsql_vector_idx(e, 'metric=cosine', 'max_neighbors=8', 'search_l=50', 'insert_l=20'))");
    const top = (): string[] =>
      (db.prepare("SELECT t.id AS id FROM vector_top_k('t_idx', ?, 2) AS v JOIN t ON t.rowid = v.id").all([blob([0, 1, 0.05])]) as Array<{ id: string }>).map((r) => r.id).sort();
    expect((db.prepare("SELECT * FROM vector_top_k('t_idx', ?, 2)").all([blob([1, 0, 0])]) as Array<Record<string, unknown>>)[0]).toEqual({ id: 1 });
    expect(top()).toEqual(['b', 'c']);
    db.prepare('DELETE FROM t WHERE id = ?').run(['a']);
    db.prepare('INSERT INTO t (id, e) VALUES (?, ?)').run(['a', blob([0, 1, 0.1])]);
    expect(top()).toEqual(['a', 'b']);
    expect(() => db.exec("CREATE INDEX t_ip ON t (libsql_vector_idx(e, 'metric=inner'))")).toThrow(/invalid vector index parameter 'metric=inner'/);
  });

  test('finding: after an UPDATE of the vector, vector_top_k intermittently misses the row (measured 13 of 40 fresh databases); DELETE + INSERT never did', () => {
    const misses = { update: 0, reinsert: 0 };
    for (let run = 0; run < 40; run++) {
      for (const mode of ['update', 'reinsert'] as const) {
        const d = new Database(':memory:');
        d.exec('CREATE TABLE t (rid INTEGER PRIMARY KEY, id TEXT UNIQUE, e F32_BLOB(3))');
        for (const [id, v] of Object.entries({ a: [1, 0, 0], b: [0, 1, 0], c: [1, 1, 0], d: [0.1, 0.2, 0.3] })) d.prepare('INSERT INTO t (id, e) VALUES (?, ?)').run([id, blob(v)]);
        d.exec("CREATE INDEX t_idx ON t (libsql_vector_idx(e, 'metric=cosine', 'max_neighbors=8', 'search_l=50', 'insert_l=20'))");
        if (mode === 'update') d.prepare('UPDATE t SET e = ? WHERE id = ?').run([blob([0, 1, 0.1]), 'a']);
        else {
          d.prepare('DELETE FROM t WHERE id = ?').run(['a']);
          d.prepare('INSERT INTO t (id, e) VALUES (?, ?)').run(['a', blob([0, 1, 0.1])]);
        }
        const got = (d.prepare("SELECT t.id AS id FROM vector_top_k('t_idx', ?, 2) AS v JOIN t ON t.rowid = v.id").all([blob([0, 1, 0.05])]) as Array<{ id: string }>).map((r) => r.id);
        if (!got.includes('a')) misses[mode]++;
        d.close();
      }
    }
    expect(misses.reinsert).toBe(0);
    expect(misses.update).toBeGreaterThan(0); // fails when a libsql release fixes it: then say so in the README
  });

  test('finding: after a DELETE of a neighbour, vector_top_k intermittently misses a re-inserted row (measured 34 of 40 fresh databases)', () => {
    let misses = 0;
    for (let run = 0; run < 40; run++) {
      const d = new Database(':memory:');
      d.exec('CREATE TABLE t (id TEXT PRIMARY KEY, e F32_BLOB(3))');
      for (const [id, v] of Object.entries({ a: [1, 0, 0], b: [0, 1, 0], c: [1, 1, 0], d: [0.1, 0.2, 0.3] })) d.prepare('INSERT INTO t (id, e) VALUES (?, ?)').run([id, blob(v)]);
      d.exec("CREATE INDEX t_idx ON t (libsql_vector_idx(e, 'metric=cosine', 'max_neighbors=8', 'search_l=50', 'insert_l=20'))");
      d.prepare('DELETE FROM t WHERE id = ?').run(['a']);
      d.prepare('INSERT INTO t (id, e) VALUES (?, ?)').run(['a', blob([0, 1, 0.1])]);
      d.prepare('DELETE FROM t WHERE id = ?').run(['b']);
      // 3 rows left, k = 2: the exact answer is a, c
      const got = (d.prepare("SELECT t.id AS id FROM vector_top_k('t_idx', ?, 2) AS v JOIN t ON t.rowid = v.id").all([blob([0, 1, 0.05])]) as Array<{ id: string }>).map((r) => r.id);
      if (!got.includes('a')) misses++;
      d.close();
    }
    expect(misses).toBeGreaterThan(0); // fails when a libsql release fixes it: then say so in the README
  });

  test('quirk: one Buffer bound positionally (stmt.all(buf)) aborts the process (libsql 0.5.29 takes a lone object as named parameters)', () => {
    const script = "const D=require('libsql');const db=new D(':memory:');db.prepare('SELECT length(?) AS n').all(Buffer.from([1,2,3,4]));console.log('survived')";
    const r = spawnSync(process.execPath, ['-e', script], { cwd: __dirname, encoding: 'utf8' });
    expect(r.stdout).not.toContain('survived');
    expect(r.signal).toBe('SIGABRT');
    expect(r.stderr).toContain('called `Option::unwrap()` on a `None` value');
  });
});

describe('libsql adapter on its own', () => {
  let store: LibsqlStore;
  beforeAll(async () => {
    store = await createLibsqlStore();
  });
  afterAll(() => store.close());

  const rec = (id: string, namespace: string, v: number[]) => ({ id, namespace, kind: 'fact' as const, text: id, createdAt: '2026-01-01T00:00:00.000Z', metadata: {}, embedding: new Float32Array(v) });

  test('a filtered ANN query post-filters vector_top_k: fewer than k hits while the exact path finds k', async () => {
    const c = await store.createCollection({ name: 'probe', dim: 2, metric: 'cosine', index: { type: 'diskann', maxNeighbors: 8 } });
    const recs = Array.from({ length: 200 }, (_, i) => rec(`m${String(i).padStart(3, '0')}`, i < 190 ? 'near' : 'far', i < 190 ? [1, i / 1000] : [-1, i / 1000]));
    await c.upsert(recs);
    await c.buildIndex();
    const q = { vector: new Float32Array([1, 0]), k: 5, filter: { namespaces: ['far'] } };
    const exact = await c.recall({ ...q, scan: 'exact' });
    const ann = await c.recall({ ...q, scan: 'index' });
    expect(exact.map((h) => h.id)).toEqual(['m199', 'm198', 'm197', 'm196', 'm195']);
    expect(ann.length).toBeLessThan(5); // vector_top_k fetched k + 16 = 21 nearest overall, all in 'near'
    expect((await c.recall({ vector: new Float32Array([1, 0]), k: 3, scan: 'index' })).map((h) => h.id)).toEqual(['m000', 'm001', 'm002']);
  });

  test('refuses what it lacks: ip (CAPABILITY_MISSING), hnsw (CAPABILITY_MISSING), a bad diskann parameter (INVALID_INPUT)', async () => {
    await expect(store.createCollection({ name: 'ip', dim: 2, metric: 'ip', index: { type: 'none' } })).rejects.toMatchObject({ code: 'CAPABILITY_MISSING' });
    await expect(store.createCollection({ name: 'h', dim: 2, metric: 'cosine', index: { type: 'hnsw', m: 16, efConstruction: 64, efSearch: 40 } })).rejects.toMatchObject({
      code: 'CAPABILITY_MISSING',
    });
    await expect(store.createCollection({ name: 'b', dim: 2, metric: 'cosine', index: { type: 'diskann', searchL: 0 } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
