import type { MemoryRecord, Metric, RecallHit } from '../src';
import { indexPlacementProblem, oracleOver, placementOf, placementProblem, probeKs, reachK } from '../src/checks/helpers/placement';
import { SELF_RECALL_K } from '../src/checks/c02-self-recall';

/**
 * Issue 31 kinds 1 and 3: no check assumes a memory is its own nearest neighbour, and ranked ids
 * are compared by the tie-group rule. A tiny dataset of every kind: inner product on directions
 * shared by memories of norms 0.2, 1 and 5; near-duplicate clusters (exact copies and copies one
 * float32 ulp apart, wider than k); scattered memories. A "correct backend" ranks by scores
 * computed in float32 (as sqlite-vec does), ties by id; defects are a swap of ranks 1 and 2, a lost
 * memory and the wrong metric.
 */
const K = SELF_RECALL_K;
const EPS = 1e-5;
const DIM = 6;

function rec(id: string, v: number[]): MemoryRecord {
  return { id, namespace: 'n', kind: 'fact', text: id, createdAt: '2024-01-01T00:00:00.000Z', metadata: {}, embedding: Float32Array.from(v) };
}

/** Memories: 5 directions × norms {0.2, 1, 5}, a cluster of 14 near-duplicates, 20 scattered. */
function dataset(): MemoryRecord[] {
  const out: MemoryRecord[] = [];
  for (let d = 0; d < 5; d++) {
    const dir = Array.from({ length: DIM }, (_, j) => Math.cos(1.3 * d + 0.7 * j));
    const n = Math.hypot(...dir);
    for (const [tag, norm] of [
      ['short', 0.2],
      ['unit', 1],
      ['long', 5],
    ] as const)
      out.push(
        rec(
          `d${d}-${tag}`,
          dir.map((x) => (x / n) * norm),
        ),
      );
  }
  const base = Float32Array.from([0.3, -0.2, 0.5, 0.1, 0.4, -0.6]);
  for (let i = 0; i < 14; i++) {
    const v = Float32Array.from(base);
    if (i % 2) v[i % DIM] = nextUp(v[i % DIM]!); // one ulp off: a re-embedding of the same fact
    out.push({ ...rec(`dup-${String(i).padStart(2, '0')}`, []), embedding: v });
  }
  for (let i = 0; i < 20; i++)
    out.push(
      rec(
        `x-${String(i).padStart(2, '0')}`,
        Array.from({ length: DIM }, (_, j) => Math.sin(3.1 * i + 1.7 * j) * (0.5 + (i % 4))),
      ),
    );
  return out;
}

function nextUp(x: number): number {
  const b = new Float32Array([x]);
  const u = new Uint32Array(b.buffer);
  u[0] = x >= 0 ? u[0]! + 1 : u[0]! - 1;
  return b[0]!;
}

/** A backend computing canonical scores in float32 (fround after every operation), ties by id. */
function backend(recs: MemoryRecord[], metric: Metric, q: Float32Array, k: number): RecallHit[] {
  const f = Math.fround;
  const scored = recs.map((r) => {
    let dot = 0;
    let l2 = 0;
    let na = 0;
    let nb = 0;
    for (let j = 0; j < DIM; j++) {
      dot = f(dot + f(r.embedding[j]! * q[j]!));
      const d = f(r.embedding[j]! - q[j]!);
      l2 = f(l2 + f(d * d));
      na = f(na + f(r.embedding[j]! * r.embedding[j]!));
      nb = f(nb + f(q[j]! * q[j]!));
    }
    const score = metric === 'ip' ? dot : metric === 'l2' ? -f(Math.sqrt(l2)) : f(dot / f(Math.sqrt(f(na * nb))));
    return { id: r.id, score };
  });
  return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, k);
}

const recs = dataset();

describe.each(['ip', 'cosine', 'l2'] as const)('metric %s', (metric) => {
  const oracle = oracleOver(recs, DIM, metric);

  test('a correct float32 backend passes every memory on the exact and the index rule', () => {
    for (const r of recs) {
      const p = placementOf(oracle, r.id, r.embedding, EPS);
      const k = reachK(p, K);
      expect(placementProblem(oracle.topK({ vector: r.embedding, k }, EPS), p, backend(recs, metric, r.embedding, k), k, EPS)).toBeNull();
      expect(indexPlacementProblem(oracle.topK({ vector: r.embedding, k: K }, EPS), p, backend(recs, metric, r.embedding, K), K, EPS)).toBeNull();
    }
  });

  test('swapping ranks 1 and 2 fails every memory whose top two the oracle does not tie', () => {
    let checked = 0;
    for (const r of recs) {
      const p = placementOf(oracle, r.id, r.embedding, EPS);
      const k = reachK(p, K);
      const expected = oracle.topK({ vector: r.embedding, k }, EPS);
      if (Math.abs(expected.hits[0]!.score - expected.hits[1]!.score) <= EPS) continue;
      const good = backend(recs, metric, r.embedding, k);
      const bad = [good[1]!, good[0]!, ...good.slice(2)];
      expect(placementProblem(expected, p, bad, k, EPS)).toMatch(/^(rank 1 is|\S+ is at rank)/);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  test('a lost memory fails its own self-query on the exact rule', () => {
    for (const r of recs) {
      const p = placementOf(oracle, r.id, r.embedding, EPS);
      const k = reachK(p, K);
      const lost = backend(
        recs.filter((x) => x.id !== r.id),
        metric,
        r.embedding,
        k,
      );
      expect(placementProblem(oracle.topK({ vector: r.embedding, k }, EPS), p, lost, k, EPS)).toMatch(/is not returned/);
    }
  });
});

describe('inner product on non-unit vectors', () => {
  const oracle = oracleOver(recs, DIM, 'ip');

  test('the old assumption (every memory in its own rank-1 group) fails a correct backend', () => {
    const notFirst = recs.filter((r) => {
      const hits = backend(recs, 'ip', r.embedding, K);
      return !hits.filter((h) => Math.abs(h.score - hits[0]!.score) <= EPS).some((h) => h.id === r.id);
    });
    expect(notFirst.map((r) => r.id)).toEqual(expect.arrayContaining(['d0-short', 'd0-unit', 'd1-short']));
  });

  test('a short memory is placed below the long one of its direction, and k reaches it', () => {
    const p = placementOf(oracle, 'd0-short', recs.find((r) => r.id === 'd0-short')!.embedding, EPS);
    expect(p.start).toBeGreaterThan(0);
    expect(reachK(p, K)).toBe(Math.max(K, p.end));
  });

  test('an l2 or cosine backend on an ip dataset is caught (the wrong metric)', () => {
    for (const wrong of ['l2', 'cosine'] as const) {
      const failed = recs.filter((r) => {
        const p = placementOf(oracle, r.id, r.embedding, EPS);
        const k = reachK(p, K);
        return placementProblem(oracle.topK({ vector: r.embedding, k }, EPS), p, backend(recs, wrong, r.embedding, k), k, EPS) !== null;
      });
      expect(failed.length).toBeGreaterThan(5);
    }
  });
});

describe('near-duplicate cluster of 14 (wider than k = 10)', () => {
  const oracle = oracleOver(recs, DIM, 'cosine');
  const dups = recs.filter((r) => r.id.startsWith('dup-'));

  test('one tie group spans ranks 1–14 for every member; exact k reaches it; the index rule accepts a cut by k', () => {
    for (const r of dups) {
      const p = placementOf(oracle, r.id, r.embedding, EPS);
      expect([p.start, p.end]).toEqual([0, 14]);
      expect(reachK(p, K)).toBe(14);
    }
    const last = dups[dups.length - 1]!;
    const p = placementOf(oracle, last.id, last.embedding, EPS);
    const hits = backend(recs, 'cosine', last.embedding, K);
    expect(hits.some((h) => h.id === last.id)).toBe(false); // cut by k = 10 (ids after dup-09)
    expect(indexPlacementProblem(oracle.topK({ vector: last.embedding, k: K }, EPS), p, hits, K, EPS)).toBeNull();
    const stranger = [...hits.slice(0, K - 1), { id: 'x-00', score: 0 }];
    expect(indexPlacementProblem(oracle.topK({ vector: last.embedding, k: K }, EPS), p, stranger, K, EPS)).toMatch(/not in the top 10/);
  });

  test('a member returned twice fails', () => {
    const r = dups[0]!;
    const p = placementOf(oracle, r.id, r.embedding, EPS);
    const hits = backend(recs, 'cosine', r.embedding, 14);
    const twice = [hits[0]!, hits[0]!, ...hits.slice(1, 13)];
    expect(placementProblem(oracle.topK({ vector: r.embedding, k: 14 }, EPS), p, twice, 14, EPS)).toMatch(/returned 2 times/);
  });
});

test('probeKs: k reaches a short probe ranked below the rows held', () => {
  const held = recs.filter((r) => r.id !== 'd2-short');
  const probe = recs.find((r) => r.id === 'd2-short')!;
  const [k] = probeKs(held, [probe], DIM, 'ip', EPS, K);
  expect(backend(recs, 'ip', probe.embedding, k!).some((h) => h.id === probe.id)).toBe(true);
  expect(probeKs(held, [], DIM, 'ip', EPS, K)).toEqual([]);
});

test('placementOf throws INVALID_INPUT for an id that is not a row', () => {
  const oracle = oracleOver(recs, DIM, 'ip');
  expect(() => placementOf(oracle, 'nope', recs[0]!.embedding, EPS)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
});

test('a NaN score of the memory itself fails both rules with one plain sentence', () => {
  const oracle = oracleOver(recs, DIM, 'cosine');
  const r = recs.find((x) => x.id === 'x-03')!;
  const p = placementOf(oracle, r.id, r.embedding, EPS);
  const hits = backend(recs, 'cosine', r.embedding, K).map((h) => (h.id === r.id ? { ...h, score: Number.NaN } : h));
  const exp = oracle.topK({ vector: r.embedding, k: K }, EPS);
  expect(placementProblem(exp, p, hits, K, EPS)).toMatch(/^x-03 is returned at rank 1 with the non-finite score NaN; the oracle scores it 1(\.\d+)? at rank 1$/);
  expect(indexPlacementProblem(exp, p, hits, K, EPS)).toMatch(/non-finite score NaN/);
});
