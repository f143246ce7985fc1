import { conformanceSuite } from '@memory-matrix/spec/testing';
import { libsqlDriver } from '../src';

/**
 * The shared conformance suite (packages/spec) on the catalog target libsql@0.5 (the libsql
 * package's database file in a temp dir; tolerances and capabilities from its entry in
 * matrix/targets.yaml), with the committed golden dataset and its oracle expectation. Index: none
 * (every recall `vector_distance_cos`): the catalog's DiskANN build takes 681 s on agent-memories,
 * and its index path runs in `pnpm matrix --backend libsql@0.5`, as every check this suite leaves
 * out (`testSuiteChecks()`; MM_CHECKS=all for every one). The target is in no profile yet.
 */
conformanceSuite({ target: 'libsql@0.5', driver: libsqlDriver, index: { type: 'none' } });
