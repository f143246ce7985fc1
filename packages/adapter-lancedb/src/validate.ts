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
import { LANCEDB_FILTER_OPERATORS } from './filter-sql';
import { LANCEDB_METRICS } from './scores';

/**
 * Input validation, run BEFORE anything is written, so a bad record fails the whole call with
 * nothing written (C11, C12). Messages start with `lancedb:` and name the table, record id and
 * index, or field. Codes: DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT.
 */

/** Largest dim (the contract's `CollectionSpec.dim` bound). */
export const MAX_DIM = 16000;
const NAME = /^[a-z0-9_]{1,48}$/;

/**
 * LanceDB's rules: the contract's (spec record-validation.ts). Its metadata is JSON text, which has
 * no −0; the contract refuses −0 (and U+0000, which LanceDB itself would keep) for every adapter
 * (spec stored-values.ts). Filter-language operators: filter-sql.ts (all but `$contains`).
 */
export const LANCEDB_RULES: InputRules = { adapter: ADAPTER, filterOperators: LANCEDB_FILTER_OPERATORS };

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}

/** Collection name `[a-z0-9_]{1,48}` (spec `CollectionSpec.name`). */
export function validateName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid(`collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
  return name;
}

const positiveInt = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1;

/**
 * A collection spec: name, dim 1..16000, metric cosine / ip / l2, index `none`, `hnsw` (m,
 * efConstruction, efSearch integers ≥ 1; built as IVF_HNSW_SQ) or `ivfflat` (lists, probes
 * integers ≥ 1; built as IVF_FLAT). Throws INVALID_INPUT naming the field.
 */
export function validateSpec(spec: CollectionSpec): void {
  validateName(spec?.name);
  const where = `collection ${spec.name}`;
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > MAX_DIM) throw invalid(`${where}: dim must be an integer in 1..${MAX_DIM}, got ${spec.dim}`);
  if (!LANCEDB_METRICS.includes(spec.metric)) throw invalid(`${where}: metric must be one of ${LANCEDB_METRICS.join(', ')}, got ${String(spec.metric)}`);
  if (spec.embeddingModel !== undefined) checkStoredText(spec.embeddingModel, `${where}: embeddingModel`, LANCEDB_RULES);
  const idx = spec.index as unknown as Record<string, unknown> | undefined;
  const type = idx?.type;
  if (type === 'none') return;
  const need = type === 'hnsw' ? ['m', 'efConstruction', 'efSearch'] : type === 'ivfflat' ? ['lists', 'probes'] : undefined;
  if (!need) throw invalid(`${where}: index.type must be none, hnsw or ivfflat, got ${JSON.stringify(type)}`);
  for (const k of need) if (!positiveInt(idx![k])) throw invalid(`${where}: index.${k} must be an integer ≥ 1, got ${JSON.stringify(idx![k])}`);
}

/** One record (position `index` in the call) against the collection (spec `validateMemoryRecord`). */
export function validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, table: string): void {
  validateMemoryRecord(r, index, dim, metric, `table ${table}`, LANCEDB_RULES);
}

/** A recall/count filter (spec `validateRecallFilter`). */
export function validateFilter(f: RecallFilter | undefined, where: string): void {
  validateRecallFilter(f, where, LANCEDB_RULES);
}

/** A `deleteWhere` filter: a recall filter with at least one part (spec `validateDeleteFilter`). */
export function validateDeleteWhere(f: RecallFilter | undefined, scope: string): void {
  validateDeleteFilter(f, scope, LANCEDB_RULES);
}

/** A recall query (spec `validateRecallQuery`). */
export function validateQuery(q: RecallQuery, dim: number, metric: Metric, table: string): void {
  validateRecallQuery(q, dim, metric, `table ${table}`, LANCEDB_RULES);
}

/** Ids for get/delete (spec `validateIdList`). */
export function validateIds(ids: unknown, where: string): asserts ids is string[] {
  validateIdList(ids, where, LANCEDB_RULES);
}
