/** The bench's pure parts: the deterministic derivation of scale memories, streaming top-k = the in-memory oracle on 10 k, and --scale parsing. No backend. */
import { ExactOracle, loadGoldenDataset } from '@memory-matrix/spec';
import { deriveChunk, derivedId, derivation } from '../src/bench/derive';
import { StreamingTopK } from '../src/bench/stream-topk';
import { parseScale, growthExponent } from '../src/bench/scale';
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
    expect(parseScale('250000')).toEqual([250_000]);
    expect(() => parseScale('10k,big')).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('"big"') }));
  });

  test('median and growth exponent', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(growthExponent(10, 1, 100, 10)).toBeCloseTo(1);
    expect(growthExponent(10, 1, 100, 100)).toBeCloseTo(2);
  });
});
