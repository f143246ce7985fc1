import {
  MemoryMatrixError,
  checkStoredText,
  validateIdList,
  validateMemoryRecord,
  validateDeleteFilter,
  validateRecallFilter,
  validateRecallQuery,
  type CollectionSpec,
  type InputRules,
  type Metric,
  type MemoryRecord,
  type RecallFilter,
  type RecallQuery,
} from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { SQLITE_METRICS } from './scores';
import { SQLITE_FILTER_OPERATORS } from './where-sql';

/**
 * Input validation, run BEFORE anything is written, so a bad record fails the whole call with
 * nothing written (C11, C12). Messages start with `sqlite:` and name the table, record id and
 * index, or field. Codes: DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, CAPABILITY_MISSING.
 */

/** Largest `float[dim]` vec0 accepts (sqlite-vec's SQLITE_VEC_VEC0_MAX_DIMENSIONS, 8192). */
export const MAX_DIM = 8192;
const NAME = /^[a-z0-9_]{1,48}$/;

/**
 * SQLite's rules: the contract's (spec record-validation.ts). Its metadata is JSON text, which has
 * no −0 (`JSON.stringify(-0)` is `0`); the contract refuses −0, and U+0000 (which SQLite TEXT would
 * keep: better-sqlite3 binds strings with their byte length), for every adapter (spec stored-values.ts).
 */
export const SQLITE_RULES: InputRules = { adapter: ADAPTER, filterOperators: SQLITE_FILTER_OPERATORS, metadataShapes: ['nested', 'array'] };

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}

/** Collection name `[a-z0-9_]{1,48}` (spec `CollectionSpec.name`). */
export function validateName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid(`collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
  return name;
}

/**
 * A collection spec: name, dim 1..8192, a metric vec0 has (cosine, l2; `ip` is CAPABILITY_MISSING),
 * index `none` (vec0 KNN is an exhaustive scan; an ANN index is CAPABILITY_MISSING).
 */
export function validateSpec(spec: CollectionSpec): void {
  validateName(spec?.name);
  const where = `collection ${spec.name}`;
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > MAX_DIM) throw invalid(`${where}: dim must be an integer in 1..${MAX_DIM}, got ${spec.dim}`);
  if (spec.metric === 'ip') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: vec0 has no inner-product distance (it offers cosine and L2)`);
  if (!SQLITE_METRICS.includes(spec.metric)) throw invalid(`${where}: metric must be one of ${SQLITE_METRICS.join(', ')}, got ${String(spec.metric)}`);
  if (spec.embeddingModel !== undefined) checkStoredText(spec.embeddingModel, `${where}: embeddingModel`, SQLITE_RULES);
  const type = (spec.index as { type?: unknown } | undefined)?.type;
  if (type === 'hnsw' || type === 'ivfflat') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: index ${type} is not available; vec0 KNN is an exhaustive scan (index type none)`);
  }
  if (type !== 'none') throw invalid(`${where}: index.type must be none, got ${JSON.stringify(type)}`);
}

/** One record (position `index` in the call) against the collection (spec `validateMemoryRecord`). */
export function validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, table: string): void {
  validateMemoryRecord(r, index, dim, metric, `table ${table}`, SQLITE_RULES);
}

/** A recall/count filter (spec `validateRecallFilter`). */
export function validateFilter(f: RecallFilter | undefined, where: string): void {
  validateRecallFilter(f, where, SQLITE_RULES);
}

/** A `deleteWhere` filter: a recall filter with at least one part (spec `validateDeleteFilter`). */
export function validateDeleteWhere(f: RecallFilter | undefined, scope: string): void {
  validateDeleteFilter(f, scope, SQLITE_RULES);
}

/** A recall query (spec `validateRecallQuery`). */
export function validateQuery(q: RecallQuery, dim: number, metric: Metric, table: string): void {
  validateRecallQuery(q, dim, metric, `table ${table}`, SQLITE_RULES);
}

/** Ids for get/delete (spec `validateIdList`). */
export function validateIds(ids: unknown, where: string): asserts ids is string[] {
  validateIdList(ids, where, SQLITE_RULES);
}
