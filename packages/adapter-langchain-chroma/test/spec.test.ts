import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DEFAULT_TOLERANCES, loadGoldenDataset, parseExpectation, registerConformance, testSuiteChecks, type IndexConfig, type TestRuntime, type Tolerances } from '@memory-matrix/spec';
import { startTestServer, type TestServer } from '../../adapter-chroma/test/helpers/server';
import { connectLangchainChroma, LANGCHAIN_CHROMA_CAPABILITIES } from '../src';

/**
 * The shared conformance suite through LangChain.js `Chroma` (chromadb 3.5.0 under it) on a real
 * Chroma 1.0.0 (the raw chroma adapter's test server), with the committed golden dataset and its
 * oracle expectation; index and tolerances are langchain-chroma@1.0's from matrix/targets.yaml.
 * Checks: `testSuiteChecks()` (MM_CHECKS=all for every one); `pnpm matrix --profile langchain` runs
 * them all on the same server. The client's findings (README "Findings") are declared below: each
 * of those checks must fail exactly with the documented cause, so the suite notices a finding that
 * changes or goes away as much as a new failure.
 */
const root = path.resolve(__dirname, '..', '..', '..');
const catalog = parse(readFileSync(path.join(root, 'matrix', 'targets.yaml'), 'utf8')) as {
  defaults: { index: IndexConfig; tolerances?: Partial<Tolerances> };
  targets: Record<string, { index?: IndexConfig; tolerances?: Partial<Tolerances>; capabilities?: Record<string, unknown> }>;
};
const target = catalog.targets['langchain-chroma@1.0'];
const dataset = loadGoldenDataset(path.join(root, 'golden-data', 'agent-memories'));
const expectationFile = path.join(dataset.dir, 'expected', 'oracle.jsonl');
const expectation = parseExpectation(readFileSync(expectationFile, 'utf8'), expectationFile);
const caps = { ...LANGCHAIN_CHROMA_CAPABILITIES, ...(target?.capabilities ?? {}) };

/** README "Findings": check id → what every one of its failures says. */
const FINDINGS = new Map<string, RegExp>([
  // chromadb 3.x sends vectors as base64 float32: NaN / ±Inf / zero vectors are stored; Chroma refuses a NaN query.
  [
    'C12',
    /write of a (nan|posInf|negInf|zero) vector \(id [^)]+\) was accepted|the (nan|posInf|negInf|zero) batch was accepted \(expected INVALID_VECTOR\): \d+ of its \d+ records (is|are) stored|query with a (nan|posInf|negInf) vector: rejected with BACKEND_ERROR|count after the \d+ degenerate writes \(\d+ of them accepted, expected none\) is/,
  ],
  // addVectors is a Chroma upsert, which merges metadata: keys the new version dropped survive.
  ['C21', /after update: metadata keys expected \[[^\]]*\] got \[[^\]]*c21Stale/],
  // The client keeps Chroma's order: C08's exact ties (l2 probes at -2) are not in id order.
  ['C08', /probes with equal scores \S+ at ranks \d+ and \d+ not in id order/],
  // The same merge, seen by every client after the overwrite of round 3, and by the delete verification's get of the memories kept in rounds 4 and 6.
  [
    'C27',
    /\(overwrite of \d+ existing ids[^)]*\): .* get returned \S+ other than written: metadata keys expected|\(delete of \d+ ids?\).*: step kept: \d+ of the \d+ memories not deleted are missing or changed: (c27-\S+: metadata keys expected \[[^\]]*\] got \[[^\]]*\](, )?)+$/,
  ],
]);

const jestRuntime: TestRuntime = { describe, test, beforeAll, afterAll };
let server: TestServer | undefined;
registerConformance(
  jestRuntime,
  { target: 'langchain-chroma@1.0 (adapter test)', dataset: dataset.manifest.name, capabilities: caps },
  async () => {
    server = await startTestServer();
    const url = `http://127.0.0.1:${server.port}`;
    return {
      target: 'langchain-chroma@1.0',
      capabilities: caps,
      tolerances: { ...DEFAULT_TOLERANCES, ...catalog.defaults.tolerances, ...target?.tolerances },
      index: target?.index ?? catalog.defaults.index,
      dataset,
      expectation,
      connect: () => connectLangchainChroma({ url }),
    };
  },
  { teardown: async () => server?.stop(), checks: testSuiteChecks(), findings: FINDINGS },
);
