import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_TOLERANCES, loadGoldenDataset, parseExpectation, registerConformance, testSuiteChecks, type TestRuntime, type Tolerances } from '@memory-matrix/spec';
import { parse } from 'yaml';
import { SQLITE_CAPABILITIES, sqliteEmbeddedEngine, type SqliteEngine } from '../src';

/**
 * The shared conformance suite (packages/spec) against this adapter on a real SQLite file with
 * sqlite-vec's vec0, with the committed golden dataset and its oracle expectation. Index: none
 * (vec0 KNN is exhaustive); tolerances are the catalog defaults from matrix/targets.yaml.
 * Checks: `testSuiteChecks()` (MM_CHECKS=all for every one); the others run on the same engine in
 * `pnpm matrix`'s default profile (sqlite@3.53-vec0.1.9), which `.ci/run` runs after the tests —
 * the last test below fails if that profile stops covering this engine.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const catalog = parse(readFileSync(path.join(root, 'matrix', 'targets.yaml'), 'utf8')) as {
  defaults: { tolerances?: Partial<Tolerances> };
  targets: Record<string, { backend: string; engine?: string }>;
  profiles: { default: { targets: string[] } };
};
const dataset = loadGoldenDataset(path.join(root, 'golden-data', 'agent-memories'));
const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
const expectation = parseExpectation(readFileSync(expectationFile, 'utf8'), expectationFile);

const jestRuntime: TestRuntime = { describe, test, beforeAll, afterAll };
let engine: SqliteEngine | undefined;

registerConformance(
  jestRuntime,
  { target: 'sqlite@embedded (adapter test)', dataset: dataset.manifest.name, capabilities: SQLITE_CAPABILITIES },
  async () => {
    engine = await sqliteEmbeddedEngine();
    return {
      target: 'sqlite@embedded',
      capabilities: SQLITE_CAPABILITIES,
      tolerances: { ...DEFAULT_TOLERANCES, ...catalog.defaults.tolerances },
      index: { type: 'none' },
      dataset,
      expectation,
      connect: () => engine!.connect(),
    };
  },
  { teardown: async () => engine?.stop(), checks: testSuiteChecks() },
);

test('pnpm matrix (default profile) runs every check on this engine: a sqlite target on sqlite-vec-0.1 is in it', () => {
  const covering = catalog.profiles.default.targets.filter((n) => catalog.targets[n]?.backend === 'sqlite' && catalog.targets[n]?.engine === 'sqlite-vec-0.1');
  expect(covering).toEqual(['sqlite@3.53-vec0.1.9']);
});
