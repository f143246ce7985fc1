import { isHnsw, MemoryMatrixError, recordValidators, validateCollectionName, validateSpecBasics } from '@memory-matrix/spec';
import type { CollectionSpec, IdsValidator, InputRules, MemoryRecord, Metric } from '@memory-matrix/spec';
import { UNQUOTABLE } from './expr';
import { MILVUS_FILTER_OPERATORS } from './filter-expr';
import { MAX_LENGTH } from './schema';

const invalid = (message: string) => new MemoryMatrixError('INVALID_INPUT', `milvus: ${message}`);

/**
 * Milvus's rules: the contract's (spec record-validation.ts). Empty metadata keys (a JSON path
 * `metadata[""]` is refused by the server: "Invalid expr", measured) and −0 (the JSON field keeps
 * numbers as JSON, which has no negative zero) are refused by the contract for every adapter
 * (spec stored-values.ts). A `where` may use the operators of MILVUS_FILTER_OPERATORS.
 */
export const MILVUS_RULES: InputRules = { adapter: 'milvus', filterOperators: MILVUS_FILTER_OPERATORS };

/** Collection name of the contract, `[a-z0-9_]{1,48}`; INVALID_INPUT otherwise. */
export function validateName(name: unknown): asserts name is string {
  validateCollectionName('milvus', name);
}

/** A spec this adapter can create: name, dim 1..16000 (Milvus limit 32,768), a supported metric, index hnsw / none. INVALID_INPUT otherwise. */
export function validateSpec(spec: CollectionSpec, metrics: readonly Metric[]): void {
  // embeddingModel: not checked as text (it never was here; the marker stores it as given: README, known gap).
  validateSpecBasics(spec, { rules: MILVUS_RULES, metrics, metricShown: 'json', requireObject: true, embeddingModel: false });
  const i = spec.index;
  if (isHnsw(i)) {
    for (const k of ['m', 'efConstruction', 'efSearch'] as const) if (!Number.isInteger(i[k]) || i[k] < 1) throw invalid(`collection ${spec.name}: index.${k} must be a positive integer, got ${i[k]}`);
  } else if (i?.type !== 'none' && i?.type !== 'ivfflat') throw invalid(`collection ${spec.name}: index.type must be hnsw or none, got ${JSON.stringify((i as { type?: unknown })?.type)}`);
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const checks = recordValidators(MILVUS_RULES, 'collection');

/**
 * One record (position `index` in the call): the contract's checks, then Milvus's: id and
 * namespace without LF/CR (no expression literal can carry them, expr.ts quoteString: such a
 * record could be written but never read or deleted by id), text ≤ 65,535 UTF-8 bytes (VarChar max).
 */
export function validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, coll: string): void {
  checks.validateRecord(r, index, dim, metric, coll);
  const at = `collection ${coll}: record ${index} (id ${JSON.stringify(r.id)})`;
  if (UNQUOTABLE.test(r.id)) throw invalid(`${at}: id contains a line feed or carriage return; a Milvus expression cannot name it (get/delete by id would be impossible)`);
  if (UNQUOTABLE.test(r.namespace)) throw invalid(`${at}: namespace contains a line feed or carriage return; a Milvus expression cannot filter on it`);
  if (bytes(r.namespace) > MAX_LENGTH.namespace) throw invalid(`${at}: namespace is ${bytes(r.namespace)} UTF-8 bytes, more than ${MAX_LENGTH.namespace}`);
  if (bytes(r.text) > MAX_LENGTH.text) throw invalid(`${at}: text is ${bytes(r.text)} UTF-8 bytes, more than Milvus's VarChar maximum ${MAX_LENGTH.text}`);
}

/** Filters (values with LF/CR are refused when the expression is built, quoteString), queries, id lists: the kit's checks (spec kit/validate.ts). */
export const { validateFilter, validateQuery } = checks;
/** Ids for get/delete: an array of strings (spec `validateIdList`). */
export const validateIds: IdsValidator = checks.validateIds;
