import { referenceScore, type MemoryRecord } from '../src';
import { at, decayedReference, HALF_LIFE_MS, predictedFlips, scenarioQueries, scenarioRecords, scenarioVectors } from '../src/checks/c24-scenario';
import { isolationUsers } from '../src/checks/c25-isolation';
import { requireMemories, sampleRecords } from '../src/checks/helpers/sampling';

const mem = (i: number, namespace = `user-${i % 3}`): MemoryRecord => ({
  id: `m-${String(i).padStart(3, '0')}`,
  namespace,
  text: `memory ${i}`,
  kind: 'fact',
  createdAt: '2024-01-01T00:00:00.000Z',
  metadata: {},
  embedding: Float32Array.from([1, i]),
});

const flips_exact = (recs: MemoryRecord[], q: Float32Array) => predictedFlips(recs, q).map((f) => f.atMs);

describe('C24 scenario in low dimensions (scenarioVectors)', () => {
  test.each([2, 3, 4, 5, 8, 16, 17, 32, 116, 117, 128, 384])('dim %i: no zero vector; flips at 300, 500, 600 ms (±1e-4); reference order brackets them', (dim) => {
    const recs = scenarioRecords(dim);
    const qs = scenarioQueries(dim);
    for (const v of [...recs.map((r) => r.embedding), ...qs.map((q) => q.vector)]) {
      expect(v).toHaveLength(dim);
      expect(v.some((x) => x !== 0)).toBe(true);
    }
    const [q1, q2] = qs as [(typeof qs)[0], (typeof qs)[0]];
    const sims = recs.map((r) => referenceScore('cosine', q1.vector, r.embedding));
    expect(sims[0]).toBeCloseTo(1, 7);
    expect(sims[1]).toBeCloseTo(0.5, 7);
    expect(sims[2]).toBeCloseTo(0.25, 7);
    expect(sims[3]).toBeLessThanOrEqual(0);
    if (scenarioVectors(dim).construction !== 'plane') {
      expect(sims.slice(0, 3)).toEqual([1, 0.5, 0.25]); // exact
      expect(flips_exact(recs, q1.vector)).toEqual([300, 500, 600]);
      // int8-exact: every non-zero component of a vector has the same magnitude
      for (const v of [...recs.map((r) => r.embedding), q1.vector, q2.vector]) expect(new Set([...v].filter((x) => x !== 0).map(Math.abs)).size).toBe(1);
    }
    const flips = predictedFlips(recs, q1.vector);
    expect(flips.map((f) => [f.older, f.newer])).toEqual([
      ['c24-a', 'c24-b'],
      ['c24-a', 'c24-c'],
      ['c24-b', 'c24-c'],
    ]);
    flips.forEach((f, i) => expect(Math.abs(f.atMs - [300, 500, 600][i]!)).toBeLessThan(1e-4));
    const order = (ms: number) =>
      decayedReference(recs, q1.vector, 3, at(ms), { fn: 'hyperbolic', halfLifeMs: HALF_LIFE_MS }, 0)
        .hits.slice(0, 3)
        .map((h) => h.id);
    for (const f of flips) {
      const before = order(f.atMs - 1);
      const after = order(f.atMs + 1);
      expect(before.indexOf(f.newer)).toBeLessThan(before.indexOf(f.older));
      expect(after.indexOf(f.older)).toBeLessThan(after.indexOf(f.newer));
    }
    // The second query sees the sub-millisecond pair first (similarity 1), newer first.
    const sub = decayedReference(recs, q2.vector, 2, at(1000), { fn: 'hyperbolic', halfLifeMs: HALF_LIFE_MS }, 0)
      .hits.slice(0, 2)
      .map((h) => h.id);
    expect(sub).toEqual(['c24-sub-2', 'c24-sub-1']);
  });

  test('dim ≥ 117 keeps the original layout (e0 sums and e100), byte for byte', () => {
    const v = scenarioVectors(384);
    expect(v.construction).toBe('basis-sum');
    expect([...v.sub].indexOf(1)).toBe(100);
    expect([...v.sim[0.25]].filter((x) => x === 1)).toHaveLength(16);
    expect(scenarioVectors(32).sub.indexOf(1)).toBe(16);
    expect(scenarioVectors(16).construction).toBe('signed');
    expect(scenarioVectors(5).construction).toBe('signed');
    expect(scenarioVectors(4).construction).toBe('plane');
  });

  test('dim 1 is INVALID_INPUT, not a zero vector', () => {
    expect(() => scenarioVectors(1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/C24: dimension 1/) }));
  });
});

describe('sampling on small datasets', () => {
  test('sampleRecords returns min(n, length) distinct records (no duplicates when n exceeds the dataset)', () => {
    const recs = Array.from({ length: 10 }, (_, i) => mem(i));
    for (const n of [3, 10, 20, 60]) {
      const s = sampleRecords(recs, n);
      expect(s).toHaveLength(Math.min(n, 10));
      expect(new Set(s.map((r) => r.id)).size).toBe(s.length);
    }
    expect(sampleRecords(recs, 30, (r) => r.id === 'm-009')).toHaveLength(10);
  });

  test('requireMemories names the check, dataset, size and need', () => {
    expect(() => requireMemories('C21', 'tiny', 1, 2, 'a stored memory and a donor')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: 'C21: dataset tiny has 1 memories; a stored memory and a donor needs at least 2' }),
    );
    expect(() => requireMemories('C21', 'tiny', 2, 2, 'x')).not.toThrow();
  });

  test('isolationUsers: golden layout, two largest namespaces, relabelled split, refusal', () => {
    const big = [...Array.from({ length: 25 }, (_, i) => mem(i, 'user-b')), ...Array.from({ length: 25 }, (_, i) => mem(100 + i, 'user-a'))];
    expect(isolationUsers('d', big)).toMatchObject({ nsA: 'user-a', nsB: 'user-b', note: null });
    const small = Array.from({ length: 9 }, (_, i) => mem(i));
    const u = isolationUsers('d', small);
    expect([u.nsA, u.nsB, u.A.length, u.B.length]).toEqual(['user-0', 'user-1', 3, 3]);
    const one = Array.from({ length: 5 }, (_, i) => mem(i, 'only'));
    const s = isolationUsers('d', one);
    expect([s.nsA, s.nsB, s.A.length, s.B.length]).toEqual(['c25-user-a', 'c25-user-b', 2, 3]);
    expect(s.A.every((r) => r.namespace === 'c25-user-a') && s.B.every((r) => r.namespace === 'c25-user-b')).toBe(true);
    expect(new Set([...s.A, ...s.B].map((r) => r.id)).size).toBe(5);
    expect(() => isolationUsers('tiny', one.slice(0, 3))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/C25: dataset tiny has 3 memories; .* at least 4/) }),
    );
  });
});
