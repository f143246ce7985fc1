import { collectionMarkerJson, readCollectionMarker, type CollectionMarker as KitCollectionMarker, type CollectionSpec } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * The collection marker: JSON in the table's Arrow schema metadata (key `memory-matrix`), written
 * with the table in one commit, so a table exists with its marker or not at all. `openCollection`
 * reads metric, dim and index from it (never a default); a table without it was not created by
 * memory-matrix and is never opened or dropped.
 */
export const MARKER_TAG = 'memory-matrix/lancedb-collection@1';

/** What a marker stores (the kit's marker under this tag). */
export type CollectionMarker = KitCollectionMarker<typeof MARKER_TAG>;

/** Table name of a collection: `mm_<name>`. */
export function tableOf(name: string): string {
  return `mm_${name}`;
}

/** The marker JSON of a spec. */
export function markerOf(spec: CollectionSpec): string {
  return collectionMarkerJson(MARKER_TAG, spec);
}

/** Parse a marker; undefined when `json` is absent or not ours; BACKEND_ERROR when it carries our tag but malformed fields (guessing a metric would defeat C10). */
export function parseMarker(json: string | undefined, name: string): CollectionMarker | undefined {
  if (json === undefined) return undefined;
  const rules = { tag: MARKER_TAG, where: `${ADAPTER}: table ${tableOf(name)}`, metrics: ['cosine', 'l2', 'ip'] as const, name, foreign: 'ignore' } as const;
  return (readCollectionMarker(json, rules) as CollectionMarker | null) ?? undefined;
}
