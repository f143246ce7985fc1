import type { Failure } from '../comparator';
import { MAX_RECALL_K, type MemoryRecord } from '../types';
import { MemoryMatrixError } from '../errors';
import { type CheckDefinition, failure, needs } from './check';
import { deleteVerified } from './helpers/delete-verified';

/**
 * C25 isolation: one namespace (user) never sees another's memories — in recall under a
 * namespace filter (queried with the OTHER user's vectors, the worst case), in count, and in
 * deletion: user A's memories are deleted in two halves, each delete verified by get, count and
 * recall of what it deleted and by get of everything it did not — A's other half and all of B's
 * (helpers/delete-verified.ts `deleteVerified`, never the count it reports). An unknown namespace
 * recalls nothing rather than everything. Recall runs at k = 20 (ten vectors per user) and at
 * every `C25_LARGE_K` up to the contract's maximum (one vector per user each), so a filter an
 * adapter drops only at large k leaks here too.
 */
export const c25Isolation: CheckDefinition = {
  id: 'C25',
  name: 'isolation',
  requires: needs('vectors', 'filterNamespace', 'delete'),
  async run(cell) {
    const { nsA, nsB, A, B, note } = isolationUsers(cell.datasetName, cell.dataset.memories);
    const { collection } = await cell.scratch('c25');
    await collection.upsert([...A, ...B]);
    const failures: Failure[] = [];
    const scan = cell.config.capabilities.exactScan ? ('exact' as const) : undefined;
    for (const [ns, own, other] of [
      [nsA, A, B],
      [nsB, B, A],
    ] as const) {
      const asks = [...other.slice(0, 10).map((r) => [r, 20] as const), ...C25_LARGE_K.map((k) => [other[0]!, k] as const)];
      for (const [r, k] of asks) {
        const hits = await collection.recall({ vector: r.embedding, k, filter: { namespaces: [ns] }, scan });
        const leak = hits.find((h) => !own.some((o) => o.id === h.id));
        if (leak) failures.push(failure(cell, 'isolation', `recall (k ${k}) filtered to ${ns} with a vector of the other user returned ${leak.id}, which is not ${ns}'s`, { id: leak.id }));
        if (hits.length !== Math.min(k, own.length))
          failures.push(
            failure(cell, 'isolation', `recall (k ${k}) filtered to ${ns} returned ${hits.length} rows, expected ${Math.min(k, own.length)}`, {
              expected: Math.min(k, own.length),
              actual: hits.length,
            }),
          );
      }
      const n = await collection.count({ namespaces: [ns] });
      if (n !== own.length) failures.push(failure(cell, 'isolation', `count of ${ns} is ${n}, expected ${own.length}`, { expected: own.length, actual: n }));
    }
    const none = await collection.recall({ vector: A[0].embedding, k: 10, filter: { namespaces: ['no-such-user'] }, scan });
    if (none.length) failures.push(failure(cell, 'isolation', `recall filtered to an unknown namespace returned ${none.length} rows`, { expected: 0, actual: none.length }));
    // Deleting A in two halves: the first leaves A's other half and all of B (a delete by namespace
    // instead of by id shows here), the second empties A and leaves B (helpers/delete-verified.ts).
    const half = Math.ceil(A.length / 2);
    const deletes = [
      { deleted: A.slice(0, half), kept: [...A.slice(half), ...B], what: `delete of ${half} of ${nsA}'s ${A.length} memories` },
      { deleted: A.slice(half), kept: B, what: `delete of ${nsA}'s other ${A.length - half} memories` },
    ];
    let deleted = 0;
    let deleteRecalls = 0;
    const notes = note ? [note] : [];
    for (const d of deletes) {
      const v = await deleteVerified(cell, collection, { ...d, kind: 'isolation' });
      deleted += v.reported;
      deleteRecalls += v.recalls;
      failures.push(...v.failures);
      notes.push(...v.notes);
    }
    const bCount = await collection.count({ namespaces: [nsB] });
    if (bCount !== B.length) failures.push(failure(cell, 'isolation', `count of ${nsB} after deleting ${nsA} is ${bCount}, expected ${B.length}`, { expected: B.length, actual: bCount }));
    return { figures: { namespaceA: nsA, namespaceB: nsB, perNamespace: A.length, perNamespaceB: B.length, deleted, deleteRecalls }, failures, notes };
  },
};

/** The large k of C25's filtered recalls (besides k = 20): 100, 500 and the contract's maximum `MAX_RECALL_K`. */
export const C25_LARGE_K: readonly number[] = [100, 500, MAX_RECALL_K];

/** Memories C25 needs when the dataset has fewer than two namespaces of ≥ 2 memories (split into two users of ≥ 2). */
export const C25_MIN_MEMORIES = 4;

/**
 * The two users of C25 (up to 40 memories each, disjoint): the first two namespaces by name with
 * ≥ 20 memories (the golden layout); else the two largest namespaces with ≥ 2 memories each; else
 * (e.g. a sample of one LangChain collection) the first ≤ 80 memories split into halves and
 * relabelled `c25-user-a` / `c25-user-b` (copies: ids, text and vectors unchanged), said in `note`.
 * Throws INVALID_INPUT below `C25_MIN_MEMORIES` memories.
 */
export function isolationUsers(datasetName: string, memories: MemoryRecord[]): { nsA: string; nsB: string; A: MemoryRecord[]; B: MemoryRecord[]; note: string | null } {
  const byNs = new Map<string, MemoryRecord[]>();
  for (const m of memories) byNs.set(m.namespace, [...(byNs.get(m.namespace) ?? []), m]);
  const big = [...byNs.entries()].filter(([, v]) => v.length >= 20).sort((x, y) => x[0].localeCompare(y[0]));
  if (big.length >= 2) return { nsA: big[0]![0], nsB: big[1]![0], A: big[0]![1].slice(0, 40), B: big[1]![1].slice(0, 40), note: null };
  const two = [...byNs.entries()].filter(([, v]) => v.length >= 2).sort((x, y) => y[1].length - x[1].length || x[0].localeCompare(y[0]));
  if (two.length >= 2) {
    const [[nsA, a], [nsB, b]] = two as [[string, MemoryRecord[]], [string, MemoryRecord[]]];
    return { nsA, nsB, A: a.slice(0, 40), B: b.slice(0, 40), note: `fewer than two namespaces hold 20 memories; users are the two largest: ${nsA} (${a.length}) and ${nsB} (${b.length})` };
  }
  if (memories.length < C25_MIN_MEMORIES)
    throw new MemoryMatrixError('INVALID_INPUT', `C25: dataset ${datasetName} has ${memories.length} memories; two users of ≥ 2 memories each need at least ${C25_MIN_MEMORIES}`);
  const pool = memories.slice(0, 80);
  const half = Math.floor(pool.length / 2);
  const A = pool.slice(0, half).map((m) => ({ ...m, namespace: 'c25-user-a' }));
  const B = pool.slice(half).map((m) => ({ ...m, namespace: 'c25-user-b' }));
  return {
    nsA: 'c25-user-a',
    nsB: 'c25-user-b',
    A,
    B,
    note: `no two namespaces hold ≥ 2 memories; ${pool.length} memories split into two users c25-user-a (${A.length}) and c25-user-b (${B.length}) by relabelling the namespace`,
  };
}
