import { needsCaps, type Mutant } from './proxy';

/**
 * A delete by filter that reaches too far: `deleteWhere` keeps the filter's namespaces and kinds
 * and drops its `where` and metadata parts, so "delete user A's memories about topic X" deletes
 * every memory of user A. Public bug kind: memory layers whose `delete_all(user_id=…, …)` or
 * `deleteMany({ where })` forwarded only the user scope (issue 34: a `delete_all` for one user
 * that wiped more than asked). The count it returns is the backend's for the wider delete. Caught
 * by C25's where-scoped delete (the user's unmatched memories are gone).
 */
export const deleteFilterTooWide: Mutant = {
  name: 'delete-filter-too-wide',
  family: 'delete',
  bug: 'deleteWhere drops the where / metadata part of the filter and deletes the whole namespace',
  requires: needsCaps('vectors', 'deleteByFilter'),
  fault: () => ({
    collection: (inner) => ({
      deleteWhere: async (filter) => inner.deleteWhere!({ ...(filter.namespaces && { namespaces: filter.namespaces }), ...(filter.kinds && { kinds: filter.kinds }) }),
    }),
  }),
};

export const DELETE_FILTER_MUTANTS: readonly Mutant[] = [deleteFilterTooWide];
