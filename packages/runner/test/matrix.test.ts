/**
 * The conformance matrix under jest: the same targets, checks and cell code as `pnpm matrix`
 * (registerTargetCell), one jest test per check per target. Targets come from MM_TARGETS
 * (comma-separated) or else the default profile, exactly as the CLI selects them.
 */
import { loadCatalog } from '@memory-matrix/backends';
import { loadGoldenDataset, type TestRuntime } from "@memory-matrix/spec";
import { loadExpectation } from '../src/golden';
import { datasetDir, registerTargetCell, runIdOf } from '../src/run';
import { selectTargets } from '../src/select';
import { targetsFromEnv } from './env';

const catalog = loadCatalog();
const dataset = loadGoldenDataset(datasetDir(process.env.MM_DATASET ?? 'agent-memories'));
const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
const { expectation } = loadExpectation(dataset, { update: false, tieEpsilon });
const rt: TestRuntime = { describe, test, beforeAll, afterAll };

const { targets } = selectTargets(catalog, { backends: targetsFromEnv(), profile: process.env.MM_PROFILE ?? 'default', docker: false, shard: null });
for (const target of targets) {
  registerTargetCell(rt, target, dataset, expectation, { runId: runIdOf(new Date()) });
}
