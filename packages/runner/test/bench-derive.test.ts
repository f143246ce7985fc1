/** The bench's pure parts: the deterministic derivation of scale memories, streaming top-k = the in-memory oracle on 10 k, and --scale parsing. No backend. */
import { ExactOracle, loadGoldenDataset } from '@memory-matrix/spec';
import { deriveChunk, derivedId, derivation } from '../src/bench/derive';
import { StreamingTopK } from '../src/bench/stream-topk';
import { parseScale, growthExponent, formatPoint, DEFAULT_SCALE } from '../src/bench/scale';
import type { ScalePoint } from '../src/bench/scale-point';
import { median } from '../src/bench/measure';
import { datasetDir } from '../src/run';

const ds = loadGoldenDataset(datasetDir('agent-memories'));
const dim = ds.manifest.dim;

describe('scale derivation', () => {
  test('is deterministic and chunk-independent: rows [0, 3000) equal [0, 1000) + [1000, 3000), twice', () => {
    const whole = deriveChunk(ds, 0, 3000).vectors;
    const parts = [deriveChunk(ds, 0, 1000, false).vectors, deriveChunk(ds, 1000, 3000, false).vectors];
    expect(Buffer.from(whole.buffer).equals(Buffer.concat(parts.map((p) => Buffer.from(p.buffer))))).toBe(true);
    expect(Buffer.from(deriveChunk(ds, 0, 3000).vectors.buffer).equals(Buffer.from(whole.buffer))).toBe(true);
  });

  test('rows are unit vectors mixing golden row i mod n with another row, ids in row order', () => {
    const n = ds.memories.length;
    const { vectors, records } = deriveChunk(ds, n - 2, n + 2);
    records.forEach((r, k) => {
      const i = n - 2 + k;
      const { a, j, w } = derivation(i, n);
      expect(a).toBe(i % n);
      expect(j).not.toBe(a);
      expect(w).toBeGreaterThanOrEqual(0.1);
      expect(w).toBeLessThan(0.5);
      expect(r.id).toBe(derivedId(i));
      expect(r.namespace).toBe(ds.memories[a]!.namespace);
      const v = vectors.subarray(k * dim, (k + 1) * dim);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    });
    expect(derivedId(9) < derivedId(10)).toBe(true);
  });

  test('a range outside [0, 10 M] is INVALID_INPUT', () => {
    expect(() => deriveChunk(ds, 5, 2)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('streaming top-k', () => {
  test('equals the in-memory ExactOracle (first k hits, tieEpsilon 0) on 10 k derived rows, fed in chunks of 1,500', () => {
    const N = 10_000;
    const { vectors, records } = deriveChunk(ds, 0, N);
    const oracle = new ExactOracle({
      ids: records.map((r) => r.id),
      namespaces: records.map((r) => r.namespace),
      kinds: records.map((r) => r.kind),
      metadata: records.map((r) => r.metadata),
      vectors,
      dim,
      metric: 'cosine',
    });
    const queries = ds.queries.filter((q) => !q.filter && q.minScore === undefined).slice(0, 25);
    const k = 10;
    const st = new StreamingTopK(
      queries.map((q) => q.vector),
      k,
      dim,
    );
    for (let s = 0; s < N; s += 1500) st.add(deriveChunk(ds, s, Math.min(N, s + 1500), false).vectors, (r) => derivedId(s + r));
    const got = st.results();
    queries.forEach((q, qi) => expect(got[qi]).toEqual(oracle.topK({ vector: q.vector, k }, 0).hits.slice(0, k)));
  });

  test('ties at the cut are broken by id ascending, like the oracle', () => {
    const v = new Float32Array([1, 0, 1, 0, 1, 0, 0, 1]);
    const st = new StreamingTopK([new Float32Array([1, 0])], 2, 2);
    st.add(v, (r) => ['c', 'a', 'b', 'd'][r]!);
    expect(st.results()[0]!.map((h) => h.id)).toEqual(['a', 'b']);
  });
});

describe('bench helpers', () => {
  test('--scale: sizes with k / m, none, sorted without repeats; a bad item is USAGE naming it', () => {
    expect(parseScale('1m,10k,100k,10k')).toEqual([10_000, 100_000, 1_000_000]);
    expect(parseScale('none')).toEqual([]);
    expect(parseScale(undefined)).toEqual(DEFAULT_SCALE);
    expect(DEFAULT_SCALE).toEqual([10_000, 100_000, 1_000_000]);
    expect(parseScale('250000')).toEqual([250_000]);
    expect(() => parseScale('10k,big')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('"big"') }));
  });

  test('median and growth exponent', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(growthExponent(10, 1, 100, 10)).toBeCloseTo(1);
    expect(growthExponent(10, 1, 100, 100)).toBeCloseTo(2);
  });

  test('peak RSS goal: judged where the Node baseline alone is within 2× the raw vectors, met or MISSED there', () => {
    // Figures of this machine's `pnpm bench` (kB): Node baseline 222.6 MB; 10 k, 100 k and a made-up 1 M at 4× the raw bytes.
    const point = (n: number, peakRssKb: number): ScalePoint => ({
      n,
      dim: 384,
      index: { type: 'ivfflat', lists: 100, probes: 10 },
      loadMs: 1,
      indexMs: 1,
      exactQueriesMs: 1,
      indexQueriesMs: 1,
      oracleMs: 1,
      compareMs: 1,
      queries: 20,
      k: 10,
      exactAgree: 20,
      maxAbsDelta: 0,
      indexRecall: 1,
      baselineRssKb: 217_383,
      peakRssKb,
      rawVectorBytes: n * 384 * 4,
    });
    const small = formatPoint(point(10_000, 217_383));
    expect(small.met).toBe(true);
    expect(small.lines.at(-1)).toContain('= 14.49× (goal ≤ 2×: not judged: the Node baseline alone is over 2× these raw vectors)');
    const mid = formatPoint(point(100_000, 259_082));
    expect(mid).toEqual(expect.objectContaining({ met: true }));
    expect(mid.lines.at(-1)).toContain('= 1.73× (goal ≤ 2×: met)');
    const big = formatPoint(point(1_000_000, 6_000_000));
    expect(big.met).toBe(false);
    expect(big.lines.at(-1)).toContain('(goal ≤ 2×: MISSED)');
  });
});
