/**
 * Helpers the checks share, without a backend: the bounded map C02 and C07 run their recalls
 * through (order kept, limit respected, errors passed on), the kill that C15's parts share, and
 * the tie-order rule C08 asserts on its probes.
 */
import { killBarrier } from '../src/checks/c15-cycles';
import { mapBounded } from '../src/checks/helpers/bounded';
import { tieOrderViolations } from '../src/checks/helpers/tie-order';

const tick = () => new Promise((r) => setImmediate(r));

describe('mapBounded', () => {
  it('keeps the order of the items, not of completion, and never exceeds the limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 4, 2, 3], 2, async (n, i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n * 3));
      inFlight--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(peak).toBe(2);
  });

  it('rejects with the first error and starts nothing after it', async () => {
    const started: number[] = [];
    const p = mapBounded([1, 2, 3, 4, 5], 1, async (n) => {
      started.push(n);
      if (n === 2) throw Object.assign(new Error('boom'), { code: 'BACKEND_ERROR' });
      return n;
    });
    await expect(p).rejects.toMatchObject({ code: 'BACKEND_ERROR' });
    expect(started).toEqual([1, 2]);
  });

  it('refuses a limit below 1', async () => {
    await expect(mapBounded([1], 0, async (n) => n)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('killBarrier', () => {
  it('kills once, when the last part asks, and tells every part when it was issued', async () => {
    const events: string[] = [];
    let kills = 0;
    const kill = killBarrier(2, async () => {
      kills++;
      events.push('kill');
    });
    const a = kill(() => events.push('issued a'));
    await tick();
    expect(kills).toBe(0);
    const b = kill(() => events.push('issued b'));
    await Promise.all([a, b]);
    expect(kills).toBe(1);
    expect(events).toEqual(['issued a', 'issued b', 'kill']);
  });

  it('passes a failed kill to every part', async () => {
    const kill = killBarrier(2, async () => {
      throw Object.assign(new Error('docker kill failed'), { code: 'BACKEND_ERROR' });
    });
    const results = await Promise.allSettled([kill(() => undefined), kill(() => undefined)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('tieOrderViolations', () => {
  const hit = (id: string, score: number) => ({ id, score });
  it('names each pair of exactly equal scores in descending id order, and nothing else', () => {
    expect(tieOrderViolations([hit('same', 1), hit('scaled', 1), hit('diag', 0.7), hit('ortho', 0)])).toEqual([]);
    expect(tieOrderViolations([hit('scaled', 1), hit('same', 1), hit('diag', 0.7)])).toEqual([{ rank: 2, score: 1, before: 'scaled', id: 'same' }]);
    // Scores an ulp apart are ordered by score, not by id.
    expect(tieOrderViolations([hit('b', 1), hit('a', 1 - Number.EPSILON)])).toEqual([]);
  });
});
