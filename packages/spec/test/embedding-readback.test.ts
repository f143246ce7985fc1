/** `describeDifference` (checks/helpers/sampling.ts) for a target declaring `embeddingReadBack: false` (capabilities.ts). */
import { describeDifference } from '../src/checks/helpers/sampling';
import type { MemoryRecord } from '../src/types';

describe('describeDifference with embeddingReadBack false', () => {
  const rec: MemoryRecord = { id: 'a', namespace: 'n', kind: 'fact', text: 't', createdAt: '2026-01-01T00:00:00.000Z', metadata: { x: 1 }, embedding: Float32Array.from([0.6, 0.8]) };
  test('an empty vector is what such a target returns: no difference; any other field still compared', () => {
    expect(describeDifference(rec, { ...rec, embedding: new Float32Array(0) }, undefined, false)).toBeNull();
    expect(describeDifference(rec, { ...rec, text: 'u', embedding: new Float32Array(0) }, undefined, false)).toMatch(/^text expected/);
    expect(describeDifference(rec, rec, undefined, false)).toMatch(/declares embeddingReadBack false/);
    expect(describeDifference(rec, { ...rec, embedding: new Float32Array(0) })).toMatch(/^embedding length expected 2 got 0/);
  });
});
