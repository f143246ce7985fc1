import { compareHits, ExactOracle, type MemoryRecord, type RecallHit } from '../src';
import { cutByTieWall, SELF_RECALL_K } from '../src/checks/c02-self-recall';
import { indexPlacementProblem, placementOf, placementProblem, reachK } from '../src/checks/helpers/placement';

/**
 * The C02 tie wall (issue 17 item 3): a memory cut by k from a rank-1 tie group wider than k is not
 * a self-recall miss when the whole top-k is that group — C03's tie-group rule, reused. Duplicate
 * clusters of k−1, k, k+1 and 2k members of one embedding, plus scattered other memories.
 */
const K = SELF_RECALL_K;
const EPS = 1e-5;
const DIM = 4;

function dataset(cluster: number): MemoryRecord[] {
  const rec = (id: string, v: number[]): MemoryRecord => ({ id, namespace: 'n', kind: 'fact', text: id, createdAt: '2024-01-01T00:00:00.000Z', metadata: {}, embedding: Float32Array.from(v) });
  const dup = Array.from({ length: cluster }, (_, i) => rec(`dup-${String(i).padStart(2, '0')}`, [1, 2, 3, 4]));
  const other = Array.from({ length: 30 }, (_, i) => rec(`other-${String(i).padStart(2, '0')}`, [1 + i, -2, 0.5 * i, 4 - i]));
  return [...dup, ...other];
}

function oracle(recs: MemoryRecord[]): ExactOracle {
  const vectors = new Float32Array(recs.length * DIM);
  recs.forEach((r, i) => vectors.set(r.embedding, i * DIM));
  return new ExactOracle({
    ids: recs.map((r) => r.id),
    namespaces: recs.map((r) => r.namespace),
    kinds: recs.map((r) => r.kind),
    metadata: recs.map((r) => r.metadata),
    vectors,
    dim: DIM,
    metric: 'cosine',
  });
}

/** A correct backend: the oracle's top-k (ties by id ascending). */
const backend = (o: ExactOracle, v: Float32Array): RecallHit[] => o.topK({ vector: v, k: K }, 0).hits.slice(0, K);

describe.each([K - 1, K, K + 1, 2 * K])('a duplicate cluster of %i members, k = 10', (cluster) => {
  const recs = dataset(cluster);
  const o = oracle(recs);
  const dups = recs.filter((r) => r.id.startsWith('dup-'));

  test('every member passes C02 (in the rank-1 group, or cut by the tie wall) and the answer passes C03', () => {
    for (const r of dups) {
      const hits = backend(o, r.embedding);
      const expected = o.topK({ vector: r.embedding, k: K }, EPS);
      const inGroup = hits.some((h) => h.id === r.id);
      expect(inGroup || cutByTieWall(expected, hits, r.id, K, EPS)).toBe(true);
      expect(inGroup).toBe(cluster <= K || r.id < `dup-${String(K).padStart(2, '0')}`);
      const c = compareHits(expected, hits, { dataset: 'd', target: 't', queryId: r.id }, { k: K, mode: 'exact', tieEpsilon: EPS, scoreTolerance: 1e-5 });
      expect(c.failures).toEqual([]);
    }
  });

  test('C02 now: the exact path asks k reaching the whole group and every member passes; the index path (k 10) accepts the cut', () => {
    for (const r of dups) {
      const p = placementOf(o, r.id, r.embedding, EPS);
      expect([p.start, p.end]).toEqual([0, cluster]);
      const k = reachK(p, K);
      expect(k).toBe(Math.max(K, cluster));
      expect(placementProblem(o.topK({ vector: r.embedding, k }, EPS), p, o.topK({ vector: r.embedding, k }, 0).hits.slice(0, k), k, EPS)).toBeNull();
      expect(indexPlacementProblem(o.topK({ vector: r.embedding, k: K }, EPS), p, backend(o, r.embedding), K, EPS)).toBeNull();
    }
  });

  test('a member dropped for a stranger is still a miss (the top-k is not the tie group)', () => {
    const r = dups[dups.length - 1]!;
    const expected = o.topK({ vector: r.embedding, k: K }, EPS);
    const good = backend(o, r.embedding);
    const stranger = expected.hits.find((h) => !h.id.startsWith('dup-')) ?? { id: 'other-29', score: 0 };
    const bad = [...good.filter((h) => h.id !== r.id).slice(0, K - 1), stranger];
    expect(bad.some((h) => h.id === r.id)).toBe(false);
    expect(cutByTieWall(expected, bad, r.id, K, EPS)).toBe(false);
    expect(indexPlacementProblem(expected, placementOf(o, r.id, r.embedding, EPS), bad, K, EPS)).not.toBeNull();
  });

  test('a short answer (k − 1 hits) is never a tie-wall cut', () => {
    const r = dups[dups.length - 1]!;
    const hits = backend(o, r.embedding)
      .filter((h) => h.id !== r.id)
      .slice(0, K - 1);
    expect(cutByTieWall(o.topK({ vector: r.embedding, k: K }, EPS), hits, r.id, K, EPS)).toBe(false);
  });
});

test('a memory outside the rank-1 group (not a duplicate) is never a tie-wall cut', () => {
  const recs = dataset(2 * K);
  const o = oracle(recs);
  const r = recs.find((x) => x.id === 'other-05')!;
  const expected = o.topK({ vector: r.embedding, k: K }, EPS);
  const hits = o.topK({ vector: recs[0]!.embedding, k: K }, 0).hits.slice(0, K); // the dup wall, as if the backend answered another query
  expect(cutByTieWall(expected, hits, r.id, K, EPS)).toBe(false);
});
