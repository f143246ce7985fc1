import {
  chromaToCanonical,
  pgvectorToCanonical,
  redisearchToCanonical,
  redisVsimToCanonical,
  referenceScore,
  validateVector,
} from '../src/scores';

const f32 = (xs: number[]) => Float32Array.from(xs);

function codeOf(fn: () => unknown): { code?: string; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('expected a throw');
}

describe('native → canonical converters', () => {
  test('pgvector: <=> cosine distance d → 1 − d', () => {
    expect(pgvectorToCanonical('cosine', 0)).toBe(1);
    expect(pgvectorToCanonical('cosine', 0.25)).toBe(0.75);
    expect(pgvectorToCanonical('cosine', 1)).toBe(0);
    expect(pgvectorToCanonical('cosine', 2)).toBe(-1);
  });
  test('pgvector: <#> negative inner product d → −d', () => {
    expect(pgvectorToCanonical('ip', -3.5)).toBe(3.5);
    expect(pgvectorToCanonical('ip', 2)).toBe(-2);
  });
  test('pgvector: <-> Euclidean distance d → −d', () => {
    expect(pgvectorToCanonical('l2', 5)).toBe(-5);
    expect(pgvectorToCanonical('l2', 0)).toBe(-0);
  });
  test('Chroma: cosine 1 − d, ip (d = 1 − dot) 1 − d, squared l2 −√d', () => {
    expect(chromaToCanonical('cosine', 0.25)).toBe(0.75);
    expect(chromaToCanonical('ip', -2)).toBe(3); // dot 3 → d = −2
    expect(chromaToCanonical('ip', 1.5)).toBe(-0.5);
    expect(chromaToCanonical('l2', 25)).toBe(-5);
    expect(chromaToCanonical('l2', 2)).toBe(-1.4142135623730951);
  });
  test('Chroma: a negative squared L2 distance is rejected', () => {
    expect(codeOf(() => chromaToCanonical('l2', -1e-7)).code).toBe('INVALID_INPUT');
  });
  test('Redis VSIM: s = (1 + cos)/2 → 2s − 1', () => {
    expect(redisVsimToCanonical(1)).toBe(1);
    expect(redisVsimToCanonical(0.5)).toBe(0);
    expect(redisVsimToCanonical(0)).toBe(-1);
    expect(redisVsimToCanonical(0.75)).toBe(0.5);
  });
  test('RediSearch: COSINE 1 − d, IP 1 − d, L2 (squared) −√d', () => {
    expect(redisearchToCanonical('cosine', 0.1)).toBe(0.9);
    expect(redisearchToCanonical('ip', 0.25)).toBe(0.75);
    expect(redisearchToCanonical('l2', 9)).toBe(-3);
    expect(codeOf(() => redisearchToCanonical('l2', -4)).code).toBe('INVALID_INPUT');
  });
  test('NaN passes through (the comparator reports it)', () => {
    expect(pgvectorToCanonical('cosine', NaN)).toBeNaN();
    expect(redisVsimToCanonical(NaN)).toBeNaN();
  });
});

describe('referenceScore (float64)', () => {
  test('cosine: identical → 1, orthogonal → 0, opposite → −1', () => {
    expect(referenceScore('cosine', f32([1, 2, 3]), f32([1, 2, 3]))).toBe(1);
    expect(referenceScore('cosine', f32([1, 2, 3]), f32([2, 4, 6]))).toBe(1);
    expect(referenceScore('cosine', f32([1, 0]), f32([0, 1]))).toBe(0);
    expect(referenceScore('cosine', f32([1, 2, 3]), f32([-1, -2, -3]))).toBe(-1);
  });
  test('cosine of [1,0] and [1,1] is 1/√2', () => {
    expect(referenceScore('cosine', f32([1, 0]), f32([1, 1]))).toBeCloseTo(0.7071067811865476, 15);
  });
  test('cosine with a zero vector is NaN', () => {
    expect(referenceScore('cosine', f32([0, 0]), f32([1, 1]))).toBeNaN();
  });
  test('ip: [1,2,3]·[4,−5,6] = 12', () => {
    expect(referenceScore('ip', f32([1, 2, 3]), f32([4, -5, 6]))).toBe(12);
  });
  test('ip accumulates in float64: 4096² + 1 − 4096² = 1 (float32 would give 0)', () => {
    expect(referenceScore('ip', f32([4096, 1, -4096]), f32([4096, 1, 4096]))).toBe(1);
  });
  test('l2: −‖[1,2,3] − [4,6,3]‖ = −5', () => {
    expect(referenceScore('l2', f32([1, 2, 3]), f32([4, 6, 3]))).toBe(-5);
    expect(referenceScore('l2', f32([1, 2]), f32([1, 2]))).toBe(-0);
  });
  test('different lengths → DIMENSION_MISMATCH', () => {
    expect(codeOf(() => referenceScore('ip', f32([1]), f32([1, 2]))).code).toBe('DIMENSION_MISMATCH');
  });
});

describe('validateVector', () => {
  test('accepts a good vector', () => {
    expect(() => validateVector(f32([0.5, -1, 2]), 3, 'cosine', 'here')).not.toThrow();
    expect(() => validateVector(f32([0, 0, 0]), 3, 'l2', 'here')).not.toThrow();
    expect(() => validateVector(f32([0, 0, 0]), 3, 'ip', 'here')).not.toThrow();
  });
  test('wrong length → DIMENSION_MISMATCH naming where', () => {
    const e = codeOf(() => validateVector(f32([1, 2]), 3, 'cosine', 'memories.jsonl:7 field embedding'));
    expect(e.code).toBe('DIMENSION_MISMATCH');
    expect(e.message).toBe("memories.jsonl:7 field embedding: vector has 2 components, the collection's dimension is 3");
  });
  test('NaN / ±Infinity → INVALID_VECTOR naming the component', () => {
    const e = codeOf(() => validateVector(f32([1, NaN, 2]), 3, 'l2', 'upsert record m1'));
    expect(e.code).toBe('INVALID_VECTOR');
    expect(e.message).toContain('upsert record m1: component 1 is NaN');
    expect(codeOf(() => validateVector(f32([Infinity]), 1, 'ip', 'x')).code).toBe('INVALID_VECTOR');
    expect(codeOf(() => validateVector(f32([-Infinity]), 1, 'ip', 'x')).code).toBe('INVALID_VECTOR');
  });
  test('beyond float32 range → INVALID_VECTOR', () => {
    expect(codeOf(() => validateVector([1, 1e39], 2, 'ip', 'x')).code).toBe('INVALID_VECTOR');
  });
  test('zero vector under cosine → INVALID_VECTOR', () => {
    const e = codeOf(() => validateVector(f32([0, 0]), 2, 'cosine', 'query q0001'));
    expect(e.code).toBe('INVALID_VECTOR');
    expect(e.message).toContain('query q0001: zero vector under the cosine metric');
  });
});
