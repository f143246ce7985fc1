import { compareHits, ExactOracle, type MemoryRecord } from '@memory-matrix/spec';
import { cutByTieWall, SELF_RECALL_K } from '@memory-matrix/spec/src/checks/c02-self-recall';
import { sqliteEmbeddedEngine, type SqliteEngine } from '../src';

/**
 * C02's tie wall on the real SQLite + sqlite-vec store: duplicate clusters of k−1, k, k+1 and 2k
 * memories of one embedding among scattered others; every cluster member queried with its own
 * embedding passes C02's rule (in the rank-1 group, or cut by k from a wider tie group filling the
 * whole top-k) and each answer passes C03's exact comparison. Also `get` in a shuffled order with
 * repeats and unknown ids (the contract: order asked, each id once, unknown left out).
 */
const K = SELF_RECALL_K;
const EPS = 1e-5;
const DIM = 4;
const rec = (id: string, v: number[]): MemoryRecord => ({ id, namespace: 'n', kind: 'fact', text: id, createdAt: '2024-01-01T00:00:00.000Z', metadata: {}, embedding: Float32Array.from(v) });

let engine: SqliteEngine;
beforeAll(async () => {
  engine = await sqliteEmbeddedEngine();
});
afterAll(async () => engine.stop());

test.each([K - 1, K, K + 1, 2 * K])('a cluster of %i duplicates, k = 10: every member passes C02 and C03', async (cluster) => {
  const recs = [
    ...Array.from({ length: cluster }, (_, i) => rec(`dup-${String(i).padStart(2, '0')}`, [1, 2, 3, 4])),
    ...Array.from({ length: 30 }, (_, i) => rec(`other-${String(i).padStart(2, '0')}`, [1 + i, -2, 0.5 * i, 4 - i])),
  ];
  const store = await engine.connect();
  try {
    const c = await store.createCollection({ name: `wall${cluster}`, dim: DIM, metric: 'cosine', index: { type: 'none' } });
    await c.upsert(recs);
    const vectors = new Float32Array(recs.length * DIM);
    recs.forEach((r, i) => vectors.set(r.embedding, i * DIM));
    const oracle = new ExactOracle({
      ids: recs.map((r) => r.id),
      namespaces: recs.map((r) => r.namespace),
      kinds: recs.map((r) => r.kind),
      metadata: recs.map((r) => r.metadata),
      vectors,
      dim: DIM,
      metric: 'cosine',
    });
    let cut = 0;
    for (const r of recs.slice(0, cluster)) {
      const hits = await c.recall({ vector: r.embedding, k: K, scan: 'exact' });
      const expected = oracle.topK({ vector: r.embedding, k: K }, EPS);
      const top = hits[0]!.score;
      const inGroup = hits.some((h) => h.id === r.id && Math.abs(h.score - top) <= EPS);
      if (!inGroup) {
        expect(cutByTieWall(expected, hits, r.id, K, EPS)).toBe(true);
        cut++;
      }
      expect(compareHits(expected, hits, { dataset: 'wall', target: 'sqlite', queryId: r.id }, { k: K, mode: 'exact', tieEpsilon: EPS, scoreTolerance: 1e-5 }).failures).toEqual([]);
    }
    expect(cut).toBe(Math.max(0, cluster - K));
  } finally {
    await store.close();
  }
});

test('get in a shuffled order with repeats and unknown ids: order asked, each id once, unknown left out', async () => {
  const store = await engine.connect();
  try {
    const c = await store.createCollection({ name: 'getorder', dim: DIM, metric: 'cosine', index: { type: 'none' } });
    await c.upsert(['a', 'b', 'c', 'd'].map((id, i) => rec(id, [1, i, 0, 1])));
    expect((await c.get(['c', 'x', 'a', 'c', 'd', 'a', 'y', 'b'])).map((r) => r.id)).toEqual(['c', 'a', 'd', 'b']);
  } finally {
    await store.close();
  }
});
