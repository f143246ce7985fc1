/**
 * A dataset a target cannot hold is a capability, not a failure (conformance/fit.ts): a metric the
 * target lacks, a dimension above `maxDim` skip the checks that store the dataset's memories; a
 * dimension above `maxIndexDim` closes the index path only (C05, C28 skip; the exact path runs).
 * Checked on the real catalogue (CHECKS) and the real registration (registerConformance), with the
 * capabilities of real drivers spelled out here (spec depends on no adapter).
 */
import { capabilities, CHECKS, missingCapabilities, registerConformance, type Capabilities, type CheckResult, type TestRuntime } from '../src';
import { datasetFit, fitCapabilities, fitIndex, fitNote, fitSkipReason } from '../src/conformance/fit';

const base = {
  vectors: true,
  exactScan: true,
  filterNamespace: true,
  filterKind: true,
  filterMetadata: true,
  threshold: true,
  upsert: true,
  delete: true,
  reopen: true,
  timeDecay: true,
  readYourWrites: 'strong' as const,
};
/** sqlite-vec: no ip, vec0 float[N] up to 8,192, no ANN index, chat history. */
const SQLITE = capabilities({ ...base, metrics: ['cosine', 'l2'], maxDim: 8192, history: true, historyWindow: true, snapshots: true });
/** pgvector: every metric, HNSW / IVFFlat up to 2,000 dims, `vector` up to 16,000. */
const PGVECTOR = capabilities({ ...base, metrics: ['cosine', 'ip', 'l2'], annIndexes: ['hnsw', 'ivfflat'], indexIntrospection: true, maxDim: 16000, maxIndexDim: 2000 });
/** A target with only an ANN path (Milvus-like: no exactScan). */
const ANN_ONLY = capabilities({ ...base, exactScan: false, metrics: ['cosine', 'ip', 'l2'], annIndexes: ['hnsw'], indexIntrospection: true, maxIndexDim: 2000 });

const reasons = (caps: Capabilities, metric: 'cosine' | 'ip' | 'l2', dim: number) => {
  const fit = datasetFit(caps, { metric, dim });
  return Object.fromEntries(CHECKS.map((c) => [c.id, fitSkipReason(c, caps, fit)]));
};

describe('datasetFit', () => {
  test('a dataset that fits: no gap', () => {
    expect(datasetFit(PGVECTOR, { metric: 'ip', dim: 2000 })).toEqual({ vectors: null, metricOnly: false, indexPath: null });
  });
  test('a metric the target lacks: the vectors gap names the metric', () => {
    expect(datasetFit(SQLITE, { metric: 'ip', dim: 384 })).toEqual({ vectors: 'capability: metrics (ip)', metricOnly: true, indexPath: null });
  });
  test('wider than maxDim: the vectors gap names both figures', () => {
    expect(datasetFit(SQLITE, { metric: 'cosine', dim: 9000 })).toEqual({ vectors: 'capability: maxDim 8192 < dim 9000', metricOnly: false, indexPath: null });
  });
  test('wider than maxIndexDim: the index path is closed, the vectors stay (with or without exactScan)', () => {
    for (const caps of [PGVECTOR, ANN_ONLY]) {
      const fit = datasetFit(caps, { metric: 'cosine', dim: 2048 });
      expect(fit).toEqual({ vectors: null, metricOnly: false, indexPath: 'capability: maxIndexDim 2000 < dim 2048' });
      expect(fitCapabilities(caps, fit)).toMatchObject({ vectors: true, annIndexes: [] });
      expect(fitIndex({ type: 'hnsw', m: 16, efConstruction: 64, efSearch: 100 }, fit)).toEqual({ type: 'none' });
    }
    expect(datasetFit(PGVECTOR, { metric: 'cosine', dim: 2000 }).indexPath).toBeNull(); // the limit itself is indexable
  });
  test('a target without vectors has no dataset gap (its own capability skips the vector checks)', () => {
    expect(datasetFit(capabilities({ history: true }), { metric: 'ip', dim: 99999 })).toEqual({ vectors: null, metricOnly: false, indexPath: null });
  });
});

describe('fitSkipReason over the whole catalogue', () => {
  test('sqlite on an ip dataset: every vector check skips naming the metric; C10 and C24 (own metrics) and the history checks run', () => {
    const r = reasons(SQLITE, 'ip', 384);
    const own = Object.fromEntries(CHECKS.map((c) => [c.id, c.requires(SQLITE)]));
    for (const c of CHECKS) {
      if (own[c.id])
        expect([c.id, r[c.id]]).toEqual([c.id, own[c.id]]); // the target's own reason stays first
      else if (['C10', 'C17', 'C20', 'C24', 'C22', 'C26'].includes(c.id)) expect([c.id, r[c.id]]).toEqual([c.id, null]);
      else expect([c.id, r[c.id]]).toEqual([c.id, 'capability: metrics (ip)']);
    }
    expect(r.C03).toBe('capability: metrics (ip)');
    expect(r.C05).toBe('capability: annIndexes'); // sqlite has no ANN index on any dataset
  });
  test('C22 runs its history part only there, and says so; C17 (history only) carries no note', () => {
    const fit = datasetFit(SQLITE, { metric: 'ip', dim: 384 });
    const byId = Object.fromEntries(CHECKS.map((c) => [c.id, c]));
    expect(fitNote(byId.C22!, SQLITE, fit)).toBe('memory part not run (capability: metrics (ip)): only the chat-history part ran');
    expect(fitNote(byId.C17!, SQLITE, fit)).toBeNull();
    expect(fitNote(byId.C10!, SQLITE, fit)).toBeNull();
  });
  test('above maxDim even C10 and C24 skip: they store vectors of the dataset dimension', () => {
    const r = reasons(SQLITE, 'cosine', 9000);
    expect(r.C10).toBe('capability: maxDim 8192 < dim 9000');
    expect(r.C24).toBe('capability: maxDim 8192 < dim 9000');
    expect(r.C17).toBeNull();
  });
  test('pgvector on 2,048-d: C05 and C28 skip naming the limit; every exact-path check runs', () => {
    const r = reasons(PGVECTOR, 'cosine', 2048);
    expect(r.C05).toBe('capability: maxIndexDim 2000 < dim 2048');
    expect(r.C28).toBe('capability: maxIndexDim 2000 < dim 2048');
    for (const id of ['C01', 'C02', 'C03', 'C04', 'C06', 'C07', 'C08', 'C09', 'C10', 'C11', 'C12', 'C13', 'C14', 'C21', 'C24', 'C25', 'C27', 'C29']) expect([id, r[id]]).toEqual([id, null]);
  });
  test('a maxIndexDim declared too low never hides the exact path: on 384-d only the index-path checks skip', () => {
    const low = { ...PGVECTOR, maxIndexDim: 100 };
    const r = reasons(low, 'cosine', 384);
    const skipped = Object.entries(r).filter(([, v]) => v?.startsWith('capability: maxIndexDim'));
    expect(skipped.map(([id]) => id)).toEqual(['C05', 'C28']);
    expect(r.C03).toBeNull();
  });
});

describe('missingCapabilities: a declared limit above the store is missing', () => {
  test('maxIndexDim / maxDim larger than reported, or unlimited where the store has one', () => {
    expect(missingCapabilities({ ...PGVECTOR, maxIndexDim: 4000 }, PGVECTOR)).toEqual(['maxIndexDim 4000 > 2000']);
    const { maxDim: _drop, ...unlimited } = PGVECTOR;
    expect(missingCapabilities(unlimited as Capabilities, PGVECTOR)).toEqual(['maxDim unlimited > 16000']);
    expect(missingCapabilities({ ...PGVECTOR, maxIndexDim: 1000 }, PGVECTOR)).toEqual([]); // narrowing is fine
  });
});

describe('registerConformance with the dataset shape', () => {
  const register = (caps: Capabilities, shape: { metric: 'cosine' | 'ip' | 'l2'; dim: number }) => {
    const titles: string[] = [];
    const recorded: CheckResult[] = [];
    const rt: TestRuntime = {
      describe: (_n, fn) => fn(),
      test: Object.assign((n: string) => titles.push(n), { skip: (n: string) => titles.push(n) }),
      beforeAll: () => undefined,
      afterAll: () => undefined,
    };
    const config = jest.fn();
    registerConformance(rt, { target: 't@1', dataset: 'd', capabilities: caps, shape }, config, { sink: { record: (r) => recorded.push(r) } });
    expect(config).not.toHaveBeenCalled(); // registration starts nothing
    return { titles, recorded };
  };
  test('an ip dataset on sqlite: one visible skip per vector check, recorded with the reason', () => {
    const { titles, recorded } = register(SQLITE, { metric: 'ip', dim: 384 });
    expect(titles).toHaveLength(CHECKS.length);
    expect(titles).toContain('C03 topk-exact [skipped: capability: metrics (ip)]');
    expect(titles).toContain('C10 metric-persisted');
    expect(recorded.filter((r) => r.skipReason === 'capability: metrics (ip)').length).toBe(Object.values(reasons(SQLITE, 'ip', 384)).filter((v) => v === 'capability: metrics (ip)').length);
    expect(recorded.every((r) => r.status === 'skipped')).toBe(true);
  });
  test('a 2,048-d dataset on pgvector: C05 and C28 skipped naming the limit, C03 registered to run', () => {
    const { titles } = register(PGVECTOR, { metric: 'cosine', dim: 2048 });
    expect(titles).toContain('C05 ann-recall [skipped: capability: maxIndexDim 2000 < dim 2048]');
    expect(titles).toContain('C28 index-in-effect [skipped: capability: maxIndexDim 2000 < dim 2048]');
    expect(titles).toContain('C03 topk-exact');
  });
});
