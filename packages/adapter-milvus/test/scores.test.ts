import { MILVUS_SCORES, milvusToCanonical } from '../src';

/** Milvus native scores → canonical (Milvus docs "Metric Types"). */
describe('milvusToCanonical', () => {
  test('COSINE and IP are similarities already', () => {
    expect(milvusToCanonical('cosine', 0.25)).toBe(0.25);
    expect(milvusToCanonical('ip', -1.5)).toBe(-1.5);
  });
  test('L2 is the squared distance: −√d', () => {
    expect(milvusToCanonical('l2', 4)).toBe(-2);
    expect(milvusToCanonical('l2', 0)).toBe(-0);
  });
  test('a negative squared distance is INVALID_INPUT', () => {
    expect(() => milvusToCanonical('l2', -1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
  test('the driver formula names the source', () => {
    expect(MILVUS_SCORES.formula).toContain('Metric Types');
  });
});
