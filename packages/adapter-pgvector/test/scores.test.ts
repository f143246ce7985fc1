import { pgvectorToCanonical, PGVECTOR_SCORES } from '../src/scores';

describe('pgvector native → canonical', () => {
  test('<=> cosine distance d → 1 − d', () => {
    expect(pgvectorToCanonical('cosine', 0)).toBe(1);
    expect(pgvectorToCanonical('cosine', 0.25)).toBe(0.75);
    expect(pgvectorToCanonical('cosine', 1)).toBe(0);
    expect(pgvectorToCanonical('cosine', 2)).toBe(-1);
  });
  test('<#> negative inner product d → −d', () => {
    expect(pgvectorToCanonical('ip', -3.5)).toBe(3.5);
    expect(pgvectorToCanonical('ip', 2)).toBe(-2);
  });
  test('<-> Euclidean distance d → −d', () => {
    expect(pgvectorToCanonical('l2', 5)).toBe(-5);
    expect(pgvectorToCanonical('l2', 0)).toBe(-0);
  });
  test('NaN passes through (the comparator reports it); the driver uses the same function', () => {
    expect(pgvectorToCanonical('cosine', NaN)).toBeNaN();
    expect(PGVECTOR_SCORES.toCanonical('cosine', 0.25)).toBe(0.75);
  });
});
