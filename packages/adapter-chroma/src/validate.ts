import {
  isHnsw,
  isIvfflat,
  FLOAT32_MAX,
  MemoryMatrixError,
  checkStoredText,
  validateIdList,
  validateMemoryRecord,
  validateRecallFilter,
  validateRecallQuery,
  validateVector,
  type CollectionSpec,
  type IndexConfig,
  type InputRules,
  type MemoryRecord,
  type Metric,
  type RecallFilter,
  type RecallQuery,
} from '@memory-matrix/spec';

import { CHROMA_FILTER_OPERATORS } from './where';

const NAME_RE = /^[a-z0-9_]{1,48}$/;
function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `chroma: ${message}`);
}

/** A string that survives JSON + UTF-8 to the server and back: no lone surrogates. */
function checkText(s: unknown, where: string): asserts s is string {
  checkStoredText(s, where, CHROMA_RULES);
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
    throw new MemoryMatrixError(
      'INVALID_VECTOR',
      `${where}: squared norm ${s.toExponential(3)} exceeds ${MAX_SQUARED_NORM.toExponential(3)} (float32 max / 4); Chroma computes in float32 and would overflow (NaN vectors under cosine, null distances)`,
    );
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
  if (isIvfflat(i)) throw new MemoryMatrixError('CAPABILITY_MISSING', `chroma: collection ${name}: Chroma has no IVFFlat index (annIndexes: hnsw)`);
  if (!isHnsw(i)) throw invalid(`collection ${name}: index.type must be hnsw or none, got ${JSON.stringify((i as { type?: unknown })?.type)}`);
  for (const k of ['m', 'efConstruction', 'efSearch'] as const) {
    if (!Number.isInteger(i[k]) || i[k] < 1) throw invalid(`collection ${name}: index.${k} must be a positive integer, got ${i[k]}`);
  }
}

/**
 * Chroma's limits on top of the contract (spec record-validation.ts): the float32 overflow guard on
 * vectors. Empty metadata keys (which Chroma refuses) are refused by the contract for every adapter
 * (spec stored-values.ts), as are −0 and NUL, which Chroma itself would keep.
 */
export const CHROMA_RULES: InputRules = { adapter: 'chroma', vector: validateChromaVector, filterOperators: CHROMA_FILTER_OPERATORS };

/** One record (position `index` in the call) against the collection's dim and metric. */
export function validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, coll: string): void {
  validateMemoryRecord(r, index, dim, metric, `collection ${coll}`, CHROMA_RULES);
}

/** A recall filter (every part optional; empty lists match nothing). */
export function validateFilter(f: RecallFilter | undefined, where: string): void {
  validateRecallFilter(f, where, CHROMA_RULES);
}

/** A recall query: vector (DIMENSION_MISMATCH / INVALID_VECTOR), k 1..1000, minScore, scan, filter. */
export function validateQuery(q: RecallQuery, dim: number, metric: Metric, coll: string): void {
  validateRecallQuery(q, dim, metric, `collection ${coll}`, CHROMA_RULES);
}

/** Ids for get/delete: an array of strings. */
export function validateIds(ids: unknown, where: string): asserts ids is string[] {
  validateIdList(ids, where, CHROMA_RULES);
}
