/**
 * The conformance matrix under jest: the same targets, checks and cell code as `pnpm matrix`
 * (registerTargetCell), one jest test per check per target. Targets come from MM_TARGETS
 * (comma-separated) or else the pr-gate profile, selected as the CLI selects them. Checks:
 * `testSuiteChecks()` (packages/spec), MM_CHECKS=all for every one; `.ci/run` runs `pnpm matrix`
 * over the default profile right after the tests, which runs every check on these targets.
 */
import { loadCatalog } from '@memory-matrix/targets';
import { loadGoldenDataset, testSuiteChecks, type TestRuntime } from '@memory-matrix/spec';
import { loadExpectation } from '../src/golden';
import { datasetDir, registerTargetCell, runIdOf } from '../src/run';
import { catalogFile, parseRepeat, selectTargets } from '../src/select';
import { containerGate } from './docker-gate';
import { targetsFromEnv } from './env';

const catalog = loadCatalog(catalogFile()); // MM_CATALOG: another targets.yaml, as for the CLI
const dataset = loadGoldenDataset(datasetDir(process.env.MM_DATASET ?? 'agent-memories'));
const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
const { expectation } = loadExpectation(dataset, { update: false, tieEpsilon });
const rt: TestRuntime = { describe, test, beforeAll, afterAll };

// Same selection as the CLI: the profile's targets when Docker answers (always under CI=true,
// where a missing engine or image then fails), else its embedded fallback, visibly.
const gate = containerGate([...catalog.targets.values()].filter((t) => t.provider === 'container' && t.offline));
const docker = process.env.CI === 'true' || gate === '';
if (!docker) console.warn(`matrix.test: container targets skipped: ${gate}; running the profile's embedded fallback`);
// jest runs the pr-gate profile by default (pgvector in containers and embedded, durability and
// upgrade checks included); `.ci/run` runs `pnpm matrix` over the whole default profile right after,
// so running every target twice would only double CI time. MM_PROFILE / MM_TARGETS choose others.
const { targets } = selectTargets(catalog, { backends: targetsFromEnv(), profile: process.env.MM_PROFILE ?? 'pr-gate', docker, shard: null });
const runId = runIdOf(new Date());
const checks = testSuiteChecks(); // MM_CHECKS: the env twin of --check ('all': every check)
for (const target of targets) {
  registerTargetCell(rt, target, dataset, expectation, { runId, checks, repeat: parseRepeat(process.env.MM_REPEAT) }); // MM_REPEAT: the env twin of --repeat
}

// Asserted for the selection CI makes (no MM_TARGETS / MM_PROFILE / MM_CATALOG): another choice is the user's own.
const ciSelection = targetsFromEnv().length === 0 && !process.env.MM_PROFILE && !process.env.MM_CATALOG;
(ciSelection ? test : test.skip)('pnpm matrix (default profile, .ci/run) runs every check on every target this suite runs', () => {
  const inDefault = new Set(selectTargets(catalog, { backends: [], profile: 'default', docker, shard: null }).targets.map((t) => t.name));
  expect(targets.map((t) => t.name).filter((n) => !inDefault.has(n))).toEqual([]);
});
