import { conformanceSuite } from '@memory-matrix/spec/testing';
import { chromaDriver, createChromaStore } from '../src';
import { startTestServer } from './helpers/server';

/**
 * The shared conformance suite (packages/spec) on the catalog target chroma@1.0 (index, tolerances
 * and capabilities from its entry in matrix/targets.yaml), on a real Chroma 1.0.0 server (bindings
 * 1.0.1, test/helpers/server.ts; the runner starts the same server through its local provider,
 * packages/targets/src/local), with the committed golden dataset and its oracle expectation.
 * Checks: `testSuiteChecks()` (MM_CHECKS=all for every one); the others run on chroma@1.0 in
 * `pnpm matrix`'s default profile, which `.ci/run` runs after the tests: the profile test fails if
 * that profile stops listing it.
 */
conformanceSuite({
  target: 'chroma@1.0',
  driver: chromaDriver,
  profiles: ['default'],
  open: async () => {
    const server = await startTestServer();
    return { connect: () => createChromaStore({ port: server.port }), close: () => server.stop() };
  },
});
