import {
  isHnsw,
  isIvfflat,
  FLOAT32_MAX,
  MemoryMatrixError,
  recordValidators,
  validateCollectionName,
  validateSpecBasics,
  validateVector,
  type CollectionSpec,
  type IdsValidator,
  type IndexConfig,
  type InputRules,
  type Metric,
} from '@memory-matrix/spec';

import { CHROMA_FILTER_OPERATORS } from './where';

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `chroma: ${message}`);
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
  validateCollectionName('chroma', name);
}

/**
 * A collection spec this adapter can create: name, dim 1..16000, a supported metric, and an index
 * of type `hnsw` (mapped onto Chroma's HNSW) or `none` (Chroma still answers through its HNSW with
 * its defaults: it has no other search path). IVFFlat → CAPABILITY_MISSING.
 */
export function validateSpec(spec: CollectionSpec, metrics: readonly Metric[]): void {
  validateSpecBasics(spec, { rules: CHROMA_RULES, metrics, metricShown: 'json', requireObject: true });
  validateIndex(spec.index, spec.name);
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

const checks = recordValidators(CHROMA_RULES, 'collection');
/** Records, filters (every part optional; empty lists match nothing) and queries against a collection: the kit's checks (spec kit/validate.ts). */
export const { validateRecord, validateFilter, validateQuery } = checks;
/** Ids for get/delete: an array of strings (spec `validateIdList`). */
export const validateIds: IdsValidator = checks.validateIds;
