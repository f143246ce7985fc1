import { withinThresholdBand } from '../src/checks/helpers/threshold-band';
import type { GoldenQuery } from '../src/golden/types';
import { ExactOracle } from '../src/oracle';

/**
 * Cosine scores against the query [1, 0]: a 1, b 0.8, c 0.6 (exactly; unit vectors), d 0.59999
 * (1e-5 below c), e 0.
 */
const oracle = new ExactOracle({
  ids: ['a', 'b', 'c', 'd', 'e'],
  namespaces: ['u', 'u', 'u', 'u', 'u'],
  kinds: ['fact', 'fact', 'fact', 'fact', 'fact'],
  metadata: [{}, {}, {}, {}, {}],
  vectors: Float32Array.from([1, 0, 0.8, 0.6, 0.6, 0.8, 0.59999, Math.sqrt(1 - 0.59999 ** 2), 0, 1]),
  dim: 2,
  metric: 'cosine',
});
const query = (minScore?: number, k = 10): GoldenQuery => ({ id: 'q', k, minScore, purpose: 'threshold', vector: Float32Array.from([1, 0]) });

describe('withinThresholdBand (C15 audit: the count of a threshold query)', () => {
  test('rows within the tolerance of minScore may fall either side', () => {
    // minScore 0.599995, between c and d: c qualifies, d does not; with tolerance 4e-3 both may go either way.
    expect([2, 3, 4].map((n) => withinThresholdBand(oracle, query(0.599995), n, 4e-3))).toEqual([true, true, true]);
  });
  test('a count outside the band is still a failure', () => {
    expect(withinThresholdBand(oracle, query(0.599995), 1, 4e-3)).toBe(false);
    expect(withinThresholdBand(oracle, query(0.599995), 5, 4e-3)).toBe(false);
  });
  test('with a tolerance below the gap the count is exact', () => {
    expect([2, 3, 4].map((n) => withinThresholdBand(oracle, query(0.599995), n, 1e-6))).toEqual([false, true, false]);
  });
  test('k caps the band', () => {
    expect(withinThresholdBand(oracle, query(0.599995, 2), 2, 4e-3)).toBe(true);
    expect(withinThresholdBand(oracle, query(0.599995, 2), 3, 4e-3)).toBe(false);
  });
  test('a query without minScore never gets a band', () => {
    expect(withinThresholdBand(oracle, query(undefined), 5, 1)).toBe(false);
  });
});
