import { redisearchToCanonical, redisVsimToCanonical } from '../src/scores';

function codeOf(fn: () => unknown): { code?: string; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('expected a throw');
}

describe('Redis native → canonical', () => {
  test('VSIM: s = (1 + cos)/2 → 2s − 1', () => {
    expect(redisVsimToCanonical(1)).toBe(1);
    expect(redisVsimToCanonical(0.5)).toBe(0);
    expect(redisVsimToCanonical(0)).toBe(-1);
    expect(redisVsimToCanonical(0.75)).toBe(0.5);
    expect(redisVsimToCanonical(NaN)).toBeNaN();
  });
  test('RediSearch: COSINE 1 − d, IP 1 − d, L2 (squared) −√d', () => {
    expect(redisearchToCanonical('cosine', 0.1)).toBe(0.9);
    expect(redisearchToCanonical('ip', 0.25)).toBe(0.75);
    expect(redisearchToCanonical('l2', 9)).toBe(-3);
    expect(codeOf(() => redisearchToCanonical('l2', -4)).code).toBe('INVALID_INPUT');
  });
});
