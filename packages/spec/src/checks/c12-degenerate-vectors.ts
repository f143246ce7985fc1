import type { Failure } from '../comparator';
import type { MemoryCollection } from '../adapter';
import type { MemoryRecord } from '../types';
import { type CheckDefinition, failure, needs } from './check';
import { errorCode } from './helpers/error-code';
import { requireMemories, sampleRecords } from './helpers/sampling';

/**
 * C12 degenerate-vectors: a zero vector under cosine (similarity undefined: 0/0) and vectors with
 * NaN or ±Infinity components must be rejected at write with INVALID_VECTOR — the batch atomic,
 * nothing of it landing, the stored memories intact — or, for queries, either rejected the same
 * way or handled identically on the exact and the index path (same ids, no NaN score).
 */
/** Memories C12 needs: 1 stored, 3 in the rejected batches. */
export const C12_MIN_MEMORIES = 4;

export const c12DegenerateVectors: CheckDefinition = {
  id: 'C12',
  name: 'degenerate-vectors',
  requires: needs('vectors'),
  async run(cell) {
    const dim = cell.dataset.manifest.dim;
    const metric = cell.dataset.manifest.metric;
    // Up to 30 stored memories plus 3 others (disjoint) for the rejected batches: n ≥ 4.
    const total = cell.dataset.memories.length;
    requireMemories('C12', cell.datasetName, total, C12_MIN_MEMORIES, '1 stored memory and a disjoint batch of 3');
    const base = sampleRecords(cell.dataset.memories, Math.min(30, total - 3));
    const inBase = new Set(base.map((r) => r.id));
    const extra = cell.dataset.memories.filter((r) => !inBase.has(r.id)).slice(0, 3) as [MemoryRecord, MemoryRecord, MemoryRecord];
    const slot = Math.min(7, dim - 1); // the component made NaN/±Inf: 7, or the last one when dim ≤ 7
    const { collection } = await cell.scratch('c12');
    await collection.upsert(base);
    await collection.buildIndex();
    const failures: Failure[] = [];
    const figures: Record<string, string | number | null> = {};
    const bad: Record<string, Float32Array> = {
      nan: withComponent(extra[0].embedding, slot, Number.NaN),
      posInf: withComponent(extra[0].embedding, slot, Number.POSITIVE_INFINITY),
      negInf: withComponent(extra[0].embedding, slot, Number.NEGATIVE_INFINITY),
    };
    if (metric === 'cosine') bad.zero = new Float32Array(dim);
    for (const [label, vec] of Object.entries(bad)) {
      const batch = [extra[1], { ...extra[0], embedding: vec }, extra[2]];
      const code = await errorCode(() => collection.upsert(batch));
      figures[`write.${label}`] = code ?? 'accepted';
      if (code !== 'INVALID_VECTOR') {
        failures.push(
          failure(cell, 'degenerate', `write of a ${label} vector (id ${extra[0].id}) ${code === null ? 'was accepted' : `failed with ${code}`}; expected INVALID_VECTOR`, {
            id: extra[0].id,
            expected: 'INVALID_VECTOR',
            actual: code,
          }),
        );
      }
      const leaked = await collection.get(batch.map((r) => r.id));
      if (leaked.length) failures.push(failure(cell, 'degenerate', batchOutcome(label, code, leaked.length, batch.length), { expected: 0, actual: leaked.length }));
      figures[`query.${label}`] = await queryOutcome(collection, vec, cell.config.capabilities.exactScan, (msg) => failures.push(failure(cell, 'degenerate', `query with a ${label} vector: ${msg}`)));
    }
    const n = await collection.count();
    const accepted = Object.entries(figures).filter(([k, v]) => k.startsWith('write.') && v === 'accepted').length;
    const writes = accepted ? `the ${Object.keys(bad).length} degenerate writes (${accepted} of them accepted, expected none)` : `the ${Object.keys(bad).length} rejected degenerate writes`;
    if (n !== base.length) failures.push(failure(cell, 'degenerate', `count after ${writes} is ${n}, expected ${base.length}`, { expected: base.length, actual: n }));
    return { figures, failures };
  },
};

/**
 * What happened to the batch of `size` records with a `label` vector, `stored` of them found after
 * it, in words that match what happened: accepted (`code` null; INVALID_VECTOR expected), or
 * rejected with `code` yet partly stored.
 */
export function batchOutcome(label: string, code: string | null, stored: number, size: number): string {
  const found = `${stored} of its ${size} records ${stored === 1 ? 'is' : 'are'} stored`;
  return code === null ? `the ${label} batch was accepted (expected INVALID_VECTOR): ${found}` : `the ${label} batch was rejected with ${code}, yet ${found}`;
}

function withComponent(v: Float32Array, i: number, x: number): Float32Array {
  const out = Float32Array.from(v);
  out[i] = x;
  return out;
}

/** `rejected:<code>` or `same-on-both-paths`; reports a failure through `fail` otherwise. */
async function queryOutcome(c: MemoryCollection, vec: Float32Array, exactScan: boolean, fail: (msg: string) => void): Promise<string> {
  let exact: Awaited<ReturnType<MemoryCollection['recall']>> | undefined;
  let index: typeof exact;
  const codeExact = exactScan ? await errorCode(async () => (exact = await c.recall({ vector: vec, k: 5, scan: 'exact' }))) : null;
  const codeIndex = await errorCode(async () => (index = await c.recall({ vector: vec, k: 5, scan: 'index' })));
  if (codeIndex !== null && (codeExact !== null || !exactScan)) {
    if (codeIndex !== 'INVALID_VECTOR' && codeIndex !== 'INVALID_INPUT') fail(`rejected with ${codeIndex}, expected INVALID_VECTOR`);
    return `rejected:${codeIndex}`;
  }
  if ((codeExact === null) !== (codeIndex === null)) {
    fail(`the exact path ${codeExact ? `rejects it (${codeExact})` : 'answers'} but the index path ${codeIndex ? `rejects it (${codeIndex})` : 'answers'}`);
    return 'differs';
  }
  const nan = [...(exact ?? []), ...(index ?? [])].find((h) => !Number.isFinite(h.score));
  if (nan) fail(`answered with a non-finite score ${nan.score} for id ${nan.id}`);
  if (exact && index && exact.map((h) => h.id).join() !== index.map((h) => h.id).join()) {
    fail(`exact path returns [${exact.map((h) => h.id)}], index path [${index.map((h) => h.id)}]`);
    return 'differs';
  }
  return 'same-on-both-paths';
}
