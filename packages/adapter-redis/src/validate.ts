import {
  isHnsw,
  MemoryMatrixError,
  validateMemoryRecord,
  validateSpecBasics,
  validateRecallFilter,
  validateRecallQuery,
  type CollectionSpec,
  type InputRules,
  type MemoryRecord,
  type RecallFilter,
  type RecallQuery,
} from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { REDIS_FILTER_OPERATORS } from './filter-expr';

/**
 * Input validation, run BEFORE anything is sent to Redis, so a bad record fails the whole call
 * with nothing written (docs/checks.md C11, C12). Messages start with `redis:` and name the collection,
 * record id and index, or field. Codes: DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT,
 * CAPABILITY_MISSING.
 */

/** Largest dimension Vector Sets accept is far above this; 16000 is the spec's bound. */
export const MAX_DIM = 16000;
/** HNSW M and EF bounds Redis accepts (vset.c: M 4..4096 is checked as ≥ 4; EF > 0). */
const M_RANGE = [4, 4096] as const;
const EF_RANGE = [1, 1_000_000] as const;

/** Redis's rules: the contract's (spec record-validation.ts); −0, which attribute JSON loses, is refused by the contract for every adapter (spec stored-values.ts). */
export const REDIS_RULES: InputRules = { adapter: ADAPTER, filterOperators: REDIS_FILTER_OPERATORS };

function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}

/** Validate a collection spec; Vector Sets compare by cosine only. */
export function validateSpec(spec: CollectionSpec): void {
  const where = validateSpecBasics(spec, { rules: REDIS_RULES, maxDim: MAX_DIM });
  if (spec.metric !== 'cosine') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: Vector Sets compare by cosine only; metric ${spec.metric} is not available (RediSearch would be)`);
  }
  const ix = spec.index;
  const int = (v: unknown, [lo, hi]: readonly [number, number], field: string) => {
    if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi) throw invalid(`${where}: index.${field} must be an integer in ${lo}..${hi}, got ${String(v)}`);
  };
  if (ix?.type === 'none') return;
  if (isHnsw(ix)) {
    int(ix.m, M_RANGE, 'm');
    int(ix.efConstruction, EF_RANGE, 'efConstruction');
    int(ix.efSearch, EF_RANGE, 'efSearch');
    return;
  }
  if (ix?.type === 'ivfflat') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: Vector Sets have no IVFFlat index (HNSW only)`);
  throw invalid(`${where}: index.type must be none or hnsw, got ${JSON.stringify((ix as { type?: unknown })?.type)}`);
}

/** Validate every record of an upsert (all before any write); returns them last-wins by id, in id order. */
export function validateRecords(records: MemoryRecord[], dim: number, collection: string): MemoryRecord[] {
  if (!Array.isArray(records)) throw invalid(`upsert into ${collection}: records must be an array`);
  const byId = new Map<string, MemoryRecord>();
  records.forEach((r, i) => {
    validateMemoryRecord(r, i, dim, 'cosine', `upsert into ${collection}`, REDIS_RULES);
    byId.set(r.id, r);
  });
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Validate a recall query against the collection's dimension. */
export function validateQuery(q: RecallQuery, dim: number, collection: string): void {
  validateRecallQuery(q, dim, 'cosine', `collection ${collection}`, REDIS_RULES);
}

/** Validate a filter (lists of strings, known kinds, metadata scalars). */
export function validateFilter(f: RecallFilter | undefined, where: string): void {
  validateRecallFilter(f, where, REDIS_RULES);
}
