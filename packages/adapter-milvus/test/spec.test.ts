import { testSuiteChecks } from '@memory-matrix/spec';
import { conformanceSuite } from '@memory-matrix/spec/testing';
import { milvusContainerKind, milvusDriver } from '../src';
import { gateSuite, startMilvus, stopMilvus } from './helpers/server';

/**
 * The shared conformance suite (packages/spec) on the catalog target milvus@lite-1.2 (index,
 * tolerances and capabilities from its entry in matrix/targets.yaml) on a real
 * kylin-ai-vector-engine 1.2 container (the milvus@lite-1.2 offline image), with the committed
 * golden dataset and its oracle expectation. Checks: `testSuiteChecks()` (MM_CHECKS=all for every
 * one) except C22, a listed known failure of this server (matrix/targets.yaml knownFailures;
 * reproduced in test/milvus.test.ts "concurrent upserts"): left out here, and
 * `pnpm matrix --backend milvus@lite-1.2` runs it. Needs Docker and the image: skipped with the
 * reason in the title, a failure under CI=true.
 */
const { image, gate } = gateSuite('milvus conformance');

if (!gate) {
  conformanceSuite({
    target: 'milvus@lite-1.2',
    driver: milvusDriver,
    checks: testSuiteChecks().filter((c) => c.id !== 'C22'),
    open: async () => {
      const server = await startMilvus(image, `test-milvus-spec-${process.pid}`, (ep) => milvusContainerKind.probe(ep, 5_000));
      return { connect: () => milvusContainerKind.connect(server.ep, undefined, undefined), close: async () => stopMilvus(server.id) };
    },
  });
} else {
  describe.skip(`milvus@lite-1.2 conformance — SKIPPED: ${gate}`, () => {
    test('conformance', () => undefined);
  });
}
