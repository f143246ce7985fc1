import {
  MEMORY_KINDS,
  MemoryMatrixError,
  parseInstant,
  validateDecay,
  type CollectionSpec,
  type Metadata,
  type Metric,
  type MemoryRecord,
  type RecallFilter,
  type RecallQuery,
} from '@memory-matrix/spec';

/**
 * Input validation, run BEFORE anything is sent to PostgreSQL, so a bad record fails the whole
 * call with nothing written (CHECKS.md C11, C12). Every message starts with `pgvector:` and names
 * the table, record id and index, or field. Codes: DIMENSION_MISMATCH, INVALID_VECTOR,
 * INVALID_INPUT, CAPABILITY_MISSING.
 */

/** Largest `dim` of a pgvector `vector` column; HNSW and IVFFlat index at most 2,000 dims. */
export const MAX_DIM = 16000;
export const MAX_INDEXED_DIM = 2000;
const NAME = /^[a-z0-9_]{1,48}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `pgvector: ${message}`);
}

/** A string PostgreSQL `text`/`jsonb` stores byte-identically: no NUL, no lone UTF-16 surrogate. */
function checkText(value: unknown, where: string): void {
  if (typeof value !== 'string') throw invalid(`${where} must be a string, got ${typeof value}`);
  if (value.includes('\u0000')) throw invalid(`${where} contains a NUL character, which PostgreSQL text cannot store`);
  if (LONE_SURROGATE.test(value)) throw invalid(`${where} contains a lone UTF-16 surrogate, which UTF-8 cannot store`);
}

/** Collection name `[a-z0-9_]{1,48}` (spec `CollectionSpec.name`). */
export function validateName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw invalid(`collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
  }
  return name;
}

/** Validate a collection spec against pgvector's limits and the adapter's metrics. */
export function validateSpec(spec: CollectionSpec, metrics: readonly Metric[]): void {
  validateName(spec.name);
  const where = `collection ${spec.name}`;
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > MAX_DIM) {
    throw invalid(`${where}: dim must be an integer in 1..${MAX_DIM}, got ${spec.dim}`);
  }
  if (!metrics.includes(spec.metric)) throw invalid(`${where}: metric must be one of ${metrics.join(', ')}, got ${spec.metric}`);
  if (spec.embeddingModel !== undefined) checkText(spec.embeddingModel, `${where}: embeddingModel`);
  const ix = spec.index;
  const int = (v: unknown, lo: number, hi: number, field: string) => {
    if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi) {
      throw invalid(`${where}: index.${field} must be an integer in ${lo}..${hi}, got ${String(v)}`);
    }
  };
  if (ix?.type === 'none') return;
  if (ix?.type === 'hnsw') {
    // Ranges from pgvector's reloptions / GUCs: m 2..100, ef_construction 4..1000 (≥ 2·m), ef_search 1..1000.
    int(ix.m, 2, 100, 'm');
    int(ix.efConstruction, Math.max(4, 2 * ix.m), 1000, 'efConstruction');
    int(ix.efSearch, 1, 1000, 'efSearch');
  } else if (ix?.type === 'ivfflat') {
    // pgvector: lists 1..32768, ivfflat.probes 1..lists.
    int(ix.lists, 1, 32768, 'lists');
    int(ix.probes, 1, ix.lists, 'probes');
  } else {
    throw invalid(`${where}: index.type must be none, hnsw or ivfflat, got ${JSON.stringify((ix as { type?: unknown })?.type)}`);
  }
  if (spec.dim > MAX_INDEXED_DIM) {
    throw new MemoryMatrixError(
      'CAPABILITY_MISSING',
      `pgvector: ${where}: ${ix.type} indexes support at most ${MAX_INDEXED_DIM} dimensions for type vector, dim is ${spec.dim}`,
    );
  }
}

/**
 * Validate one vector: a `Float32Array` of exactly `dim` finite components, not all zero under
 * cosine. `where` names the record (id and index) or the query.
 */
export function validateVector(v: unknown, dim: number, metric: Metric, where: string): asserts v is Float32Array {
  if (!ArrayBuffer.isView(v) || Object.prototype.toString.call(v) !== '[object Float32Array]') {
    throw invalid(`${where}: embedding must be a Float32Array`);
  }
  const a = v as Float32Array;
  if (a.length !== dim) {
    throw new MemoryMatrixError('DIMENSION_MISMATCH', `pgvector: ${where}: vector has ${a.length} components, the collection's dimension is ${dim}`);
  }
  let allZero = true;
  for (let i = 0; i < dim; i++) {
    const x = a[i]!;
    if (!Number.isFinite(x)) {
      throw new MemoryMatrixError('INVALID_VECTOR', `pgvector: ${where}: component ${i} is ${x}; vectors must have finite components`);
    }
    if (x !== 0) allZero = false;
  }
  if (allZero && metric === 'cosine') {
    throw new MemoryMatrixError('INVALID_VECTOR', `pgvector: ${where}: zero vector under the cosine metric (cosine similarity is undefined for it)`);
  }
}

/** Metadata: a plain object of JSON scalars that jsonb stores exactly (finite numbers, not −0). */
export function validateMetadata(m: unknown, where: string, allowNegativeZero = false): asserts m is Metadata {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw invalid(`${where}: metadata must be a plain object`);
  for (const [key, value] of Object.entries(m)) {
    checkText(key, `${where}: metadata key`);
    const at = `${where}: metadata.${key}`;
    if (value === null || typeof value === 'boolean') continue;
    if (typeof value === 'string') checkText(value, at);
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw invalid(`${at} is ${value}; JSON has no NaN/Infinity`);
      if (Object.is(value, -0) && !allowNegativeZero) throw invalid(`${at} is -0, which jsonb stores as 0`);
    } else throw invalid(`${at} must be a string, number, boolean or null, got ${Array.isArray(value) ? 'array' : typeof value}`);
  }
}

/** Validate one record (position `index` in the call) against the collection. */
export function validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, table: string): void {
  if (typeof r !== 'object' || r === null) throw invalid(`table ${table}: record ${index} is not an object`);
  const where = `table ${table}: record ${JSON.stringify(r.id)} (index ${index})`;
  checkText(r.id, `${where}: id`);
  if (r.id.length < 1 || r.id.length > 256) throw invalid(`${where}: id must be 1..256 characters`);
  checkText(r.namespace, `${where}: namespace`);
  checkText(r.text, `${where}: text`);
  if (!MEMORY_KINDS.includes(r.kind)) throw invalid(`${where}: kind must be one of ${MEMORY_KINDS.join(', ')}, got ${JSON.stringify(r.kind)}`);
  checkCreatedAt(r.createdAt, where);
  validateMetadata(r.metadata, where);
  validateVector(r.embedding, dim, metric, where);
}

/** Canonical instant (spec time.ts: ms or µs, UTC `Z`, offsets rejected); INVALID_INPUT naming the record. */
function checkCreatedAt(s: unknown, where: string): void {
  parseInstant(s, `pgvector: ${where}: createdAt`);
}

/** Validate a recall filter (all parts optional; arrays may be empty = match nothing). */
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
  if (f.metadata !== undefined) validateMetadata(f.metadata, `${where}: filter`, true);
}

/** Validate a recall query: vector, k in 1..1000, finite minScore, scan mode, filter. */
export function validateQuery(q: RecallQuery, dim: number, metric: Metric, table: string): void {
  const where = `table ${table}: recall`;
  if (typeof q !== 'object' || q === null) throw invalid(`${where}: query must be an object`);
  validateVector(q.vector, dim, metric, `${where} query vector`);
  if (!Number.isInteger(q.k) || q.k < 1 || q.k > 1000) throw invalid(`${where}: k must be an integer in 1..1000, got ${q.k}`);
  if (q.minScore !== undefined && (typeof q.minScore !== 'number' || Number.isNaN(q.minScore))) {
    throw invalid(`${where}: minScore must be a number, got ${String(q.minScore)}`);
  }
  if (q.scan !== undefined && q.scan !== 'exact' && q.scan !== 'index') throw invalid(`${where}: scan must be 'exact' or 'index', got ${String(q.scan)}`);
  validateFilter(q.filter, where);
  validateDecay(q, metric, `pgvector: ${where}`);
}

/** Ids for get/delete: an array of strings (any string; unknown ids are simply not found). */
export function validateIds(ids: unknown, where: string): asserts ids is string[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw invalid(`${where}: ids must be an array of strings`);
  ids.forEach((id: string, i) => checkText(id, `${where}: ids[${i}]`));
}
