import { negativeSqrtOfSquared, referenceScore, validateVector } from '../src/scores';

const f32 = (xs: number[]) => Float32Array.from(xs);

function codeOf(fn: () => unknown): { code?: string; message: string } {
  try {
    fn();
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('expected a throw');
}

describe('negativeSqrtOfSquared', () => {
  test('squared L2 d → −√d; negative d is INVALID_INPUT naming the converter', () => {
    expect(negativeSqrtOfSquared(25, 'x')).toBe(-5);
    expect(negativeSqrtOfSquared(NaN, 'x')).toBeNaN();
    const e = codeOf(() => negativeSqrtOfSquared(-1e-7, 'myConverter'));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('myConverter');
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
