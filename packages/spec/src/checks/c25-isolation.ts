import type { Failure } from '../comparator';
import { MAX_RECALL_K, type MemoryRecord } from '../types';
import { MemoryMatrixError } from '../errors';
import type { Capabilities } from '../capabilities';
import { filterToSurface } from '../filter-lang/describe';
import { matchesFilter } from '../filter';
import { type CheckDefinition, failure, needs } from './check';
import { type CheckedDelete, deleteVerified } from './helpers/delete-verified';
import { splitCondition } from './helpers/isolation-where';

/**
 * C25 isolation: one namespace (user) never sees another's memories — in recall under a
 * namespace filter (queried with the OTHER user's vectors, the worst case), in count, and in
 * deletion: user A's memories are deleted by id and, where the target has `deleteByFilter`, by a
 * filter scoped to A (namespace + a `where`, then the namespace), `isolationDeletes`; each delete
 * verified by get, count and recall of what it deleted and by get of everything it did not —
 * A's unmatched memories and all of B's — and a filtered one by counts under its own filter and
 * per namespace (helpers/delete-verified.ts `deleteVerified`, never the count it reports). An unknown namespace
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
    const notes = note ? [note] : [];
    const deletes = isolationDeletes(cell.config.capabilities, nsA, A, B, notes);
    let deleted = 0;
    let deletedByFilter = 0;
    let deleteRecalls = 0;
    for (const d of deletes) {
      const v = await deleteVerified(cell, collection, { ...d, kind: 'isolation' });
      deleted += v.reported;
      if (d.filter) deletedByFilter += v.reported;
      deleteRecalls += v.recalls;
      failures.push(...v.failures);
      notes.push(...v.notes);
    }
    const bCount = await collection.count({ namespaces: [nsB] });
    if (bCount !== B.length) failures.push(failure(cell, 'isolation', `count of ${nsB} after deleting ${nsA} is ${bCount}, expected ${B.length}`, { expected: B.length, actual: bCount }));
    const filtered = deletes.filter((d) => d.filter);
    const whereFilter = filtered.find((d) => d.filter!.where)?.filter!.where;
    return {
      figures: {
        namespaceA: nsA,
        namespaceB: nsB,
        perNamespace: A.length,
        perNamespaceB: B.length,
        deleted,
        deleteRecalls,
        filteredDeletes: filtered.length,
        deletedByFilter,
        whereFilter: whereFilter ? JSON.stringify(filterToSurface(whereFilter)) : 'none',
      },
      failures,
      notes,
    };
  },
};

/**
 * C25's deletes of user A (`nsA`, memories `A`), in order, each on what the ones before left
 * (helpers/delete-verified.ts verifies each by reading):
 * - without `deleteByFilter`: A's first half by id (A's other half and all of B kept: a delete by
 *   namespace instead of by id shows), then the other half by id; a note says the filtered delete
 *   was not run;
 * - with it: A's first third by id; then `deleteWhere({ namespaces: [nsA], where })` with a
 *   condition that splits A's remaining memories (isolation-where.ts `splitCondition`, matching
 *   some of B too where one does), so a layer that drops the `where` and deletes the namespace, or
 *   drops the namespace, is caught — skipped with a note when the target's `filterOperators` lack
 *   `$eq` or no condition splits them; then `deleteWhere({ namespaces: [nsA] })`, the rest of A.
 */
export function isolationDeletes(caps: Capabilities, nsA: string, A: readonly MemoryRecord[], B: readonly MemoryRecord[], notes: string[]): Array<Omit<CheckedDelete, 'kind'>> {
  if (!caps.deleteByFilter) {
    notes.push('filtered delete not run (capability: deleteByFilter): user A deleted by id only');
    const half = Math.ceil(A.length / 2);
    return [
      { deleted: A.slice(0, half), kept: [...A.slice(half), ...B], what: `delete of ${half} of ${nsA}'s ${A.length} memories` },
      { deleted: A.slice(half), kept: B, what: `delete of ${nsA}'s other ${A.length - half} memories` },
    ];
  }
  const third = Math.ceil(A.length / 3);
  const out: Array<Omit<CheckedDelete, 'kind'>> = [{ deleted: A.slice(0, third), kept: [...A.slice(third), ...B], what: `delete of ${third} of ${nsA}'s ${A.length} memories by id` }];
  let rest = A.slice(third);
  const split = caps.filterOperators.includes('$eq') ? splitCondition(rest, B) : null;
  if (split) {
    const filter = { namespaces: [nsA], where: split.expr };
    const hit = rest.filter((r) => matchesFilter(r, filter));
    rest = rest.filter((r) => !matchesFilter(r, filter));
    out.push({
      deleted: hit,
      kept: [...rest, ...B],
      filter,
      what: `deleteWhere namespace ${nsA} and ${split.text} (${split.own} of ${nsA}'s ${hit.length + rest.length} left, ${split.other} of the other user's match the where alone)`,
    });
  } else
    notes.push(
      caps.filterOperators.includes('$eq')
        ? `where-scoped delete not run: no kind or metadata value splits ${nsA}'s ${rest.length} memories left`
        : 'where-scoped delete not run (capability: filterOperators lacks $eq)',
    );
  if (rest.length) out.push({ deleted: rest, kept: [...B], filter: { namespaces: [nsA] }, what: `deleteWhere namespace ${nsA} (its ${rest.length} memories left)` });
  return out;
}

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
