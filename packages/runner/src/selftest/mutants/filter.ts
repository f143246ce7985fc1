import { matchesFilter, type RecallQuery } from '@memory-matrix/spec';
import { needsCaps, type Mutant } from './proxy';

/** The query without its filter (every other field kept). */
function unfiltered(q: RecallQuery): RecallQuery {
  const { filter: _filter, ...rest } = q;
  return rest;
}

/**
 * Filter regressions in recall. Public bug kinds: "the metadata filter is ignored" (a filter
 * argument renamed in a client release and silently dropped, e.g. `filter` vs `where`), and
 * "filtered search returns fewer than k" (post-filtering: the store takes the top k of the whole
 * collection and only then removes what does not match, as pgvector HNSW with a WHERE clause and
 * `ef_search` rows does). `count` is not touched.
 */
export const filterDropped: Mutant = {
  name: 'filter-dropped',
  family: 'filter',
  bug: 'recall ignores its filter (namespaces, kinds, metadata) and searches the whole collection',
  requires: needsCaps('vectors', 'filterMetadata'),
  fault: () => ({ collection: (inner) => ({ recall: (q) => inner.recall(unfiltered(q)) }) }),
};

/** Filter applied after top-k: the unfiltered top k, then the non-matching hits removed (read back with `get` to test them). */
export const filterAfterTopK: Mutant = {
  name: 'filter-after-topk',
  family: 'filter',
  bug: 'recall takes the top k of the whole collection and filters afterwards, returning fewer than k matches',
  requires: needsCaps('vectors', 'filterMetadata'),
  fault: () => ({
    collection: (inner) => ({
      recall: async (q) => {
        const hits = await inner.recall(unfiltered(q));
        if (!q.filter || !hits.length) return hits;
        const records = new Map((await inner.get(hits.map((h) => h.id))).map((r) => [r.id, r]));
        return hits.filter((h) => {
          const r = records.get(h.id);
          return r !== undefined && matchesFilter(r, q.filter);
        });
      },
    }),
  }),
};

export const FILTER_MUTANTS: readonly Mutant[] = [filterDropped, filterAfterTopK];
