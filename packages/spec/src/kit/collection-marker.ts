// The collection marker (issue 33 kit): the JSON a driver stores with each collection it creates
// (a table COMMENT, a marker-table row, Arrow schema metadata) and reads back at open, so metric,
// dim and index come from the store, never a default (C10). pgvector, langchain-pgvector, SQLite,
// libSQL and LanceDB each had the same interface, writer and reader; only the rules differed.
import { MemoryMatrixError } from '../errors';
import type { CollectionSpec, IndexConfig, Metric } from '../types';

/** What a marker stores, in this key order: `marker` (the driver's tag), name, metric, dim, index, embeddingModel when set. */
export interface CollectionMarker<Tag extends string = string> {
  marker: Tag;
  name: string;
  metric: Metric;
  dim: number;
  index: IndexConfig;
  embeddingModel?: string;
}

/** The marker of `spec` under `tag` (keys in the order above: the stored JSON stays byte-identical to the drivers' own). Pure, no error. */
export function collectionMarker<Tag extends string>(tag: Tag, spec: CollectionSpec): CollectionMarker<Tag> {
  return {
    marker: tag,
    name: spec.name,
    metric: spec.metric,
    dim: spec.dim,
    index: spec.index,
    ...(spec.embeddingModel !== undefined ? { embeddingModel: spec.embeddingModel } : {}),
  };
}

/** `collectionMarker(tag, spec)` as JSON text. */
export function collectionMarkerJson(tag: string, spec: CollectionSpec): string {
  return JSON.stringify(collectionMarker(tag, spec));
}

/**
 * What `readCollectionMarker` accepts; each driver keeps its own rules.
 * - `tag`: the driver's marker tag;
 * - `where`: the error prefix naming the place, e.g. `pgvector: table mm_a`;
 * - `metrics`: the metrics the driver can have created;
 * - `index`: test of the stored index (given an object, not null); absent: any object;
 * - `name`: when given, the stored name must equal it;
 * - `foreign`: text that is not JSON, not an object or of another tag: `'ignore'` (null: not ours,
 *   a table the driver did not create) or `'malformed'` (BACKEND_ERROR: the place only holds markers).
 */
export interface MarkerRules {
  tag: string;
  where: string;
  metrics: readonly Metric[];
  index?: (index: { type?: unknown }) => boolean;
  name?: string;
  foreign: 'ignore' | 'malformed';
}

/** An index test for `MarkerRules.index`: the stored `index.type` is one of `types`. */
export function indexTypeIn(...types: string[]): (index: { type?: unknown }) => boolean {
  return (index) => types.includes(index.type as string);
}

/**
 * Parse stored marker JSON under `rules`: the marker, or null for foreign text under `'ignore'`.
 * Throws BACKEND_ERROR `<where>: collection marker is malformed: <first 200 chars>` when it carries
 * the tag but a field is wrong (or any foreign text under `'malformed'`): guessing a metric would
 * defeat C10.
 */
export function readCollectionMarker(json: string, rules: MarkerRules): CollectionMarker | null {
  let m: Partial<CollectionMarker> | null;
  try {
    m = JSON.parse(json) as Partial<CollectionMarker> | null;
  } catch {
    m = null;
  }
  const malformed = (): never => {
    throw new MemoryMatrixError('BACKEND_ERROR', `${rules.where}: collection marker is malformed: ${json.slice(0, 200)}`);
  };
  if (typeof m !== 'object' || m === null || m.marker !== rules.tag) return rules.foreign === 'ignore' ? null : malformed();
  const ok =
    typeof m.name === 'string' &&
    (rules.name === undefined || m.name === rules.name) &&
    rules.metrics.includes(m.metric as Metric) &&
    Number.isInteger(m.dim) &&
    typeof m.index === 'object' &&
    m.index !== null &&
    (rules.index === undefined || rules.index(m.index));
  if (!ok) malformed();
  return m as CollectionMarker;
}

/** The collection spec a marker records (name, dim, metric, index, embeddingModel when set). Pure, no error. */
export function specOfMarker(m: CollectionMarker): CollectionSpec {
  const spec: CollectionSpec = { name: m.name, dim: m.dim, metric: m.metric, index: m.index };
  if (m.embeddingModel !== undefined) spec.embeddingModel = m.embeddingModel;
  return spec;
}
