import { markerDimIndex, metricOfSpace } from '@memory-matrix/adapter-chroma';
import { isHnsw, isIvfflat, MemoryMatrixError, type CollectionSpec, type IndexConfig, type Metric } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/** Value of `mm.marker` in the metadata of every collection this driver creates. */
export const MARKER = 'memory-matrix/langchain-chroma-collection@1';
/** Chroma's HNSW defaults (m, construction ef, search ef), kept for `index: none`: Chroma has no other path. */
const HNSW_DEFAULTS = { m: 16, efConstruction: 100, efSearch: 100 } as const;
const NAME_RE = /^[a-z0-9_]{1,48}$/;

/** What the chromadb client reports about a collection (1.x: metadata only; 3.x: also `configuration`). */
export interface StoredCollection {
  name: string;
  metadata?: Record<string, unknown> | null;
  configuration?: { hnsw?: Record<string, unknown> | null } | null;
}

/** The Chroma collection of a memory-matrix collection: `lc_<name>` (`-0` appended when it ends in `_`: Chroma names end with a letter or digit). */
export function lcName(name: string): string {
  return `lc_${name}${name.endsWith('_') ? '-0' : ''}`;
}

/** Collection name of the contract, `[a-z0-9_]{1,48}`; INVALID_INPUT otherwise. */
export function validateName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME_RE.test(name)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
}

/** A spec the driver can create: a name, dim 1..16000, a metric it offers, index `hnsw` or `none` (IVFFlat: CAPABILITY_MISSING). */
export function validateSpec(spec: CollectionSpec, metrics: readonly Metric[]): void {
  const bad = (why: string) => new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection ${spec?.name}: ${why}`);
  if (typeof spec !== 'object' || spec === null) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection spec must be an object`);
  validateName(spec.name);
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > 16000) throw bad(`dim must be an integer in 1..16000, got ${spec.dim}`);
  if (!metrics.includes(spec.metric)) throw bad(`metric must be one of ${metrics.join(', ')}, got ${JSON.stringify(spec.metric)}`);
  const i = spec.index as IndexConfig | undefined;
  if (isIvfflat(i)) throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: collection ${spec.name}: Chroma has no IVFFlat index`);
  if (i?.type !== 'none' && !isHnsw(i)) throw bad(`index.type must be hnsw or none, got ${JSON.stringify((i as unknown as { type?: unknown } | undefined)?.type)}`);
  if (isHnsw(i)) for (const k of ['m', 'efConstruction', 'efSearch'] as const) if (!Number.isInteger(i[k]) || i[k] < 1) throw bad(`index.${k} must be a positive integer, got ${i[k]}`);
}

/**
 * The `collectionMetadata` handed to LangChain: the metric and HNSW parameters as Chroma's `hnsw:*`
 * metadata keys (`hnsw:space`, `hnsw:M`, `hnsw:construction_ef`, `hnsw:search_ef`; Chroma maps
 * them onto the collection's HNSW configuration, measured on 1.0.0 and 1.4.4), always with the
 * space set, plus this driver's marker (`mm.marker`, `mm.name`, `mm.dim`, `mm.index`, `mm.model`).
 */
export function collectionMetadata(spec: CollectionSpec): Record<string, string | number> {
  const i = isHnsw(spec.index) ? spec.index : HNSW_DEFAULTS;
  const m: Record<string, string | number> = {
    'hnsw:space': spec.metric,
    'hnsw:M': i.m,
    'hnsw:construction_ef': i.efConstruction,
    'hnsw:search_ef': i.efSearch,
    'mm.marker': MARKER,
    'mm.name': spec.name,
    'mm.dim': spec.dim,
    'mm.index': JSON.stringify(spec.index),
  };
  if (spec.embeddingModel !== undefined) m['mm.model'] = spec.embeddingModel;
  return m;
}

/**
 * The HNSW settings the server reports for a collection: its `configuration.hnsw` (chromadb 3.x
 * reads it) or, where the client reports no configuration (1.x), the `hnsw:*` metadata the
 * collection was created with. Keys: space, m, efConstruction, efSearch, and where they came from.
 */
export function hnswOf(c: StoredCollection): { space: unknown; m: unknown; efConstruction: unknown; efSearch: unknown; source: string } {
  const h = c.configuration?.hnsw;
  if (h) return { space: h.space, m: h.max_neighbors, efConstruction: h.ef_construction, efSearch: h.ef_search, source: `configuration.hnsw ${JSON.stringify(h)}` };
  const md = c.metadata ?? {};
  return {
    space: md['hnsw:space'],
    m: md['hnsw:M'],
    efConstruction: md['hnsw:construction_ef'],
    efSearch: md['hnsw:search_ef'],
    source: 'collection metadata hnsw:* (the client reports no configuration)',
  };
}

/**
 * The spec of a stored collection, read back from the server: metric from `hnswOf` (never a
 * default), dim / index / model from the marker. COLLECTION_MISSING for a collection without the
 * marker (not this driver's), BACKEND_ERROR when the space is missing or disagrees with the marker.
 * `markerOnly`: only the marker is checked (drop).
 */
export function specOf(name: string, c: StoredCollection, opts: { markerOnly?: boolean } = {}): CollectionSpec {
  const where = `${ADAPTER}: collection ${name} (Chroma collection ${c.name})`;
  const m = c.metadata ?? {};
  if (m['mm.marker'] !== MARKER) throw new MemoryMatrixError('COLLECTION_MISSING', `${where} carries no ${MARKER} marker; not this driver's, not touched`);
  const bad = (what: string) => new MemoryMatrixError('BACKEND_ERROR', `${where}: ${what}`);
  const { dim, index } = markerDimIndex(m, where);
  const h = hnswOf(c);
  const metric = metricOfSpace(h.space);
  if (!opts.markerOnly && !metric) throw bad(`the server reports no known space (${h.source}); Chroma's default would be squared L2, which this driver never assumes`);
  const spec: CollectionSpec = { name, dim, metric: metric ?? 'cosine', index };
  if (typeof m['mm.model'] === 'string') spec.embeddingModel = m['mm.model'];
  return spec;
}
