import { isHnsw, isIvfflat, MemoryMatrixError, recordValidators, validateCollectionName, validateSpecBasics } from '@memory-matrix/spec';
import type { CollectionSpec, IdsValidator, InputRules, Metric } from '@memory-matrix/spec';
import { PGVECTOR_FILTER_OPERATORS } from './filter-sql';

/**
 * Input validation, run BEFORE anything is sent to PostgreSQL, so a bad record fails the whole
 * call with nothing written (docs/checks.md C11, C12): the kit's (spec kit/validate.ts) with
 * pgvector's rules. Every message starts with `pgvector:` and names the table, record id and
 * index, or field. Codes: DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, CAPABILITY_MISSING.
 */

/** Largest `dim` of a pgvector `vector` column; HNSW and IVFFlat index at most 2,000 dims. */
export const MAX_DIM = 16000;
export const MAX_INDEXED_DIM = 2000;

/**
 * pgvector's rules: the contract's (spec record-validation.ts). NUL (text and jsonb hold none) and −0
 * (jsonb loses the sign) are refused by the contract for every adapter (spec stored-values.ts).
 * Every operator of the filter language is compiled to SQL (filter-sql.ts).
 */
export const PG_RULES: InputRules = { adapter: 'pgvector', filterOperators: PGVECTOR_FILTER_OPERATORS, metadataShapes: ['nested', 'array'] };

/** Collection name `[a-z0-9_]{1,48}` (spec `CollectionSpec.name`); INVALID_INPUT otherwise. */
export const validateName = (name: unknown): string => validateCollectionName('pgvector', name);

/** Validate a collection spec against pgvector's limits and the adapter's metrics. */
export function validateSpec(spec: CollectionSpec, metrics: readonly Metric[]): void {
  const where = validateSpecBasics(spec, { rules: PG_RULES, maxDim: MAX_DIM, metrics });
  const ix = spec.index;
  const int = (v: unknown, lo: number, hi: number, field: string) => {
    if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi) {
      throw new MemoryMatrixError('INVALID_INPUT', `pgvector: ${where}: index.${field} must be an integer in ${lo}..${hi}, got ${String(v)}`);
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
    throw new MemoryMatrixError('INVALID_INPUT', `pgvector: ${where}: index.type must be none, hnsw or ivfflat, got ${JSON.stringify((ix as { type?: unknown })?.type)}`);
  }
  if (spec.dim > MAX_INDEXED_DIM) {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `pgvector: ${where}: ${ix.type} indexes support at most ${MAX_INDEXED_DIM} dimensions for type vector, dim is ${spec.dim}`);
  }
}

const checks = recordValidators(PG_RULES, 'table');
/** Records, filters, queries and id lists against a table: the kit's checks (spec kit/validate.ts `RecordValidators`). */
export const { validateRecord, validateFilter, validateDeleteWhere, validateQuery } = checks;
/** Ids for get/delete (spec `validateIdList`). */
export const validateIds: IdsValidator = checks.validateIds;
