import { FLOAT32_MAX, MEMORY_KINDS, MemoryMatrixError, parseInstant, validateDecay, validateVector, type CollectionSpec, type IndexConfig, type MemoryRecord, type Metadata, type Metric, type RecallFilter, type RecallQuery } from '@memory-matrix/spec';

const NAME_RE = /^[a-z0-9_]{1,48}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `chroma: ${message}`);
}

/** A string that survives JSON + UTF-8 to the server and back: no lone surrogates. */
function checkText(s: unknown, where: string): asserts s is string {
  if (typeof s !== 'string') throw invalid(`${where} must be a string, got ${typeof s}`);
  if (LONE_SURROGATE.test(s)) throw invalid(`${where} contains a lone UTF-16 surrogate (not representable in UTF-8)`);
}

/**
 * Largest squared norm Σxᵢ² a vector may have: FLOAT32_MAX / 4. Chroma computes norms, dot
 * products and squared distances in float32; above this they can overflow to ±Infinity, and
 * Chroma then silently stores a cosine vector as NaNs (get returns nulls) or returns a null
 * distance (measured on 1.0.0 with a component of 1e20). With ‖a‖², ‖b‖² ≤ max/4,
 * ‖a − b‖² ≤ 2(‖a‖² + ‖b‖²) ≤ max and |a·b| ≤ ‖a‖‖b‖ ≤ max/4, so nothing overflows.
 */
export const MAX_SQUARED_NORM = FLOAT32_MAX / 4;

/** `spec.validateVector` plus the float32 overflow guard above (INVALID_VECTOR). */
export function validateChromaVector(v: ArrayLike<number>, dim: number, metric: Metric, where: string): void {
  validateVector(v, dim, metric, where);
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (s > MAX_SQUARED_NORM) {
    throw new MemoryMatrixError('INVALID_VECTOR', `${where}: squared norm ${s.toExponential(3)} exceeds ${MAX_SQUARED_NORM.toExponential(3)} (float32 max / 4); Chroma computes in float32 and would overflow (NaN vectors under cosine, null distances)`);
  }
}

/** Collection name of the contract, `[a-z0-9_]{1,48}`; INVALID_INPUT otherwise. */
export function validateName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME_RE.test(name)) throw invalid(`collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
}

/**
 * A collection spec this adapter can create: name, dim 1..16000, a supported metric, and an index
 * of type `hnsw` (mapped onto Chroma's HNSW) or `none` (Chroma still answers through its HNSW with
 * its defaults: it has no other search path). IVFFlat → CAPABILITY_MISSING.
 */
export function validateSpec(spec: CollectionSpec, metrics: readonly Metric[]): void {
  if (typeof spec !== 'object' || spec === null) throw invalid('collection spec must be an object');
  validateName(spec.name);
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > 16000) throw invalid(`collection ${spec.name}: dim must be an integer in 1..16000, got ${spec.dim}`);
  if (!metrics.includes(spec.metric)) throw invalid(`collection ${spec.name}: metric must be one of ${metrics.join(', ')}, got ${JSON.stringify(spec.metric)}`);
  validateIndex(spec.index, spec.name);
  if (spec.embeddingModel !== undefined) checkText(spec.embeddingModel, `collection ${spec.name}: embeddingModel`);
}

function validateIndex(i: IndexConfig, name: string): void {
  if (i?.type === 'none') return;
  if (i?.type === 'ivfflat') throw new MemoryMatrixError('CAPABILITY_MISSING', `chroma: collection ${name}: Chroma has no IVFFlat index (annIndexes: chroma-hnsw)`);
  if (i?.type !== 'hnsw') throw invalid(`collection ${name}: index.type must be hnsw or none, got ${JSON.stringify((i as { type?: unknown })?.type)}`);
  for (const k of ['m', 'efConstruction', 'efSearch'] as const) {
    if (!Number.isInteger(i[k]) || i[k] < 1) throw invalid(`collection ${name}: index.${k} must be a positive integer, got ${i[k]}`);
  }
}

/** Metadata: a plain object of JSON scalars (finite numbers); keys non-empty strings. */
export function validateMetadata(m: unknown, where: string): asserts m is Metadata {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw invalid(`${where}: metadata must be a plain object`);
  for (const [key, value] of Object.entries(m)) {
    checkText(key, `${where}: metadata key`);
    if (key === '') throw invalid(`${where}: metadata key must not be empty`);
    const at = `${where}: metadata.${key}`;
    if (value === null || typeof value === 'boolean') continue;
    if (typeof value === 'string') checkText(value, at);
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw invalid(`${at} is ${value}; JSON has no NaN/Infinity`);
    } else throw invalid(`${at} must be a string, number, boolean or null, got ${Array.isArray(value) ? 'array' : typeof value}`);
  }
}

/** One record (position `index` in the call) against the collection's dim and metric. */
export function validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, coll: string): void {
  if (typeof r !== 'object' || r === null) throw invalid(`collection ${coll}: record ${index} is not an object`);
  const where = `collection ${coll}: record ${JSON.stringify(r.id)} (index ${index})`;
  checkText(r.id, `${where}: id`);
  if (r.id.length < 1 || r.id.length > 256) throw invalid(`${where}: id must be 1..256 characters`);
  checkText(r.namespace, `${where}: namespace`);
  checkText(r.text, `${where}: text`);
  if (!MEMORY_KINDS.includes(r.kind)) throw invalid(`${where}: kind must be one of ${MEMORY_KINDS.join(', ')}, got ${JSON.stringify(r.kind)}`);
  parseInstant(r.createdAt, `chroma: ${where}: createdAt`); // canonical ms or µs instant, UTC only (spec time.ts)
  validateMetadata(r.metadata, where);
  if (Object.prototype.toString.call(r.embedding) !== '[object Float32Array]') throw invalid(`${where}: embedding must be a Float32Array`);
  validateChromaVector(r.embedding, dim, metric, `chroma: ${where}`);
}

/** A recall filter (every part optional; empty lists match nothing). */
export function validateFilter(f: RecallFilter | undefined, where: string): void {
  if (f === undefined) return;
  if (typeof f !== 'object' || f === null) throw invalid(`${where}: filter must be an object`);
  if (f.namespaces !== undefined) {
    if (!Array.isArray(f.namespaces)) throw invalid(`${where}: filter.namespaces must be an array`);
    f.namespaces.forEach((n, i) => checkText(n, `${where}: filter.namespaces[${i}]`));
  }
  if (f.kinds !== undefined) {
    if (!Array.isArray(f.kinds)) throw invalid(`${where}: filter.kinds must be an array`);
    for (const k of f.kinds) if (!MEMORY_KINDS.includes(k)) throw invalid(`${where}: filter.kinds has unknown kind ${JSON.stringify(k)}`);
  }
  if (f.metadata !== undefined) validateMetadata(f.metadata, `${where}: filter`);
}

/** A recall query: vector (DIMENSION_MISMATCH / INVALID_VECTOR), k 1..1000, minScore, scan, filter. */
export function validateQuery(q: RecallQuery, dim: number, metric: Metric, coll: string): void {
  const where = `collection ${coll}: recall`;
  if (typeof q !== 'object' || q === null) throw invalid(`${where}: query must be an object`);
  validateChromaVector(q.vector, dim, metric, `chroma: ${where} query vector`);
  if (!Number.isInteger(q.k) || q.k < 1 || q.k > 1000) throw invalid(`${where}: k must be an integer in 1..1000, got ${q.k}`);
  if (q.minScore !== undefined && (typeof q.minScore !== 'number' || Number.isNaN(q.minScore))) throw invalid(`${where}: minScore must be a number, got ${String(q.minScore)}`);
  if (q.scan !== undefined && q.scan !== 'exact' && q.scan !== 'index') throw invalid(`${where}: scan must be 'exact' or 'index', got ${String(q.scan)}`);
  validateFilter(q.filter, where);
  validateDecay(q, metric, `chroma: ${where}`);
}

/** Ids for get/delete: an array of strings. */
export function validateIds(ids: unknown, where: string): asserts ids is string[] {
  if (!Array.isArray(ids)) throw invalid(`${where}: ids must be an array of strings`);
  ids.forEach((id, i) => checkText(id, `${where}: ids[${i}]`));
}
