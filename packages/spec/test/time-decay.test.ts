import { isCanonicalInstant, rerankWithDecay, validateDecay, type DecayCandidate } from '../src';
import { decayFactor, hyperbolicFlipMs } from '../src/decay';
import { addMs, diffMs, formatInstant, parseInstant } from '../src/time';
import { decayedReference, predictedFlips, scenarioQueries, scenarioRecords, at, HALF_LIFE_MS } from '../src/checks/c24-scenario';

describe('canonical instants (time.ts)', () => {
  test('ms and µs spellings parse and format back byte for byte', () => {
    for (const s of ['2024-05-01T09:30:00.123Z', '2024-05-01T09:30:00.123456Z', '0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999999Z', '2024-02-29T00:00:00.000001Z']) {
      expect(isCanonicalInstant(s)).toBe(true);
      expect(formatInstant(parseInstant(s, 't'))).toBe(s);
    }
  });

  test.each([
    ['2024-05-01T11:30:00.450+02:00', /time-zone offset \+02:00.*2024-05-01T09:30:00\.450Z/],
    ['2024-05-01T09:30:00.123000Z', /zero microsecond part.*2024-05-01T09:30:00\.123Z/],
    ['2024-02-30T00:00:00.000Z', /not a real calendar date/],
    ['2024-05-01T24:00:00.000Z', /not a real calendar date/],
    ['2024-05-01T09:30:00Z', /must be a UTC instant/],
    ['2024-05-01T09:30:00.1234567Z', /must be a UTC instant/],
    ['0000-01-01T00:00:00.000Z', /not a real calendar date/],
  ])('%s is rejected with INVALID_INPUT naming the field', (s, why) => {
    expect(() => parseInstant(s, 'record m1: createdAt')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => parseInstant(s, 'record m1: createdAt')).toThrow(/^record m1: createdAt: /);
    expect(() => parseInstant(s, 'x')).toThrow(why);
  });

  test('epoch milliseconds agree with Date.UTC on every day of 1599–1601, 1899–1901, 1969–1971, 1999–2001 and 2099–2101; Feb 29 only in leap years', () => {
    const pad = (x: number, w: number) => String(x).padStart(w, '0');
    for (const first of [1599, 1899, 1969, 1999, 2099]) {
      for (let t = Date.UTC(first, 0, 1); t < Date.UTC(first + 3, 0, 1); t += 86_400_000) {
        const d = new Date(t + 45_296_789); // 12:34:56.789 that day
        const s = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T12:34:56.789Z`;
        expect(parseInstant(s, 't')).toEqual({ ms: d.getTime(), us: 0 });
      }
    }
    expect(parseInstant('0001-01-01T00:00:00.000Z', 't').ms).toBe(-62135596800000);
    for (const y of [1600, 2000, 2024, 4]) expect(isCanonicalInstant(`${pad(y, 4)}-02-29T00:00:00.000Z`)).toBe(true);
    for (const y of [1700, 1900, 2100, 2023, 1]) expect(isCanonicalInstant(`${pad(y, 4)}-02-29T00:00:00.000Z`)).toBe(false);
    for (const s of ['2024-13-01T00:00:00.000Z', '2024-00-10T00:00:00.000Z', '2024-04-31T00:00:00.000Z', '2024-05-01T23:60:00.000Z', '2024-05-01T23:59:60.000Z'])
      expect(isCanonicalInstant(s)).toBe(false);
  });

  test('differences keep microseconds at any epoch; addMs carries across the millisecond', () => {
    const a = parseInstant('9999-12-31T23:59:59.999750Z', 'a');
    const b = parseInstant('9999-12-31T23:59:59.999250Z', 'b');
    expect(diffMs(a, b)).toBe(0.5);
    expect(() => formatInstant(addMs(b, 0.75))).toThrow(/outside years 0001-9999/);
    expect(formatInstant(addMs(parseInstant('2024-05-01T09:30:00.999900Z', 'c'), 0.2))).toBe('2024-05-01T09:30:01.000100Z');
    expect(formatInstant(addMs(parseInstant('2024-05-01T09:30:00.000100Z', 'c'), -0.2))).toBe('2024-05-01T09:29:59.999900Z');
  });
});

describe('decay formulas (decay.ts)', () => {
  test('exponential halves every half-life, hyperbolic is 1/(1 + age/h)', () => {
    expect(decayFactor('exponential', 0, 100)).toBe(1);
    expect(decayFactor('exponential', 100, 100)).toBe(0.5);
    expect(decayFactor('exponential', 300, 100)).toBe(0.125);
    expect(decayFactor('hyperbolic', 100, 100)).toBe(0.5);
    expect(decayFactor('hyperbolic', 300, 100)).toBe(0.25);
  });

  test('the hyperbolic flip instant solves a/(1+(t−tX)/h) = b/(1+(t−tY)/h)', () => {
    const t = hyperbolicFlipMs(0.9, 1_000, 0.6, 5_000, 2_000)!;
    expect(t).toBeCloseTo(1_000 + (0.9 * 4_000) / 0.3 - 2_000, 9);
    expect(0.9 * decayFactor('hyperbolic', t - 1_000, 2_000)).toBeCloseTo(0.6 * decayFactor('hyperbolic', t - 5_000, 2_000), 12);
    expect(hyperbolicFlipMs(0.5, 0, 0.5, 10, 100)).toBeNull();
    expect(hyperbolicFlipMs(1, 0, 0.5, 10, 100)).toBeNull(); // t* = −80: before Y exists
  });

  test('the C24 scenario predicts flips at 300, 500 and 600 ms, matching the reference ranking', () => {
    const recs = scenarioRecords(384);
    const [q1] = scenarioQueries(384);
    expect(predictedFlips(recs, q1!.vector).map((f) => [f.older, f.newer, f.atMs])).toEqual([
      ['c24-a', 'c24-b', 300],
      ['c24-a', 'c24-c', 500],
      ['c24-b', 'c24-c', 600],
    ]);
    const order = (ms: number) =>
      decayedReference(recs, q1!.vector, 3, at(ms), { fn: 'hyperbolic', halfLifeMs: HALF_LIFE_MS }, 0)
        .hits.slice(0, 3)
        .map((h) => h.id);
    expect(order(499)).toEqual(['c24-c', 'c24-a', 'c24-b']);
    expect(order(501)).toEqual(['c24-a', 'c24-c', 'c24-b']);
    expect(order(599)).toEqual(['c24-a', 'c24-c', 'c24-b']);
    expect(order(601)).toEqual(['c24-a', 'c24-b', 'c24-c']);
  });

  test('validateDecay: needs now, a known fn, a positive half-life, and a metric other than l2', () => {
    const now = '2024-05-01T09:30:00.000Z';
    expect(validateDecay({ now }, 'cosine', 'w')).toBeNull();
    expect(validateDecay({ now, decay: { fn: 'hyperbolic', halfLifeMs: 5 } }, 'ip', 'w')?.decay.fn).toBe('hyperbolic');
    for (const [q, m, re] of [
      [{ decay: { fn: 'hyperbolic', halfLifeMs: 5 } }, 'cosine', /needs `now`/],
      [{ now, decay: { fn: 'linear', halfLifeMs: 5 } }, 'cosine', /fn must be/],
      [{ now, decay: { fn: 'exponential', halfLifeMs: 0 } }, 'cosine', /halfLifeMs must be/],
      [{ now, decay: { fn: 'exponential', halfLifeMs: 5 } }, 'l2', /l2/],
      [{ now: '2024-05-01T11:30:00.000+02:00', decay: { fn: 'exponential', halfLifeMs: 5 } }, 'cosine', /w: now: .*offset/],
    ] as const) {
      expect(() => validateDecay(q as never, m, 'w')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(re) }));
    }
  });
});

describe('rerankWithDecay (decay-rerank.ts)', () => {
  // 300 memories: similarity falls with the index, age too (the least similar are the newest).
  const now = parseInstant('2024-06-01T00:00:00.000Z', 'now');
  const all: DecayCandidate[] = Array.from({ length: 300 }, (_, i) => ({
    id: `m${String(i).padStart(3, '0')}`,
    score: 1 - i / 400,
    createdAt: formatInstant(addMs(now, -(300 - i) * 60_000)),
  }));
  const exact = (fn: 'exponential' | 'hyperbolic', h: number, k: number) =>
    all
      .map((c) => ({ id: c.id, score: c.score * decayFactor(fn, Math.max(0, diffMs(now, parseInstant(c.createdAt, c.id))), h) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, k);

  test.each([
    ['exponential', 3_600_000, 5],
    ['hyperbolic', 600_000, 10],
    ['hyperbolic', 60_000, 3],
  ] as const)('%s h=%d k=%d equals the exact decayed top-k, fetching more rounds only when needed', async (fn, h, k) => {
    const asked: number[] = [];
    const fetch = async (n: number) => {
      asked.push(n);
      return all.slice(0, n);
    };
    const r = await rerankWithDecay({ now, decay: { fn, halfLifeMs: h } }, { k, total: all.length, where: 'test' }, fetch);
    expect(r.hits).toEqual(exact(fn, h, k));
    expect(r.rounds).toBe(asked.length);
    expect(asked[0]).toBe(64);
    if (h === 60_000) expect(asked).toEqual([64, 256, 300]); // recent, less similar memories win: the bound forces a full scan
  });

  test('a stored createdAt that is not canonical fails with INVALID_INPUT naming the id', async () => {
    const bad = [{ id: 'x', score: 0.5, createdAt: '2024-06-01T00:00:00+00:00' }];
    await expect(rerankWithDecay({ now, decay: { fn: 'exponential', halfLifeMs: 1 } }, { k: 1, total: 1, where: 'redis: docs' }, async () => bad)).rejects.toThrow(
      /redis: docs: stored createdAt of x/,
    );
  });
});
