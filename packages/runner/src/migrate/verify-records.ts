import { diffRecords, type MemoryRecord, type RecordDifference, type VectorComparison } from '@memory-matrix/spec';
import { MAX_FAILURE_LINES, type MigrationCheck, type MigrationCheckName } from './types';

/** Which record field each check owns. */
const FIELD_CHECK: Record<RecordDifference['field'], MigrationCheckName> = {
  text: 'text',
  metadata: 'metadata',
  createdAt: 'timestamps',
  namespace: 'fields',
  kind: 'fields',
  embedding: 'vectors',
};

const RULES: Record<Exclude<MigrationCheckName, 'recall'>, string> = {
  count: "B's count() and the number of records B's scan returns equal the number exported from A",
  ids: "the ids B's scan returns are exactly the ids exported from A (none missing, none extra, none twice)",
  text: 'text byte for byte (UTF-8); a difference names the first differing byte',
  metadata: 'metadata deep-equal: the same keys, each value Object.is-equal (0, "", false, null keep their type)',
  timestamps: 'createdAt byte for byte (canonical UTC instant, ms or µs)',
  fields: 'namespace and kind equal',
  vectors: 'embedding',
};

/**
 * Compare B's read-back (`actual`, from a new client's scan, and `countB` from B's count()) with
 * A's export (`expected`). Every failure line names the row. Returns the checks count, ids, text,
 * metadata, timestamps, fields and vectors, in that order.
 */
export function verifyRecords(expected: MemoryRecord[], actual: MemoryRecord[], countB: number, vectors: VectorComparison, vectorNote: string[]): MigrationCheck[] {
  const checks = new Map<MigrationCheckName, MigrationCheck>();
  const check = (name: Exclude<MigrationCheckName, 'recall'>): MigrationCheck => {
    let c = checks.get(name);
    if (!c) {
      const rule =
        name === 'vectors'
          ? vectors.mode === 'bit-exact'
            ? 'embedding bit-exact: every float32 component identical (−0 ≠ 0)'
            : `embedding within the declared quantization error: 1 − cos ≤ ${vectors.maxCosineDistance}`
          : RULES[name];
      c = { name, status: 'pass', rule, figures: {}, failureCount: 0, failures: [], notes: [] };
      checks.set(name, c);
    }
    return c;
  };
  const fail = (c: MigrationCheck, line: string): void => {
    c.status = 'fail';
    c.failureCount++;
    if (c.failures.length < MAX_FAILURE_LINES) c.failures.push(line);
  };

  const count = check('count');
  count.figures = { exported: expected.length, readBack: actual.length, countB };
  if (actual.length !== expected.length) fail(count, `B's scan returned ${actual.length} records, A exported ${expected.length}`);
  if (countB !== expected.length) fail(count, `B's count() is ${countB}, A exported ${expected.length}`);

  const ids = check('ids');
  const byId = new Map<string, MemoryRecord>();
  let duplicates = 0;
  for (const r of actual) {
    if (byId.has(r.id)) {
      duplicates++;
      fail(ids, `${r.id}: returned twice by B's scan`);
    }
    byId.set(r.id, r);
  }
  const exportedIds = new Set(expected.map((r) => r.id));
  const missing = expected.filter((r) => !byId.has(r.id));
  const extra = [...byId.keys()].filter((id) => !exportedIds.has(id));
  for (const r of missing) fail(ids, `${r.id}: exported from A, missing in B`);
  for (const id of extra) fail(ids, `${id}: in B, never exported from A`);
  ids.figures = { missing: missing.length, extra: extra.length, duplicates };

  for (const name of ['text', 'metadata', 'timestamps', 'fields', 'vectors'] as const) check(name);
  const differing = new Map<MigrationCheckName, Set<string>>();
  for (const a of expected) {
    const b = byId.get(a.id);
    if (!b) continue;
    for (const d of diffRecords(a, b, vectors)) {
      const name = FIELD_CHECK[d.field];
      fail(checks.get(name)!, d.message);
      (differing.get(name) ?? differing.set(name, new Set()).get(name)!).add(a.id);
    }
  }
  const compared = expected.length - missing.length;
  for (const name of ['text', 'metadata', 'timestamps', 'fields', 'vectors'] as const) {
    checks.get(name)!.figures = { compared, rowsDiffering: differing.get(name)?.size ?? 0 };
  }
  checks.get('vectors')!.notes.push(...vectorNote);
  return [...checks.values()];
}
