import { needsCaps, type Mutant } from './proxy';

/**
 * An upsert that keeps the old text and metadata. Public bug kinds: "updating a memory changes
 * its embedding but not its text" (`ON CONFLICT (id) DO UPDATE SET embedding = EXCLUDED.embedding`
 * listing too few columns) and "upsert merges metadata" (Chroma's upsert merging keys). For ids
 * that already exist, the new record's embedding, namespace, kind and createdAt are written with
 * the STORED text and metadata; new ids are written as given.
 */
export const upsertKeepsOld: Mutant = {
  name: 'upsert-keeps-old',
  family: 'upsert',
  bug: 'upsert of an existing id replaces the embedding but keeps the old text and metadata',
  requires: needsCaps('vectors', 'upsert'),
  fault: () => ({
    collection: (inner) => ({
      upsert: async (records) => {
        const old = new Map((await inner.get([...new Set(records.map((r) => r.id))])).map((r) => [r.id, r]));
        return inner.upsert(
          records.map((r) => {
            const o = old.get(r.id);
            return o ? { ...r, text: o.text, metadata: o.metadata } : r;
          }),
        );
      },
    }),
  }),
};

export const UPSERT_MUTANTS: readonly Mutant[] = [upsertKeepsOld];
