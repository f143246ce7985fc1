import { needsCaps, type Mutant } from './proxy';

/**
 * A delete that does not delete. Public bug kinds: a soft-delete flag the reads never filter on,
 * a `DELETE … WHERE id = ANY($1)` sent on a transaction that is never committed (or rolled back
 * when the pooled connection is returned), a delete from the payload table that leaves the vector
 * index's rows — while the adapter reports the count it expected. Here `delete` removes nothing
 * and returns how many of the asked ids are stored (each id once: the count the real delete
 * would report), so a check that trusts the reported count passes (issue 36, kind 3).
 */
export const deleteKeepsRows: Mutant = {
  name: 'delete-keeps-rows',
  family: 'delete',
  bug: 'delete reports the right count but removes nothing (soft delete never filtered, uncommitted transaction)',
  requires: needsCaps('vectors', 'delete'),
  fault: () => ({
    collection: (inner) => ({
      delete: async (ids) => (await inner.get([...ids])).length,
    }),
  }),
};

export const DELETE_MUTANTS: readonly Mutant[] = [deleteKeepsRows];
