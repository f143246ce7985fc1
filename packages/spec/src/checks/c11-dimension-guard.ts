import type { Failure } from '../comparator';
import { type CheckDefinition, failure, needs } from './check';
import { errorCode } from './helpers/error-code';
import { describeDifference, requireMemories, sampleRecords } from './helpers/sampling';

/**
 * C11 dimension-guard: a write whose batch holds one vector of the wrong dimension fails with
 * `DIMENSION_MISMATCH` before anything is written — the batch is atomic (none of its valid records
 * land) and the memories already stored are intact. A recall with a wrong-dimension query vector
 * fails with the same code rather than returning an empty list.
 */
/** Memories C11 needs: 3 in the stored base half, 3 in the poisoned batch. */
export const C11_MIN_MEMORIES = 6;

export const c11DimensionGuard: CheckDefinition = {
  id: 'C11',
  name: 'dimension-guard',
  requires: needs('vectors'),
  async run(cell) {
    const dim = cell.dataset.manifest.dim;
    // Two disjoint halves of the dataset: the base load (up to 20) and the batch (up to 10) with one
    // bad record in the middle, valid records on both sides of it (so ≥ 3 in the batch: n ≥ 6).
    const n = cell.dataset.memories.length;
    requireMemories('C11', cell.datasetName, n, C11_MIN_MEMORIES, 'a stored base and a batch of ≥ 3 (valid, wrong-dimension, valid)');
    const half = Math.floor(n / 2);
    const [base, batch] = [sampleRecords(cell.dataset.memories.slice(0, half), 20), sampleRecords(cell.dataset.memories.slice(half), 10)];
    const { collection } = await cell.scratch('c11');
    await collection.upsert(base);
    const at = Math.min(5, Math.floor(batch.length / 2));
    const bad = { ...batch[at]!, embedding: new Float32Array(dim + 1).fill(0.01) };
    const poisoned = [...batch.slice(0, at), bad, ...batch.slice(at + 1)];
    const failures: Failure[] = [];
    const code = await errorCode(() => collection.upsert(poisoned));
    if (code !== 'DIMENSION_MISMATCH') {
      failures.push(
        failure(cell, 'guard', `upsert of a batch with one ${dim + 1}-d vector (id ${bad.id}) ${code === null ? 'succeeded' : `failed with code ${code}`}; expected DIMENSION_MISMATCH`, {
          id: bad.id,
          expected: 'DIMENSION_MISMATCH',
          actual: code,
        }),
      );
    }
    const count = await collection.count();
    // What happened to the batch, in words: a message must not call an accepted batch rejected.
    const after = code === null ? 'the batch with a wrong-dimension vector, which was accepted (expected DIMENSION_MISMATCH)' : `the batch rejected with ${code}`;
    if (count !== base.length) failures.push(failure(cell, 'guard', `count after ${after} is ${count}, expected ${base.length}`, { expected: base.length, actual: count }));
    const leaked = await collection.get(batch.map((r) => r.id));
    if (leaked.length)
      failures.push(
        failure(cell, 'guard', `${code === null ? 'the batch that should have been rejected landed' : 'the rejected batch partially landed'}: ${leaked.map((r) => r.id).join(', ')}`, {
          actual: leaked.length,
          expected: 0,
        }),
      );
    const back = new Map((await collection.get(base.map((r) => r.id))).map((r) => [r.id, r]));
    for (const r of base) {
      const b = back.get(r.id);
      const diff = b ? describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack) : 'missing';
      if (diff) failures.push(failure(cell, 'guard', `existing memory ${r.id} changed after ${after}: ${diff}`, { id: r.id }));
    }
    const qcode = await errorCode(() => collection.recall({ vector: new Float32Array(dim - 1).fill(0.1), k: 5 }));
    if (qcode !== 'DIMENSION_MISMATCH') {
      failures.push(
        failure(cell, 'guard', `recall with a ${dim - 1}-d query ${qcode === null ? 'succeeded' : `failed with code ${qcode}`}; expected DIMENSION_MISMATCH`, {
          expected: 'DIMENSION_MISMATCH',
          actual: qcode,
        }),
      );
    }
    return { figures: { stored: base.length, rejectedBatch: poisoned.length, countAfter: count, writeError: code, queryError: qcode }, failures };
  },
};
