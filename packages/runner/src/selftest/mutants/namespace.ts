import type { MemoryCollection, RecallFilter } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/** `filter` without its `namespaces` part (undefined when nothing else is left). */
export function withoutNamespaces(filter: RecallFilter | undefined): RecallFilter | undefined {
  if (!filter?.namespaces) return filter;
  const { namespaces: _ns, ...rest } = filter;
  return Object.keys(rest).length ? rest : undefined;
}

/**
 * Namespace (tenant) leaks: one user's operation reaches another user's memories. Public bug
 * kinds: "user A's memories show up in user B's search" (the tenant filter lost on one code path,
 * e.g. a `user_id` condition dropped when another filter is given), "the per-user count is the
 * whole collection's", and "deleting a user's memories deleted someone else's" (a delete whose
 * tenant scope is lost). Recall and count drop the namespace part of the filter (other parts
 * kept); delete also removes one memory of a namespace other than the deleted ones' (found by a
 * recall near the first deleted memory), reporting only the asked count.
 */
export const namespaceLeakRecall: Mutant = {
  name: 'namespace-leak-recall',
  family: 'namespace',
  bug: 'recall under a namespace filter also returns other namespaces',
  requires: needsCaps('vectors', 'filterNamespace'),
  fault: () => ({ collection: (inner) => ({ recall: (q) => inner.recall({ ...q, filter: withoutNamespaces(q.filter) }) }) }),
};

export const namespaceLeakCount: Mutant = {
  name: 'namespace-leak-count',
  family: 'namespace',
  bug: 'count under a namespace filter counts every namespace',
  requires: needsCaps('vectors', 'filterNamespace'),
  fault: () => ({ collection: (inner) => ({ count: (f) => inner.count(withoutNamespaces(f)) }) }),
};

/** The id of one stored memory near `ids[0]` whose namespace is none of the deleted ones', or null. */
async function neighbourOfOtherNamespace(inner: MemoryCollection, ids: string[]): Promise<string | null> {
  const asked = await inner.get(ids);
  if (!asked.length) return null;
  const own = new Set(asked.map((r) => r.namespace));
  const near = await inner.recall({ vector: asked[0]!.embedding, k: 100 });
  const candidates = (await inner.get(near.map((h) => h.id))).filter((r) => !own.has(r.namespace));
  return candidates[0]?.id ?? null;
}

export const namespaceLeakDelete: Mutant = {
  name: 'namespace-leak-delete',
  family: 'namespace',
  bug: "delete of one namespace's memories also deletes a memory of another namespace",
  requires: needsCaps('vectors', 'filterNamespace', 'delete'),
  fault: () => ({
    collection: (inner) => ({
      delete: async (ids) => {
        const victim = ids.length ? await neighbourOfOtherNamespace(inner, ids) : null;
        const n = await inner.delete(ids);
        if (victim) await inner.delete([victim]);
        return n;
      },
    }),
  }),
};

export const NAMESPACE_MUTANTS: readonly Mutant[] = [namespaceLeakRecall, namespaceLeakCount, namespaceLeakDelete];
