/**
 * Every check of the catalogue (C01–C31) is registered for every target of the catalog,
 * as a test or as a visible skip naming the missing capability — the same registration the CLI
 * and the jest matrix use (registerTargetCell). Nothing is started: registration is synchronous.
 */
import { loadCatalog } from '@memory-matrix/targets';
import { CHECKS, loadGoldenDataset, type TestBody, type TestRuntime } from '@memory-matrix/spec';
import { loadExpectation } from '../src/golden';
import { datasetDir, registerTargetCell } from '../src/run';

const NAMES = [
  'write-read',
  'self-recall',
  'topk-exact',
  'topk-under-filter',
  'ann-recall',
  'order-monotonic',
  'deterministic-ties',
  'score-canonical',
  'threshold',
  'metric-persisted',
  'dimension-guard',
  'degenerate-vectors',
  'numeric-range',
  'batch-complete',
  'durability',
  'upgrade-golden',
  'history-roundtrip',
  'ttl',
  'eviction',
  'serde-compat',
  'idempotent-upsert',
  'concurrency',
  'fault-surfaced',
  'time-decay',
  'isolation',
  'snapshot-rollback',
  'read-your-writes',
  'index-in-effect',
  'backend-errors',
  'connection-drop',
  'filter-semantics',
];
/** Ids in catalogue order: C01–C31. */
const IDS = NAMES.map((_, i) => `C${String(i + 1).padStart(2, '0')}`);
const ALL_NAMES = NAMES;

/** A runtime that only records what is registered. */
function recorder(): { rt: TestRuntime; titles: Array<{ title: string; skipped: boolean }> } {
  const titles: Array<{ title: string; skipped: boolean }> = [];
  const noop = (_fn: TestBody) => undefined;
  const test = Object.assign((title: string) => void titles.push({ title, skipped: false }), { skip: (title: string) => void titles.push({ title, skipped: true }) });
  return { rt: { describe: (_n, fn) => fn(), test, beforeAll: noop, afterAll: noop }, titles };
}

test('CHECKS holds C01–C31 in order with the catalogue names', () => {
  expect(CHECKS.map((c) => `${c.id} ${c.name}`)).toEqual(ALL_NAMES.map((n, i) => `${IDS[i]} ${n}`));
});

describe('every catalog target lists all 31 checks', () => {
  const catalog = loadCatalog();
  const dataset = loadGoldenDataset(datasetDir('agent-memories'));
  const { expectation } = loadExpectation(dataset, { update: false, tieEpsilon: 1e-5 });
  test.each([...catalog.targets.keys()])('%s', (name) => {
    const { rt, titles } = recorder();
    registerTargetCell(rt, catalog.targets.get(name)!, dataset, expectation, { runId: 'catalogue-test' });
    expect(titles.map((t) => t.title.slice(0, 3))).toEqual(IDS);
    for (const t of titles) {
      if (t.skipped) expect(t.title).toMatch(/^C\d\d [a-z-]+ \[skipped: capability: [A-Za-z][A-Za-z +]*\]$/);
      else expect(t.title).toMatch(/^C\d\d [a-z-]+$/);
    }
  });
});
