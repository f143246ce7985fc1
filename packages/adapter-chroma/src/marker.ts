import { isHnsw, MemoryMatrixError, type CollectionSpec, type IndexConfig } from '@memory-matrix/spec';
import { CHROMA_SPACE, metricOfSpace } from './scores';

/** Value of `mm.marker` in the metadata of every Chroma collection this adapter creates. */
export const MARKER = 'memory-matrix/chroma-collection@1';

/** Chroma's HNSW defaults (collection configuration), used for `index: none`. */
export const CHROMA_HNSW_DEFAULTS = { m: 16, efConstruction: 100, efSearch: 100 } as const;

/** The collection-level metadata marker (scalars only, as Chroma requires). */
export function markerMetadata(spec: CollectionSpec): Record<string, string | number> {
  const m: Record<string, string | number> = {
    'mm.marker': MARKER,
    'mm.name': spec.name,
    'mm.dim': spec.dim,
    'mm.metric': spec.metric,
    'mm.index': JSON.stringify(spec.index),
  };
  if (spec.embeddingModel !== undefined) m['mm.model'] = spec.embeddingModel;
  return m;
}

/**
 * The `configuration` a collection is created with: the metric ALWAYS set explicitly (`hnsw.space`;
 * Chroma's default is squared L2, docs/checks.md C10), and the catalog's HNSW parameters mapped onto
 * Chroma's names: m → `max_neighbors`, efConstruction → `ef_construction`, efSearch → `ef_search`.
 * `index: none` keeps Chroma's HNSW defaults (it has no exact path).
 */
export function createConfiguration(spec: CollectionSpec): { hnsw: Record<string, number | string> } {
  const i = isHnsw(spec.index) ? spec.index : CHROMA_HNSW_DEFAULTS;
  return { hnsw: { space: CHROMA_SPACE[spec.metric], max_neighbors: i.m, ef_construction: i.efConstruction, ef_search: i.efSearch } };
}

/** What the server reports about a collection (the client's `Collection` fields this adapter reads). */
export interface StoredCollection {
  name: string;
  metadata?: Record<string, unknown> | null;
  configuration?: unknown;
}

/** The HNSW part of a collection's configuration as the server reports it (tolerant of absent parts). */
function hnswOf(c: StoredCollection): Record<string, unknown> | undefined {
  const conf = c.configuration as { hnsw?: Record<string, unknown> | null } | undefined;
  return conf?.hnsw ?? undefined;
}

/** True when the collection carries this adapter's marker. */
export function isOurs(c: StoredCollection): boolean {
  return c.metadata?.['mm.marker'] === MARKER;
}

/**
 * `mm.dim` and `mm.index` of a marker kept in a Chroma collection's metadata (`m`). Throws
 * BACKEND_ERROR `<where>: marker has no integer mm.dim (…)` or `<where>: marker mm.index is not
 * JSON: …` (the parse error as cause). The index is returned as stored, not checked.
 */
export function markerDimIndex(m: Record<string, unknown>, where: string): { dim: number; index: IndexConfig } {
  const dim = m['mm.dim'];
  if (typeof dim !== 'number' || !Number.isInteger(dim)) throw new MemoryMatrixError('BACKEND_ERROR', `${where}: marker has no integer mm.dim (${JSON.stringify(dim)})`);
  try {
    return { dim, index: JSON.parse(String(m['mm.index'])) as IndexConfig };
  } catch (e) {
    throw new MemoryMatrixError('BACKEND_ERROR', `${where}: marker mm.index is not JSON: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * The spec of a stored collection, read back from the server: the metric from the collection's
 * configuration (`hnsw.space`, what Chroma actually searches with — never a default), dim and
 * model from the marker, HNSW parameters from the configuration. Throws COLLECTION_MISSING for a
 * collection without the marker and BACKEND_ERROR when the configuration has no space or
 * disagrees with the marker.
 */
export function specFromStored(name: string, c: StoredCollection): CollectionSpec {
  const where = `chroma: collection ${name} (Chroma collection ${c.name})`;
  if (!isOurs(c)) throw new MemoryMatrixError('COLLECTION_MISSING', `${where} exists but carries no memory-matrix marker; not opened`);
  const m = c.metadata!;
  const bad = (what: string) => new MemoryMatrixError('BACKEND_ERROR', `${where}: ${what}`);
  const hnsw = hnswOf(c);
  const space = hnsw?.space;
  const metric = metricOfSpace(space);
  if (!metric) {
    throw bad(`the server reports no known distance space (configuration.hnsw.space = ${JSON.stringify(space)}); Chroma's default would be squared L2, which this adapter never assumes`);
  }
  if (m['mm.metric'] !== metric) throw bad(`configuration.hnsw.space is ${JSON.stringify(space)} but the marker says metric ${JSON.stringify(m['mm.metric'])}`);
  if (m['mm.name'] !== name) throw bad(`marker names collection ${JSON.stringify(m['mm.name'])}`);
  const { dim, index: declared } = markerDimIndex(m, where);
  let index: IndexConfig = declared;
  if (isHnsw(declared)) {
    index = { type: 'hnsw', m: Number(hnsw?.max_neighbors), efConstruction: Number(hnsw?.ef_construction), efSearch: Number(hnsw?.ef_search) };
    if (index.m !== declared.m || index.efConstruction !== declared.efConstruction || index.efSearch !== declared.efSearch) {
      throw bad(
        `configuration HNSW (max_neighbors ${hnsw?.max_neighbors}, ef_construction ${hnsw?.ef_construction}, ef_search ${hnsw?.ef_search}) differs from the marker's ${JSON.stringify(declared)}`,
      );
    }
  }
  const spec: CollectionSpec = { name, dim, metric, index };
  if (typeof m['mm.model'] === 'string') spec.embeddingModel = m['mm.model'];
  return spec;
}
