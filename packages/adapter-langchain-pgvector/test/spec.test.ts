import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_TOLERANCES, loadGoldenDataset, parseExpectation, registerConformance, testSuiteChecks, type IndexConfig, type TestRuntime, type Tolerances } from '@memory-matrix/spec';
import { connectLangchainPgvector, LANGCHAIN_PGVECTOR_CAPABILITIES } from '../src';
import { servedPGlite, serverProblem } from './helpers/server';

/**
 * The shared conformance suite (packages/spec) through LangChain.js's PGVectorStore on a real
 * server — PostgreSQL 18.6 + pgvector 0.8.7 (PGlite 0.5 served on a loopback port, as
 * `langchain-pgvector@pglite-pg18` runs) — with the committed golden dataset, its oracle
 * expectation, and the catalog's index for this target (HNSW, efSearch 40: the client sets none).
 * Checks: `testSuiteChecks()` (MM_CHECKS=all for every one) except C12, which fails on this client
 * (it stores a zero vector under cosine and returns NaN scores for it; measured and asserted in
 * langchain-pgvector.test.ts; `pnpm matrix --backend langchain-pgvector@…` reports it as a failure).
 * The last test fails if the langchain profile stops covering this target.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const catalog = parse(readFileSync(path.join(root, 'matrix', 'targets.yaml'), 'utf8')) as {
  defaults: { tolerances?: Partial<Tolerances> };
  targets: Record<string, { backend: string; server?: string; index?: IndexConfig }>;
  profiles: Record<string, { targets: string[] }>;
};
const TARGET = 'langchain-pgvector@pglite-pg18';
const dataset = loadGoldenDataset(path.join(root, 'golden-data', 'agent-memories'));
const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
const expectation = parseExpectation(readFileSync(expectationFile, 'utf8'), expectationFile);
const jestRuntime: TestRuntime = { describe, test, beforeAll, afterAll };
const checks = testSuiteChecks().filter((c) => c.id !== 'C12');
/** README "What the client does": check id → what every one of its failures says. */
const FINDINGS = new Map<string, RegExp>([
  // The client orders by _distance alone: C08's exact ties (l2 probes at -2) come in the scan's order, not by id.
  ['C08', /probes with equal scores \S+ at ranks \d+ and \d+ not in id order/],
]);

if (serverProblem('langchain-pgvector conformance suite') === null) {
  let server: Awaited<ReturnType<typeof servedPGlite>> | undefined;
  registerConformance(
    jestRuntime,
    { target: `${TARGET} (adapter test)`, dataset: dataset.manifest.name, capabilities: LANGCHAIN_PGVECTOR_CAPABILITIES },
    async () => {
      server = await servedPGlite(TARGET);
      return {
        target: TARGET,
        capabilities: LANGCHAIN_PGVECTOR_CAPABILITIES,
        tolerances: { ...DEFAULT_TOLERANCES, ...catalog.defaults.tolerances },
        index: catalog.targets[TARGET]!.index!,
        dataset,
        expectation,
        connect: () => connectLangchainPgvector(server!.address),
      };
    },
    { teardown: async () => server?.close(), checks, findings: FINDINGS },
  );
}

test('pnpm matrix runs every check through the client on every server: the langchain profile holds its targets over pg17, pg18 and pglite-pg18', () => {
  const covering = catalog.profiles.langchain!.targets.filter((n) => catalog.targets[n]?.backend === 'langchain-pgvector');
  expect(covering.map((n) => catalog.targets[n]!.server)).toEqual(['pgvector@pg17', 'pgvector@pg18', 'pgvector@pglite-pg18']);
});
