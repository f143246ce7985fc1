import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { capabilities, defineDriver, hnswIndexSchema, type BackendDriver, type TestBody, type TestRuntime } from '../src';
import { conformanceSuite, openEmbeddedEngine, readCatalogTarget, resolveSuiteTarget } from '../src/testing';
import { z } from 'zod';

/**
 * conformanceSuite (src/testing/): what it registers for a catalog target, and its errors by code.
 * The suites it registers are run by the adapters' spec.test.ts (sqlite, lancedb, libsql) on real
 * stores; here a recording runtime keeps the registrations and no store is opened.
 */
const DATASET = 'user-data/odd-strings'; // 40 memories: loading it is cheap

/** A runtime that records test titles (skipped ones apart) and bodies; hooks are not run. */
function recorder(): TestRuntime & { titles: string[]; skipped: string[]; bodies: Map<string, TestBody> } {
  const titles: string[] = [];
  const skipped: string[] = [];
  const bodies = new Map<string, TestBody>();
  const test = Object.assign(
    (name: string, fn: TestBody) => {
      titles.push(name);
      bodies.set(name, fn);
    },
    { skip: (name: string) => void skipped.push(name) },
  );
  return { describe: (_n, fn) => fn(), test, beforeAll: () => undefined, afterAll: () => undefined, titles, skipped, bodies };
}

const SQLITE_LIKE = { vectors: true, metrics: ['cosine' as const, 'l2' as const], exactScan: true, threshold: true, upsert: true, delete: true };
const driver = (name: string, over: Partial<BackendDriver<unknown>> = {}): BackendDriver<unknown> =>
  defineDriver<unknown>({ name, description: 'a driver for registration tests', capabilities: capabilities(SQLITE_LIKE), scores: { formula: '-', toCanonical: (_m, d) => d }, ...over });

const tmp = mkdtempSync(path.join(os.tmpdir(), 'mm-suite-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const ownCatalog = path.join(tmp, 'memory-matrix.yaml');
writeFileSync(
  ownCatalog,
  [
    'targets:',
    '  toy@1:',
    '    backend: toy',
    '    provider: embedded',
    '    engine: toy-1',
    '    index: { type: hnsw, m: 8, efConstruction: 32, efSearch: 50 }',
    '    tolerances: { scoreTolerance: 1.0e-4 }',
    '    capabilities: { threshold: false }',
    '    adapterOptions: { shards: 2 }',
    '  toy@2: { backend: toy, provider: container, capabilities: { thresold: false } }',
    'profiles:',
    '  mine: { targets: [toy@1] }',
    '',
  ].join('\n'),
);
const toyDriver = driver('toy', { indexes: { hnsw: hnswIndexSchema }, adapterOptions: z.object({ shards: z.number().int().default(1) }).strict() });

test('a built-in target: one test per check, skips naming the capability, the profile test; its entry resolved as the catalog resolves it', async () => {
  const rt = recorder();
  conformanceSuite({ target: 'sqlite@3.53-vec0.1.9', driver: driver('sqlite'), dataset: DATASET, profiles: ['default'], runtime: rt });
  expect(rt.titles).toContain('C03 topk-exact');
  expect(rt.skipped).toContain('C17 history-roundtrip [skipped: capability: history]');
  expect(rt.titles.length + rt.skipped.length).toBe(15);
  const profileTest = 'pnpm matrix runs every check on sqlite@3.53-vec0.1.9: it is in profile default';
  expect(rt.titles).toContain(profileTest);
  await expect(rt.bodies.get(profileTest)!()).resolves.toBeUndefined();
  const t = resolveSuiteTarget(readCatalogTarget('sqlite@3.53-vec0.1.9'), driver('sqlite'));
  expect({ index: t.index, faultClientTimeoutMs: t.tolerances.faultClientTimeoutMs, annShortfallMax: t.tolerances.annShortfallMax, faults: t.capabilities.faults }).toEqual({
    index: { type: 'none' },
    faultClientTimeoutMs: 8000,
    annShortfallMax: 0.02,
    faults: false,
  });
});

test("a target of the user's file over the catalog: its index, tolerances, capability overrides and adapterOptions parsed by the driver", async () => {
  const t = resolveSuiteTarget(readCatalogTarget('toy@1', ownCatalog), toyDriver);
  expect(t.index).toEqual({ type: 'hnsw', m: 8, efConstruction: 32, efSearch: 50 });
  expect({ score: t.tolerances.scoreTolerance, tie: t.tolerances.tieEpsilon, threshold: t.capabilities.threshold, options: t.adapterOptions }).toEqual({
    score: 1e-4,
    tie: 1e-5,
    threshold: false,
    options: { shards: 2 },
  });
  const rt = recorder();
  conformanceSuite({ target: 'toy@1', driver: toyDriver, catalog: ownCatalog, dataset: DATASET, profiles: ['mine', 'default'], runtime: rt, skip: { C03: 'not today' } });
  expect(rt.skipped).toContain('C03 topk-exact [skipped: not today]');
  const body = rt.bodies.get('pnpm matrix runs every check on toy@1: it is in profiles mine, default')!;
  await expect(body()).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('toy@1 is not in profile default of') });
});

test('errors by code, naming the file and key; nothing is registered', async () => {
  const rt = recorder();
  const suite = (o: Partial<Parameters<typeof conformanceSuite>[0]>) => () => conformanceSuite({ target: 'sqlite@3.53-vec0.1.9', driver: driver('sqlite'), dataset: DATASET, runtime: rt, ...o });
  expect(suite({ target: 'sqlite@3.53' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_TARGET', message: expect.stringContaining('targets of backend sqlite: sqlite@3.53-vec0.1.9') }));
  expect(suite({ driver: driver('lancedb') })).toThrow(
    expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/targets\.sqlite@3\.53-vec0\.1\.9\.backend: .* given driver lancedb/) }),
  );
  expect(suite({ index: { type: 'hnsw' } })).toThrow(
    expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('driver sqlite has no index type "hnsw"; it offers index types: none') }),
  );
  expect(suite({ skip: { C99: 'no' } })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('skip.C99: no such check') }));
  expect(suite({ dataset: 'no-such-dataset' })).toThrow(expect.objectContaining({ code: 'GOLDEN_MISSING' }));
  expect(suite({ target: 'toy@2', driver: toyDriver, catalog: ownCatalog })).toThrow(
    expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/memory-matrix\.yaml: targets\.toy@2\.capabilities: .*thresold/) }),
  );
  expect(rt.titles.length + rt.skipped.length).toBe(0);
  const container = readCatalogTarget('pgvector@pg17');
  await expect(openEmbeddedEngine(container, driver('pgvector'), undefined)).rejects.toMatchObject({
    code: 'INVALID_INPUT',
    message: expect.stringContaining('provider: container: conformanceSuite starts embedded targets itself'),
  });
});
