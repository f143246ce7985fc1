import type { CheckDefinition } from '../checks/check';
import { CHECKS } from '../checks/index';
import { MemoryMatrixError } from '../errors';

/**
 * The checks a jest conformance suite registers by default (the adapters' spec.test.ts and the
 * runner's matrix.test.ts): every part of a cell is wired and exercised — the golden load, the
 * exact replay against the oracle (C03, which compares rank by rank), the adapter's own semantics (write
 * and read back, scores, metric, input guards, numeric filters, history, serde, upserts,
 * concurrency, time decay, isolation, read-your-writes).
 *
 * Left to `pnpm matrix`: the checks that replay the whole golden set again in another way —
 * C02 self-recall, C04 topk-under-filter, C05 ann-recall, C06 order-monotonic (its index-path
 * replay: 21 s of 84 s on adapter-sqlite's narrowed suite), C07 deterministic-ties, C09 threshold,
 * C14 batch-complete, C26 snapshot-rollback; C18/C19 (Redis only); and the fault checks C15, C16,
 * C23, which packages/runner/test/durability.test.ts runs through the CLI on pgvector@pg18 (with
 * pg17 for C16) and the backends' fault suites exercise piece by piece. `.ci/run` runs `pnpm
 * matrix` over the default profile right after `pnpm test`, and that profile holds every target
 * these suites run (the suites assert it), so every check still runs on every such target in CI.
 * Measured under jest on this 2-core machine (one run, ts-jest, loaded machine): the left-out
 * checks took 218 s of the 258 s of adapter-sqlite's suite (C07 62 s, C26 54 s, C04 41 s, C14 21 s,
 * C02 20 s, C09 10 s).
 */
export const TEST_SUITE_CHECK_IDS: readonly string[] = ['C01', 'C03', 'C08', 'C10', 'C11', 'C12', 'C13', 'C17', 'C20', 'C21', 'C22', 'C24', 'C25', 'C27'];

/**
 * The checks a jest conformance suite registers, in catalogue order: `TEST_SUITE_CHECK_IDS` when
 * `MM_CHECKS` is unset or empty; every check when it is `all`; else the comma-separated ids
 * (`C07`) or names (`deterministic-ties`) it lists (the env twin of `pnpm matrix --check`).
 * Throws INVALID_INPUT naming MM_CHECKS and the entry when an entry is no known check.
 */
export function testSuiteChecks(env: NodeJS.ProcessEnv = process.env): CheckDefinition[] {
  const raw = (env.MM_CHECKS ?? '').trim();
  if (raw.toLowerCase() === 'all') return [...CHECKS];
  const wanted =
    raw === ''
      ? [...TEST_SUITE_CHECK_IDS]
      : raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const known = (s: string) => CHECKS.find((c) => c.id.toLowerCase() === s.toLowerCase() || c.name === s.toLowerCase());
  const unknown = wanted.filter((s) => !known(s));
  if (unknown.length) {
    throw new MemoryMatrixError('INVALID_INPUT', `MM_CHECKS: no check ${unknown.map((s) => `"${s}"`).join(', ')} (known: ${CHECKS.map((c) => c.id).join(', ')}, their names, or "all")`);
  }
  return CHECKS.filter((c) => wanted.some((s) => known(s) === c));
}
