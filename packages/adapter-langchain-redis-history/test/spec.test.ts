import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_TOLERANCES, loadGoldenDataset, parseExpectation, registerConformance, testSuiteChecks, type TestRuntime } from '@memory-matrix/spec';
import { redis8Gate, startRedis8, stopRedis8 } from '../../adapter-redis/test/helpers/redis8';
import { connectLangchainRedisHistory, LANGCHAIN_REDIS_HISTORY_CAPABILITIES } from '../src';

/**
 * The shared conformance suite through LangChain.js `RedisChatMessageHistory` on a real Redis 8.0
 * (the offline redis@8.0 image), golden dataset and oracle expectation. Chat history only: of
 * `testSuiteChecks()` C17, C20 and C22 run, the vector checks skip (capability vectors); `pnpm
 * matrix --profile langchain` runs every check (C15, C16, C18 too) on redis@7.0 and redis@8.0.
 * The client's findings (README "Findings") are declared below: each of those checks must fail
 * exactly with the documented cause. Needs Docker and the image: skipped with the reason in the
 * title, a failure under CI=true.
 */
const { image, gate } = redis8Gate();
if (gate && process.env.CI === 'true') {
  test(`langchain-redis-history conformance needs Docker and the redis@8.0 image under CI=true: ${gate}`, () => {
    throw new Error(`CI=true but ${gate}`);
  });
}

/** README "Findings": check id → what every one of its failures says. */
const FINDINGS = new Map<string, RegExp>([
  // LangChain's stored messages carry no format version.
  ['C20', /payload \d+ written by this version carries no numeric version "v"/],
  // addMessages = one LPUSH (+ EXPIRE) per message: concurrent calls interleave inside a batch.
  ['C22', /writer \d+'s batch of \d+ \(one append call\) is split/],
]);

const root = path.resolve(__dirname, '..', '..', '..');
const dataset = loadGoldenDataset(path.join(root, 'golden-data', 'agent-memories'));
const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
const expectation = parseExpectation(readFileSync(expectationFile, 'utf8'), expectationFile);
const caps = LANGCHAIN_REDIS_HISTORY_CAPABILITIES;
const jestRuntime: TestRuntime = { describe, test, beforeAll, afterAll };

if (gate) {
  describe.skip(`langchain-redis-history@redis-8.0 conformance — SKIPPED: ${gate}`, () => {
    test('conformance suite', () => undefined);
  });
} else {
  let cid: string | undefined;
  registerConformance(
    jestRuntime,
    { target: 'langchain-redis-history@redis-8.0 (adapter test)', dataset: dataset.manifest.name, capabilities: caps },
    async () => {
      const c = startRedis8(image, `test-lc-redis-history-spec-${process.pid}`);
      cid = c.id;
      const url = `redis://127.0.0.1:${c.port}`;
      return {
        target: 'langchain-redis-history@redis-8.0',
        capabilities: caps,
        tolerances: DEFAULT_TOLERANCES,
        index: { type: 'none' },
        dataset,
        expectation,
        connect: () => connectLangchainRedisHistory({ url }),
      };
    },
    { teardown: async () => stopRedis8(cid), checks: testSuiteChecks(), findings: FINDINGS },
  );
}
