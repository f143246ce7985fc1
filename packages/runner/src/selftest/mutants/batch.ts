import { needsCaps, type Mutant } from './proxy';

/** Chunk size when the target declares no `maxBatch`: a typical client default (e.g. LangChain's PGVector and Chroma add in chunks of ~100–500). */
export const DEFAULT_CHUNK = 100;

/**
 * The last chunk of a batch dropped. Public bug kind: "only the first N documents were added" —
 * a bulk write split into chunks of the store's max batch whose loop bound is off by one
 * (`for (i = 0; i + size <= n; …)`, `range(0, n - size, size)`), so the trailing chunk is never
 * sent and the call still resolves. Writes of at most one chunk are untouched; above it, every
 * chunk but the last is written. Chunk size: the target's `maxBatch`, else `DEFAULT_CHUNK`.
 */
export const lastChunkDropped: Mutant = {
  name: 'last-chunk-dropped',
  family: 'batch',
  bug: 'a write larger than one chunk resolves with its last chunk never written',
  requires: needsCaps('vectors'),
  fault: (caps) => {
    const size = caps.maxBatch ?? DEFAULT_CHUNK;
    return {
      collection: (inner) => ({
        upsert: async (records) => {
          if (records.length <= size) return inner.upsert(records);
          const keep = Math.ceil(records.length / size) - 1;
          for (let i = 0; i < keep; i++) await inner.upsert(records.slice(i * size, (i + 1) * size));
        },
      }),
    };
  },
};

export const BATCH_MUTANTS: readonly Mutant[] = [lastChunkDropped];
