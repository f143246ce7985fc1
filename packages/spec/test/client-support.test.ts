import { describeDifference } from '../src/checks/helpers/sampling';
import { legacyHistoryFile, loadLegacyHistoryCases, LEGACY_HISTORY_FILE } from '../src/checks/c20-serde-compat';
import type { MemoryRecord } from '../src';

/** What the client drivers rely on in spec: the readback tolerance of record comparisons and the legacy file of a payload format. */
const rec = (e: number[]): MemoryRecord => ({ id: 'a', namespace: 'n', kind: 'fact', text: 't', createdAt: '2024-01-01T00:00:00.000Z', metadata: {}, embedding: Float32Array.from(e) });
const nextUlp = (x: number) => {
  const f = new Float32Array([x]);
  new Int32Array(f.buffer)[0]! += 1;
  return f[0]!;
};

test('describeDifference: bit-exact by default; within a declared embeddingReadback a 1-ulp change passes, a larger one is named with the tolerance', () => {
  const a = rec([0.3, -0.02]);
  const oneUlp = rec([nextUlp(0.3), -0.02]);
  expect(describeDifference(a, oneUlp)).toMatch(/^embedding\[0\] expected/);
  expect(describeDifference(a, oneUlp, 2.4e-7)).toBeNull();
  expect(describeDifference(a, rec([0.3 * (1 + 1e-6), -0.02]), 2.4e-7)).toMatch(/beyond the declared relative readback tolerance 2\.4e-7/);
  expect(describeDifference(a, { ...oneUlp, metadata: { x: 1 } }, 2.4e-7)).toMatch(/^metadata keys/);
});

test('legacyHistoryFile: memory-matrix format by default, history-payloads.<format>.json for a client format; a malformed format name is INVALID_INPUT', () => {
  expect(legacyHistoryFile(undefined)).toBe(LEGACY_HISTORY_FILE);
  expect(legacyHistoryFile('langchain')).toMatch(/golden-data\/legacy\/history-payloads\.langchain\.json$/);
  expect(() => legacyHistoryFile('../x')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  const cases = loadLegacyHistoryCases(legacyHistoryFile('langchain'));
  expect(cases.filter((c) => c.continued).map((c) => c.name)).toEqual(['lc-core-0.3']);
  expect(cases.filter((c) => 'error' in c.expect).every((c) => (c.expect as { error: string }).error === 'PAYLOAD_UNSUPPORTED')).toBe(true);
});
