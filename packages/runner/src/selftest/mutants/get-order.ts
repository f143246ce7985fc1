import { compareIdsBytes, type MemoryRecord } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/**
 * `get` in database order. Public bug kind: "get(ids) returns documents in a different order
 * than the ids" — `SELECT … WHERE id = ANY($1)` without ordering by the position in the list,
 * which returns primary-key (or heap) order. The contract says: the order asked, missing ids left
 * out. Here: the records `get` returns sorted by id (UTF-8 byte order, the keyset order).
 */
export const getDatabaseOrder: Mutant = {
  name: 'get-database-order',
  family: 'get-order',
  bug: 'get(ids) returns the records in id order instead of the order asked',
  requires: needsCaps('vectors'),
  fault: () => ({
    collection: (inner) => ({
      get: async (ids) => (await inner.get(ids)).sort((a: MemoryRecord, b: MemoryRecord) => compareIdsBytes(a.id, b.id)),
    }),
  }),
};

export const GET_ORDER_MUTANTS: readonly Mutant[] = [getDatabaseOrder];
