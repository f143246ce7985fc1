import type { Failure } from '../comparator';
import type { MemoryRecord } from '../types';
import { type CheckDefinition, failure, needs } from './check';

/**
 * Rows written when the adapter declares no max batch (Redis): above every per-request limit known
 * in the catalog's backends — PostgreSQL's 65,535 bind parameters / 7 columns = 9,362 rows, Chroma's
 * 5,461 — so an adapter that forgot to declare and chunk such a limit is caught. Was 12,000; the
 * writes are the check's whole time (redis@8.0: 12,000 records in 66 s at load ~17, ≈5.5 ms per
 * VADD + HSET), and 10,000 is the first round count above 9,362.
 */
const DEFAULT_ROWS = 10_000;

/**
 * C14 batch-complete: one write of more records than the backend's max batch (the adapter's
 * declared `maxBatch` × 2 + 1, at least 6,000 rows, or 10,000 when undeclared) lands every record —
 * the adapter chunks — or fails loudly; never a partial success. Records reuse golden vectors and
 * texts under new ids (`c14-<n>`) so the count exceeds the golden set when needed.
 */
export const c14BatchComplete: CheckDefinition = {
  id: 'C14',
  name: 'batch-complete',
  requires: needs('vectors'),
  timeoutMs: 600_000,
  async run(cell) {
    const max = cell.config.capabilities.maxBatch;
    // Two full chunks and a partial one of a single record (was 2.5 × max: the same three chunks
    // with a larger tail; chroma@1.4, max 5,461: 13,653 rows in 131 s at load ~17, now 10,923): a
    // backend that refuses an unchunked batch, an adapter that drops the tail chunk or a middle one,
    // all still show. At least 6,000 rows.
    const n = max ? Math.max(6_000, 2 * max + 1) : DEFAULT_ROWS;
    const src = cell.dataset.memories;
    const records: MemoryRecord[] = Array.from({ length: n }, (_, i) => ({ ...src[i % src.length], id: `c14-${String(i).padStart(6, '0')}` }));
    const { collection } = await cell.scratch('c14');
    const failures: Failure[] = [];
    const t0 = performance.now();
    let error: string | null = null;
    try {
      await collection.upsert(records);
    } catch (e) {
      error = (e as { code?: string }).code ?? 'error';
    }
    const ms = performance.now() - t0;
    const count = await collection.count();
    if (error === null && count !== n) {
      failures.push(failure(cell, 'batch', `upsert of ${n} records in one call (max batch ${max ?? 'undeclared'}) reported success but ${count} landed`, { expected: n, actual: count }));
    }
    if (error !== null && count !== 0) {
      failures.push(failure(cell, 'batch', `upsert of ${n} records failed (${error}) after ${count} landed: a partial write`, { expected: 0, actual: count }));
    }
    const probe = [0, Math.floor(n / 2), n - 1].map((i) => records[i].id);
    const got = await collection.get(probe);
    if (error === null && got.length !== probe.length) {
      failures.push(failure(cell, 'batch', `records ${probe.join(', ')} should all read back, ${got.length} did`, { expected: probe.length, actual: got.length }));
    }
    return { figures: { records: n, maxBatch: max ?? null, landed: count, error, writeMs: Math.round(ms) }, failures };
  },
};
