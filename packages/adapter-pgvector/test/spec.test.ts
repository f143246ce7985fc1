import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_TOLERANCES, loadGoldenDataset, parseExpectation, type IndexConfig, type Tolerances } from '@memory-matrix/spec';
import { registerConformance, testSuiteChecks, type TestRuntime } from '@memory-matrix/spec';
import { createPgvectorStore, fromPGlite, PGVECTOR_CAPABILITIES, type PGliteLike } from '../src';
import { ENGINES, openEngine } from './helpers/engines';

/**
 * The shared conformance suite (packages/spec) against this adapter on both PGlite engines, with
 * the committed golden dataset and its oracle expectation. Index and tolerances are the catalog
 * defaults from matrix/targets.yaml; the runner runs the same suite through the embedded provider.
 * Checks: `testSuiteChecks()` (MM_CHECKS=all for every one); the others run on both engines in
 * `pnpm matrix`'s default profile (pgvector@pglite-pg16, pgvector@pglite-pg18), which `.ci/run`
 * runs after the tests — the last test below fails if that profile stops covering an engine.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const catalog = parse(readFileSync(path.join(root, 'matrix', 'targets.yaml'), 'utf8')) as {
  defaults: { index: IndexConfig; tolerances?: Partial<Tolerances> };
  targets: Record<string, { backend: string; engine?: string }>;
  profiles: { default: { targets: string[] } };
};
const dataset = loadGoldenDataset(path.join(root, 'golden-data', 'agent-memories'));
const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
const expectation = parseExpectation(readFileSync(expectationFile, 'utf8'), expectationFile);

const jestRuntime: TestRuntime = { describe, test, beforeAll, afterAll };

for (const engine of ENGINES) {
  let db: PGliteLike | undefined;
  registerConformance(
    jestRuntime,
    { target: `pgvector@${engine} (adapter test)`, dataset: dataset.manifest.name, capabilities: PGVECTOR_CAPABILITIES },
    async () => {
      const pglite = await openEngine(engine);
      db = pglite;
      return {
        target: `pgvector@${engine}`,
        capabilities: PGVECTOR_CAPABILITIES,
        tolerances: { ...DEFAULT_TOLERANCES, ...catalog.defaults.tolerances },
        index: catalog.defaults.index,
        dataset,
        expectation,
        connect: () => createPgvectorStore(fromPGlite(pglite)),
      };
    },
    { teardown: async () => db?.close(), checks: testSuiteChecks() },
  );
}

test.each(ENGINES)('pnpm matrix (default profile) runs every check on this engine: a pgvector target on %s is in it', (engine) => {
  const covering = catalog.profiles.default.targets.filter((n) => catalog.targets[n]?.backend === 'pgvector' && catalog.targets[n]?.engine === engine);
  expect(covering).toHaveLength(1);
});
