import { conformanceSuite } from '@memory-matrix/spec/testing';
import { sqliteDriver } from '../src';

/**
 * The shared conformance suite (packages/spec) on the catalog target sqlite@3.53-vec0.1.9 (a real
 * SQLite file with sqlite-vec's vec0; index, tolerances and capabilities from its entry in
 * matrix/targets.yaml), with the committed golden dataset and its oracle expectation. Checks:
 * `testSuiteChecks()` (MM_CHECKS=all for every one); the others run on this target in `pnpm
 * matrix`'s default profile, which `.ci/run` runs after the tests: the profile test fails if it stops listing it.
 */
conformanceSuite({ target: 'sqlite@3.53-vec0.1.9', driver: sqliteDriver, profiles: ['default'] });
