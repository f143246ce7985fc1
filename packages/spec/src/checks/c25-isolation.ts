import type { Failure } from '../comparator';
import type { MemoryRecord } from '../types';
import { type CheckDefinition, failure, needs } from './check';

/**
 * C25 isolation: one namespace (user) never sees another's memories — in recall under a
 * namespace filter (queried with the OTHER user's vectors, the worst case), in count, and in
 * deletion (deleting all of user A's memories leaves user B's intact). An unknown namespace
 * recalls nothing rather than everything.
 */
export const c25Isolation: CheckDefinition = {
  id: 'C25',
  name: 'isolation',
  requires: needs('vectors', 'filterNamespace', 'delete'),
  async run(cell) {
    const byNs = new Map<string, MemoryRecord[]>();
    for (const m of cell.dataset.memories) byNs.set(m.namespace, [...(byNs.get(m.namespace) ?? []), m]);
    const sizes = [...byNs.entries()].filter(([, v]) => v.length >= 20).sort((x, y) => x[0].localeCompare(y[0]));
    const [nsA, a] = sizes[0];
    const [nsB, b] = sizes[1];
    const A = a.slice(0, 40);
    const B = b.slice(0, 40);
    const { collection } = await cell.scratch('c25');
    await collection.upsert([...A, ...B]);
    const failures: Failure[] = [];
    const scan = cell.config.capabilities.exactScan ? ('exact' as const) : undefined;
    for (const [ns, own, other] of [[nsA, A, B], [nsB, B, A]] as const) {
      for (const r of other.slice(0, 10)) {
        const hits = await collection.recall({ vector: r.embedding, k: 20, filter: { namespaces: [ns] }, scan });
        const leak = hits.find((h) => !own.some((o) => o.id === h.id));
        if (leak) failures.push(failure(cell, 'isolation', `recall filtered to ${ns} with a vector of the other user returned ${leak.id}, which is not ${ns}'s`, { id: leak.id }));
        if (hits.length !== Math.min(20, own.length)) failures.push(failure(cell, 'isolation', `recall filtered to ${ns} returned ${hits.length} rows, expected ${Math.min(20, own.length)}`, { expected: Math.min(20, own.length), actual: hits.length }));
      }
      const n = await collection.count({ namespaces: [ns] });
      if (n !== own.length) failures.push(failure(cell, 'isolation', `count of ${ns} is ${n}, expected ${own.length}`, { expected: own.length, actual: n }));
    }
    const none = await collection.recall({ vector: A[0].embedding, k: 10, filter: { namespaces: ['no-such-user'] }, scan });
    if (none.length) failures.push(failure(cell, 'isolation', `recall filtered to an unknown namespace returned ${none.length} rows`, { expected: 0, actual: none.length }));
    const deleted = await collection.delete(A.map((r) => r.id));
    if (deleted !== A.length) failures.push(failure(cell, 'isolation', `delete of ${nsA}'s ${A.length} memories reported ${deleted}`, { expected: A.length, actual: deleted }));
    const bLeft = await collection.get(B.map((r) => r.id));
    if (bLeft.length !== B.length) failures.push(failure(cell, 'isolation', `deleting ${nsA}'s memories removed ${B.length - bLeft.length} of ${nsB}'s`, { expected: B.length, actual: bLeft.length }));
    const bCount = await collection.count({ namespaces: [nsB] });
    if (bCount !== B.length) failures.push(failure(cell, 'isolation', `count of ${nsB} after deleting ${nsA} is ${bCount}, expected ${B.length}`, { expected: B.length, actual: bCount }));
    return { figures: { namespaceA: nsA, namespaceB: nsB, perNamespace: A.length, deleted }, failures };
  },
};
