import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_TOLERANCES, loadGoldenDataset, parseExpectation, registerConformance, testSuiteChecks, type IndexConfig, type TestRuntime, type Tolerances } from '@memory-matrix/spec';
import { CHROMA_CAPABILITIES, createChromaStore } from '../src';
import { startTestServer, type TestServer } from './helpers/server';

/**
 * The shared conformance suite (packages/spec) against this adapter on a real Chroma 1.0.0
 * server (bindings 1.0.1), with the committed golden dataset and its oracle expectation. Index
 * and tolerances are chroma@1.0's from matrix/targets.yaml; the runner runs the same suite
 * through the local provider (packages/backends/src/local).
 * Checks: `testSuiteChecks()` (MM_CHECKS=all for every one); the others run on the same server in
 * `pnpm matrix`'s default profile (chroma@1.0, local provider), which `.ci/run` runs after the
 * tests — the last test below fails if that profile stops covering it.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const catalog = parse(readFileSync(path.join(root, 'matrix', 'targets.yaml'), 'utf8')) as {
  defaults: { index: IndexConfig; tolerances?: Partial<Tolerances> };
  targets: Record<string, { backend?: string; engine?: string; index?: IndexConfig; tolerances?: Partial<Tolerances>; capabilities?: Record<string, unknown> }>;
  profiles: { default: { targets: string[] } };
};
const target = catalog.targets['chroma@1.0'];
const dataset = loadGoldenDataset(path.join(root, 'golden-data', 'agent-memories'));
const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
const expectation = parseExpectation(readFileSync(expectationFile, 'utf8'), expectationFile);
const caps = { ...CHROMA_CAPABILITIES, ...(target?.capabilities ?? {}) };

const jestRuntime: TestRuntime = { describe, test, beforeAll, afterAll };
let server: TestServer | undefined;
registerConformance(
  jestRuntime,
  { target: 'chroma@1.0 (adapter test)', dataset: dataset.manifest.name, capabilities: caps },
  async () => {
    server = await startTestServer();
    const port = server.port;
    return {
      target: 'chroma@1.0',
      capabilities: caps,
      tolerances: { ...DEFAULT_TOLERANCES, ...catalog.defaults.tolerances, ...target?.tolerances },
      index: target?.index ?? catalog.defaults.index,
      dataset,
      expectation,
      connect: () => createChromaStore({ port }),
    };
  },
  { teardown: async () => server?.stop(), checks: testSuiteChecks() },
);

test('pnpm matrix (default profile) runs every check on this server: a chroma target on chroma-bindings-1.0 is in it', () => {
  const covering = catalog.profiles.default.targets.filter((n) => catalog.targets[n]?.backend === 'chroma' && catalog.targets[n]?.engine === 'chroma-bindings-1.0');
  expect(covering).toEqual(['chroma@1.0']);
});
