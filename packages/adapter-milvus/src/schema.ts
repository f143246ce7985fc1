import { isHnsw, MemoryMatrixError, type CollectionSpec, type IndexConfig, type Metric } from '@memory-matrix/spec';

/** Field names of every collection this adapter creates (one Milvus collection = one memory-matrix collection). */
export const FIELD = {
  /** VarChar primary key, the memory's id. */
  id: 'id',
  /** VarChar, the namespace (filtered with `in [...]`). */
  namespace: 'namespace',
  /** VarChar, the kind. */
  kind: 'kind',
  /** VarChar, the canonical createdAt string exactly as given (time.ts), returned byte for byte. */
  createdAt: 'created_at',
  /** VarChar, the text. */
  text: 'text',
  /** JSON, the metadata object with its typed values (string, number, boolean, null). */
  metadata: 'metadata',
  /** JSON, `{ key: tag }` for every metadata key, its type tag (filter-expr.ts TYPE_TAGS: null, `$exists` and negated ranges; Milvus has no `is null`, `exists` or `not`). */
  metaTypes: 'meta_types',
  /** Int64, createdAt in epoch milliseconds (filters compare instants on it: Milvus has no instant type). */
  createdMs: 'created_ms',
  /** Int64, createdAt's 0..999 microseconds after `created_ms`. */
  createdUs: 'created_us',
  /** FloatVector(dim), the embedding (float32, returned bit-exact: measured). */
  embedding: 'embedding',
} as const;

/** Every scalar field a `get` reads back. */
export const OUTPUT_FIELDS = [FIELD.id, FIELD.namespace, FIELD.kind, FIELD.createdAt, FIELD.text, FIELD.metadata, FIELD.embedding];

/**
 * VarChar lengths in BYTES (Milvus `max_length` is the UTF-8 byte length, Milvus docs "String
 * Field"): ids are ≤ 256 UTF-16 units, so ≤ 768 UTF-8 bytes; 65,535 is Milvus's VarChar maximum.
 */
export const MAX_LENGTH = { id: 1024, namespace: 1024, kind: 32, createdAt: 64, text: 65535 } as const;

/** Marker stored as the collection's description (JSON): what the adapter wrote, checked at reopen. */
export const MARKER = 'memory-matrix/milvus-collection@2';

/** Milvus's metric_type for each metric (Milvus docs "Metric Types"). */
export const MILVUS_METRIC: Record<Metric, 'COSINE' | 'IP' | 'L2'> = { cosine: 'COSINE', ip: 'IP', l2: 'L2' };

/** The metric of a Milvus metric_type, or undefined. */
export function metricOfMilvus(m: unknown): Metric | undefined {
  return m === 'COSINE' ? 'cosine' : m === 'IP' ? 'ip' : m === 'L2' ? 'l2' : undefined;
}

/** The Milvus collection name of a memory-matrix collection: `mm_<name>`. */
export function milvusName(name: string): string {
  return `mm_${name}`;
}

/**
 * The vector index a spec asks for: HNSW (M, efConstruction; efSearch is the per-search `ef`) or,
 * for `none`, FLAT (brute force: exact). IVFFlat is refused by kylin-ai-vector-engine ("local mode
 * only support FLAT HNSW AUTOINDEX", measured) → CAPABILITY_MISSING.
 */
export function indexParams(spec: CollectionSpec): { index_type: 'HNSW' | 'FLAT'; params: Record<string, number> } {
  const i: IndexConfig = spec.index;
  if (isHnsw(i)) return { index_type: 'HNSW', params: { M: i.m, efConstruction: i.efConstruction } };
  if (i.type === 'none') return { index_type: 'FLAT', params: {} };
  throw new MemoryMatrixError('CAPABILITY_MISSING', `milvus: collection ${spec.name}: index ${i.type} is not offered (kylin-ai-vector-engine: FLAT, HNSW, AUTOINDEX only)`);
}

/** What the description marker holds. */
interface MarkerBody {
  marker: string;
  name: string;
  dim: number;
  metric: Metric;
  index: IndexConfig;
  model?: string;
}

/** The description of a new collection (JSON of the spec, with the marker). */
export function markerDescription(spec: CollectionSpec): string {
  const m: MarkerBody = { marker: MARKER, name: spec.name, dim: spec.dim, metric: spec.metric, index: spec.index };
  if (spec.embeddingModel !== undefined) m.model = spec.embeddingModel;
  return JSON.stringify(m);
}

/** What describeCollection / describeIndex report that the spec is read from. */
export interface StoredCollection {
  description: string;
  dim: number | undefined;
  metricType: unknown;
  indexType: unknown;
  indexParams: Record<string, string>;
}

/**
 * The spec of a stored collection, read back from the server: the metric from the index's
 * `metric_type` (what Milvus searches with, never a default), dim from the vector field, HNSW
 * parameters from the index; name and model from the marker. COLLECTION_MISSING when the
 * description carries no marker (not ours), BACKEND_ERROR when server and marker disagree.
 */
export function specFromStored(name: string, s: StoredCollection): CollectionSpec {
  const where = `milvus: collection ${name} (Milvus collection ${milvusName(name)})`;
  let m: MarkerBody;
  try {
    m = JSON.parse(s.description) as MarkerBody;
  } catch {
    throw new MemoryMatrixError('COLLECTION_MISSING', `${where} exists but its description is no memory-matrix marker; not opened`);
  }
  if (m?.marker !== MARKER) throw new MemoryMatrixError('COLLECTION_MISSING', `${where} exists but carries no memory-matrix marker; not opened`);
  const bad = (what: string) => new MemoryMatrixError('BACKEND_ERROR', `${where}: ${what}`);
  const metric = metricOfMilvus(s.metricType);
  if (!metric) throw bad(`the index reports metric_type ${JSON.stringify(s.metricType)}, not COSINE/IP/L2`);
  if (metric !== m.metric) throw bad(`the index's metric_type ${String(s.metricType)} differs from the marker's ${m.metric}`);
  if (s.dim !== m.dim) throw bad(`the vector field has dim ${s.dim}, the marker ${m.dim}`);
  if (m.name !== name) throw bad(`the marker names collection ${JSON.stringify(m.name)}`);
  let index: IndexConfig = m.index;
  if (isHnsw(m.index)) {
    if (s.indexType !== 'HNSW') throw bad(`the index type is ${String(s.indexType)}, the marker says hnsw`);
    index = { type: 'hnsw', m: Number(s.indexParams.M), efConstruction: Number(s.indexParams.efConstruction), efSearch: m.index.efSearch };
    if (index.m !== m.index.m || index.efConstruction !== m.index.efConstruction)
      throw bad(`the index has M ${s.indexParams.M}, efConstruction ${s.indexParams.efConstruction}; the marker ${JSON.stringify(m.index)}`);
  } else if (m.index.type === 'none' && s.indexType !== 'FLAT') throw bad(`the index type is ${String(s.indexType)}, the marker says none (FLAT)`);
  const spec: CollectionSpec = { name, dim: m.dim, metric, index };
  if (typeof m.model === 'string') spec.embeddingModel = m.model;
  return spec;
}
