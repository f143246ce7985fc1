import { conformanceSuite } from '@memory-matrix/spec/testing';
import { pgvectorDriver } from '../src';

/**
 * The shared conformance suite (packages/spec) on both PGlite catalog targets (pgvector@pglite-pg16,
 * pgvector@pglite-pg18: the driver's embedded engines pglite-0.2 and pglite-0.5; index, tolerances
 * and capabilities from their entries in matrix/targets.yaml), with the committed golden dataset
 * and its oracle expectation. Checks: `testSuiteChecks()` (MM_CHECKS=all for every one); the others
 * run on both targets in `pnpm matrix`'s default profile, which `.ci/run` runs after the tests: the
 * profile test of each fails if that profile stops listing it.
 */
for (const target of ['pgvector@pglite-pg16', 'pgvector@pglite-pg18']) conformanceSuite({ target, driver: pgvectorDriver, profiles: ['default'] });
