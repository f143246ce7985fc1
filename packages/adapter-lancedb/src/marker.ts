import { MemoryMatrixError, type CollectionSpec, type IndexConfig, type Metric } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * The collection marker: JSON in the table's Arrow schema metadata (key `memory-matrix`), written
 * with the table in one commit, so a table exists with its marker or not at all. `openCollection`
 * reads metric, dim and index from it (never a default); a table without it was not created by
 * memory-matrix and is never opened or dropped.
 */
export const MARKER_TAG = 'memory-matrix/lancedb-collection@1';

/** What a marker stores. */
export interface CollectionMarker {
  marker: typeof MARKER_TAG;
  name: string;
  metric: Metric;
  dim: number;
  index: IndexConfig;
  embeddingModel?: string;
}

/** Table name of a collection: `mm_<name>`. */
export function tableOf(name: string): string {
  return `mm_${name}`;
}

/** The marker JSON of a spec. */
export function markerOf(spec: CollectionSpec): string {
  const m: CollectionMarker = {
    marker: MARKER_TAG,
    name: spec.name,
    metric: spec.metric,
    dim: spec.dim,
    index: spec.index,
    ...(spec.embeddingModel !== undefined ? { embeddingModel: spec.embeddingModel } : {}),
  };
  return JSON.stringify(m);
}

/** Parse a marker; undefined when `json` is absent or not ours; BACKEND_ERROR when it carries our tag but malformed fields (guessing a metric would defeat C10). */
export function parseMarker(json: string | undefined, name: string): CollectionMarker | undefined {
  if (json === undefined) return undefined;
  let m: Partial<CollectionMarker>;
  try {
    m = JSON.parse(json) as Partial<CollectionMarker>;
  } catch {
    return undefined;
  }
  if (m?.marker !== MARKER_TAG) return undefined;
  const ok = m.name === name && (m.metric === 'cosine' || m.metric === 'l2' || m.metric === 'ip') && Number.isInteger(m.dim) && typeof m.index === 'object' && m.index !== null;
  if (!ok) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: table ${tableOf(name)}: collection marker is malformed: ${json.slice(0, 200)}`);
  return m as CollectionMarker;
}
