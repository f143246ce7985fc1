import { chromaToCanonical } from '../src/scores';

function codeOf(fn: () => unknown): { code?: string; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('expected a throw');
}

describe('Chroma native → canonical', () => {
  test('cosine 1 − d, ip (d = 1 − dot) 1 − d, squared l2 −√d', () => {
    expect(chromaToCanonical('cosine', 0.25)).toBe(0.75);
    expect(chromaToCanonical('ip', -2)).toBe(3); // dot 3 → d = −2
    expect(chromaToCanonical('ip', 1.5)).toBe(-0.5);
    expect(chromaToCanonical('l2', 25)).toBe(-5);
    expect(chromaToCanonical('l2', 2)).toBe(-1.4142135623730951);
  });
  test('a negative squared L2 distance is rejected', () => {
    expect(codeOf(() => chromaToCanonical('l2', -1e-7)).code).toBe('INVALID_INPUT');
  });
});
