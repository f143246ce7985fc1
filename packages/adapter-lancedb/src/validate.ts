import { MemoryMatrixError, recordValidators, validateCollectionName, validateSpecBasics, type CollectionSpec, type IdsValidator, type InputRules } from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { LANCEDB_FILTER_OPERATORS } from './filter-sql';
import { LANCEDB_METRICS } from './scores';

/**
 * Input validation, run BEFORE anything is written, so a bad record fails the whole call with
 * nothing written (C11, C12): the kit's (spec kit/validate.ts) with LanceDB's rules. Messages
 * start with `lancedb:` and name the table, record id and index, or field. Codes:
 * DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT.
 */

/** Largest dim (the contract's `CollectionSpec.dim` bound). */
export const MAX_DIM = 16000;

/**
 * LanceDB's rules: the contract's (spec record-validation.ts). Its metadata is JSON text, which has
 * no −0; the contract refuses −0 (and U+0000, which LanceDB itself would keep) for every adapter
 * (spec stored-values.ts). Filter-language operators: filter-sql.ts (all but `$contains`).
 */
export const LANCEDB_RULES: InputRules = { adapter: ADAPTER, filterOperators: LANCEDB_FILTER_OPERATORS };

/** Collection name `[a-z0-9_]{1,48}` (spec `CollectionSpec.name`); INVALID_INPUT otherwise. */
export const validateName = (name: unknown): string => validateCollectionName(ADAPTER, name);

const positiveInt = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1;

/**
 * A collection spec: name, dim 1..16000, metric cosine / ip / l2, index `none`, `hnsw` (m,
 * efConstruction, efSearch integers ≥ 1; built as IVF_HNSW_SQ) or `ivfflat` (lists, probes
 * integers ≥ 1; built as IVF_FLAT). Throws INVALID_INPUT naming the field.
 */
export function validateSpec(spec: CollectionSpec): void {
  const where = validateSpecBasics(spec, { rules: LANCEDB_RULES, maxDim: MAX_DIM, metrics: LANCEDB_METRICS });
  const idx = spec.index as unknown as Record<string, unknown> | undefined;
  const type = idx?.type;
  if (type === 'none') return;
  const need = type === 'hnsw' ? ['m', 'efConstruction', 'efSearch'] : type === 'ivfflat' ? ['lists', 'probes'] : undefined;
  const invalid = (message: string) => new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: ${message}`);
  if (!need) throw invalid(`index.type must be none, hnsw or ivfflat, got ${JSON.stringify(type)}`);
  for (const k of need) if (!positiveInt(idx![k])) throw invalid(`index.${k} must be an integer ≥ 1, got ${JSON.stringify(idx![k])}`);
}

const checks = recordValidators(LANCEDB_RULES, 'table');
/** Records, filters, queries and id lists against a table: the kit's checks (spec kit/validate.ts `RecordValidators`). */
export const { validateRecord, validateFilter, validateDeleteWhere, validateQuery } = checks;
/** Ids for get/delete (spec `validateIdList`). */
export const validateIds: IdsValidator = checks.validateIds;
