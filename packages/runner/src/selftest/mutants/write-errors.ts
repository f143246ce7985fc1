import { hasCode } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/**
 * A backend write error swallowed. Public bug kind: "add() returned but nothing was stored" — a
 * `try { … } catch { return }` (or a fire-and-forget promise) around the backend call of upsert
 * and delete, so a refused or failed write looks acknowledged. Only backend failures are
 * swallowed (`BACKEND_ERROR`, `OUT_OF_MEMORY`, and errors without a code): the adapter's own input
 * validation (DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT …) runs before the backend call
 * and still throws, as in the real bug. A swallowed delete reports 0 deleted.
 */
function swallowed(e: unknown): boolean {
  if (hasCode(e, 'BACKEND_ERROR') || hasCode(e, 'OUT_OF_MEMORY')) return true;
  return typeof (e as { code?: unknown })?.code !== 'string';
}

export const writeErrorSwallowed: Mutant = {
  name: 'write-error-swallowed',
  family: 'write-errors',
  bug: 'upsert / delete resolve normally when the backend write fails',
  requires: needsCaps('vectors'),
  fault: () => ({
    collection: (inner) => ({
      upsert: async (records) => {
        try {
          await inner.upsert(records);
        } catch (e) {
          if (!swallowed(e)) throw e;
        }
      },
      delete: async (ids) => {
        try {
          return await inner.delete(ids);
        } catch (e) {
          if (!swallowed(e)) throw e;
          return 0;
        }
      },
    }),
  }),
};

export const WRITE_ERROR_MUTANTS: readonly Mutant[] = [writeErrorSwallowed];
