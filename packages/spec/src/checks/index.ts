import type { CheckDefinition } from './check';
import { c01WriteRead } from './c01-write-read';
import { c02SelfRecall } from './c02-self-recall';
import { c03TopkExact } from './c03-topk-exact';
import { c04TopkUnderFilter } from './c04-topk-under-filter';
import { c05AnnRecall } from './c05-ann-recall';
import { c06OrderMonotonic } from './c06-order-monotonic';
import { c07DeterministicTies } from './c07-deterministic-ties';
import { c08ScoreCanonical } from './c08-score-canonical';
import { c09Threshold } from './c09-threshold';
import { c10MetricPersisted } from './c10-metric-persisted';
import { c11DimensionGuard } from './c11-dimension-guard';
import { c12DegenerateVectors } from './c12-degenerate-vectors';
import { c13NumericRange } from './c13-numeric-range';
import { c14BatchComplete } from './c14-batch-complete';
import { c15Durability } from './c15-durability';
import { c16UpgradeGolden } from './c16-upgrade-golden';
import { c17HistoryRoundtrip } from './c17-history-roundtrip';
import { c18Ttl } from './c18-ttl';
import { c19Eviction } from './c19-eviction';
import { c20SerdeCompat } from './c20-serde-compat';
import { c21IdempotentUpsert } from './c21-idempotent-upsert';
import { c22Concurrency } from './c22-concurrency';
import { c23FaultSurfaced } from './c23-fault-surfaced';
import { c24TimeDecay } from './c24-time-decay';
import { c25Isolation } from './c25-isolation';
import { c26SnapshotRollback } from './c26-snapshot-rollback';
import { c27ReadYourWrites } from './c27-read-your-writes';
import { c28IndexInEffect } from './c28-index-in-effect';
import { c29BackendErrors } from './c29-backend-errors';
import { c30ConnectionDrop } from './c30-connection-drop';
import { c31FilterSemantics } from './c31-filter-semantics';

/** Every implemented check of the catalogue (README.md "Checks"), in id order. Registration order = report order. */
export const CHECKS: readonly CheckDefinition[] = [
  c01WriteRead,
  c02SelfRecall,
  c03TopkExact,
  c04TopkUnderFilter,
  c05AnnRecall,
  c06OrderMonotonic,
  c07DeterministicTies,
  c08ScoreCanonical,
  c09Threshold,
  c10MetricPersisted,
  c11DimensionGuard,
  c12DegenerateVectors,
  c13NumericRange,
  c14BatchComplete,
  c15Durability,
  c16UpgradeGolden,
  c17HistoryRoundtrip,
  c18Ttl,
  c19Eviction,
  c20SerdeCompat,
  c21IdempotentUpsert,
  c22Concurrency,
  c23FaultSurfaced,
  c24TimeDecay,
  c25Isolation,
  c26SnapshotRollback,
  c27ReadYourWrites,
  c28IndexInEffect,
  c29BackendErrors,
  c30ConnectionDrop,
  c31FilterSemantics,
];

/** The checks whose id (`C03`) or name (`topk-exact`) is in `selection`; all when empty. */
export function selectChecks(selection: readonly string[] = []): CheckDefinition[] {
  if (selection.length === 0) return [...CHECKS];
  const want = new Set(selection.map((s) => s.toLowerCase()));
  return CHECKS.filter((c) => want.has(c.id.toLowerCase()) || want.has(c.name));
}
