import { MemoryMatrixError, recordValidators, validateCollectionName, validateSpecBasics, type CollectionSpec, type IdsValidator, type InputRules } from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { SQLITE_METRICS } from './scores';
import { SQLITE_FILTER_OPERATORS } from './where-sql';

/**
 * Input validation, run BEFORE anything is written, so a bad record fails the whole call with
 * nothing written (C11, C12): the kit's (spec kit/validate.ts) with SQLite's rules. Messages start
 * with `sqlite:` and name the table, record id and index, or field. Codes: DIMENSION_MISMATCH,
 * INVALID_VECTOR, INVALID_INPUT, CAPABILITY_MISSING.
 */

/** Largest `float[dim]` vec0 accepts (sqlite-vec's SQLITE_VEC_VEC0_MAX_DIMENSIONS, 8192). */
export const MAX_DIM = 8192;

/**
 * SQLite's rules: the contract's (spec record-validation.ts). Its metadata is JSON text, which has
 * no −0 (`JSON.stringify(-0)` is `0`); the contract refuses −0, and U+0000 (which SQLite TEXT would
 * keep: better-sqlite3 binds strings with their byte length), for every adapter (spec stored-values.ts).
 */
export const SQLITE_RULES: InputRules = { adapter: ADAPTER, filterOperators: SQLITE_FILTER_OPERATORS, metadataShapes: ['nested', 'array'] };

/** Collection name `[a-z0-9_]{1,48}` (spec `CollectionSpec.name`); INVALID_INPUT otherwise. */
export const validateName = (name: unknown): string => validateCollectionName(ADAPTER, name);

/**
 * A collection spec: name, dim 1..8192, a metric vec0 has (cosine, l2; `ip` is CAPABILITY_MISSING),
 * index `none` (vec0 KNN is an exhaustive scan; an ANN index is CAPABILITY_MISSING).
 */
export function validateSpec(spec: CollectionSpec): void {
  const where = validateSpecBasics(spec, { rules: SQLITE_RULES, maxDim: MAX_DIM });
  if (spec.metric === 'ip') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: vec0 has no inner-product distance (it offers cosine and L2)`);
  if (!SQLITE_METRICS.includes(spec.metric)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: metric must be one of ${SQLITE_METRICS.join(', ')}, got ${String(spec.metric)}`);
  const type = (spec.index as { type?: unknown } | undefined)?.type;
  if (type === 'hnsw' || type === 'ivfflat') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: index ${type} is not available; vec0 KNN is an exhaustive scan (index type none)`);
  }
  if (type !== 'none') throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: index.type must be none, got ${JSON.stringify(type)}`);
}

const checks = recordValidators(SQLITE_RULES, 'table');
/** Records, filters, queries and id lists against a table: the kit's checks (spec kit/validate.ts `RecordValidators`). */
export const { validateRecord, validateFilter, validateDeleteWhere, validateQuery } = checks;
/** Ids for get/delete (spec `validateIdList`). */
export const validateIds: IdsValidator = checks.validateIds;
