import {
  isHnsw,
  isIvfflat,
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
import { PGVECTOR_FILTER_OPERATORS } from './filter-sql';

/**
 * Input validation, run BEFORE anything is sent to PostgreSQL, so a bad record fails the whole
 * call with nothing written (docs/checks.md C11, C12). Every message starts with `pgvector:` and names
 * the table, record id and index, or field. Codes: DIMENSION_MISMATCH, INVALID_VECTOR,
 * INVALID_INPUT, CAPABILITY_MISSING.
 */

/** Largest `dim` of a pgvector `vector` column; HNSW and IVFFlat index at most 2,000 dims. */
export const MAX_DIM = 16000;
export const MAX_INDEXED_DIM = 2000;
const NAME = /^[a-z0-9_]{1,48}$/;

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `pgvector: ${message}`);
}

/** A string PostgreSQL `text`/`jsonb` stores byte-identically: no NUL, no lone UTF-16 surrogate. */
function checkText(value: unknown, where: string): void {
  checkStoredText(value, where, PG_RULES);
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
  if (isHnsw(ix)) {
    // Ranges from pgvector's reloptions / GUCs: m 2..100, ef_construction 4..1000 (≥ 2·m), ef_search 1..1000.
    int(ix.m, 2, 100, 'm');
    int(ix.efConstruction, Math.max(4, 2 * ix.m), 1000, 'efConstruction');
    int(ix.efSearch, 1, 1000, 'efSearch');
  } else if (isIvfflat(ix)) {
    // pgvector: lists 1..32768, ivfflat.probes 1..lists.
    int(ix.lists, 1, 32768, 'lists');
    int(ix.probes, 1, ix.lists, 'probes');
  } else {
    throw invalid(`${where}: index.type must be none, hnsw or ivfflat, got ${JSON.stringify((ix as { type?: unknown })?.type)}`);
  }
  if (spec.dim > MAX_INDEXED_DIM) {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `pgvector: ${where}: ${ix.type} indexes support at most ${MAX_INDEXED_DIM} dimensions for type vector, dim is ${spec.dim}`);
  }
}

/**
 * pgvector's rules: the contract's (spec record-validation.ts). NUL (text and jsonb hold none) and −0
 * (jsonb loses the sign) are refused by the contract for every adapter (spec stored-values.ts).
 * Every operator of the filter language is compiled to SQL (filter-sql.ts).
 */
export const PG_RULES: InputRules = { adapter: 'pgvector', filterOperators: PGVECTOR_FILTER_OPERATORS, metadataShapes: ['nested', 'array'] };

/** One record (position `index` in the call) against the table's dim and metric (spec `validateMemoryRecord`). */
export function validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, table: string): void {
  validateMemoryRecord(r, index, dim, metric, `table ${table}`, PG_RULES);
}

/** A recall/count filter (spec `validateRecallFilter`). */
export function validateFilter(f: RecallFilter | undefined, where: string): void {
  validateRecallFilter(f, where, PG_RULES);
}

/** A `deleteWhere` filter: a recall filter with at least one part (spec `validateDeleteFilter`). */
export function validateDeleteWhere(f: RecallFilter | undefined, scope: string): void {
  validateDeleteFilter(f, scope, PG_RULES);
}

/** A recall query against the table (spec `validateRecallQuery`). */
export function validateQuery(q: RecallQuery, dim: number, metric: Metric, table: string): void {
  validateRecallQuery(q, dim, metric, `table ${table}`, PG_RULES);
}

/** Ids for get/delete (spec `validateIdList`). */
export function validateIds(ids: unknown, where: string): asserts ids is string[] {
  validateIdList(ids, where, PG_RULES);
}
