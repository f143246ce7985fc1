import { capabilities, capabilitiesSchema, capabilityOverridesSchema, DEFAULT_CAPABILITIES } from '../src/capabilities';
import { c22Concurrency } from '../src/checks/c22-concurrency';
import { missingCapabilities } from '../src/capabilities-missing';

describe('capabilities: one strict schema', () => {
  test('the defaults parse; annIndexes is any name a driver declares', () => {
    expect(capabilitiesSchema.parse(DEFAULT_CAPABILITIES)).toEqual(DEFAULT_CAPABILITIES);
    expect(capabilitiesSchema.parse(capabilities({ vectors: true, annIndexes: ['my-graph'] })).annIndexes).toEqual(['my-graph']);
  });
  test('an override with an unknown key is refused, naming the key', () => {
    const r = capabilityOverridesSchema.safeParse({ vectros: false });
    expect(r.success).toBe(false);
    expect(!r.success && r.error.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['vectros'] });
    expect(capabilityOverridesSchema.safeParse({ vectors: 'no' }).success).toBe(false);
    expect(capabilityOverridesSchema.parse({ quantized: true, maxBatch: 5461 })).toEqual({ quantized: true, maxBatch: 5461 });
  });
});

describe('missingCapabilities (declared vs what a connected store reports)', () => {
  const full = capabilities({ vectors: true, metrics: ['cosine', 'l2'], annIndexes: ['hnsw'], exactScan: true, history: true, faults: true, maxBatch: 1000 });
  test('nothing missing when the store reports at least what is declared', () => {
    expect(missingCapabilities(full, { ...full, faults: false, upgrade: false })).toEqual([]); // faults/upgrade are the provider's
  });
  test('a flag, a list entry or a larger maxBatch declared but not reported is named', () => {
    expect(missingCapabilities(full, { ...full, exactScan: false, metrics: ['cosine'], annIndexes: [], history: false, maxBatch: 500 })).toEqual([
      'metrics.l2',
      'exactScan',
      'annIndexes.hnsw',
      'maxBatch 1000 > 500',
      'history',
    ]);
  });
  test('without vectors declared, the vector-only flags are not compared', () => {
    const historyOnly = capabilities({ history: true, ttl: true });
    expect(missingCapabilities({ ...full, vectors: false }, historyOnly)).toEqual([]);
    expect(missingCapabilities(full, historyOnly)).toContain('vectors');
  });
});

describe('concurrentClients (a layer behaviour, default true)', () => {
  test('present unless declared false; false makes C22 skip naming it, before its other needs pass', () => {
    expect(DEFAULT_CAPABILITIES.concurrentClients).toBe(true);
    expect(capabilityOverridesSchema.parse({ concurrentClients: false })).toEqual({ concurrentClients: false });
    const vec = capabilities({ vectors: true, upsert: true });
    expect(c22Concurrency.requires?.(vec)).toBeNull();
    expect(c22Concurrency.requires?.({ ...vec, concurrentClients: false })).toBe('capability: concurrentClients');
    expect(c22Concurrency.requires?.(capabilities({ concurrentClients: false }))).toBe('capability: history or vectors + upsert');
  });
});
