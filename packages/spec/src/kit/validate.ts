import { MemoryMatrixError } from '../errors';
import { checkStoredText, validateDeleteFilter, validateIdList, validateMemoryRecord, validateRecallFilter, validateRecallQuery, type InputRules } from '../record-validation';
import type { CollectionSpec, MemoryRecord, Metric, RecallFilter, RecallQuery } from '../types';

/**
 * The record-validation part of the adapter kit: the contract's checks (record-validation.ts) bound
 * to one adapter's `InputRules`, and the collection-spec checks every adapter starts with. Run
 * BEFORE anything is written, so a bad record fails the whole call with nothing written (C11, C12).
 * Every message starts with `<adapter>:`; codes DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT,
 * CAPABILITY_MISSING (as record-validation.ts throws them).
 */

/** Collection name of the contract (types.ts `CollectionSpec.name`): `[a-z0-9_]{1,48}`. */
export const COLLECTION_NAME_RE = /^[a-z0-9_]{1,48}$/;

/** Largest `CollectionSpec.dim` of the contract (types.ts); a backend may allow fewer. */
export const MAX_SPEC_DIM = 16000;

/** `validateIds`: an assertion, so it is typed apart (TypeScript needs the annotation to narrow). */
export type IdsValidator = (ids: unknown, where: string) => asserts ids is string[];

/** The contract's record checks bound to one adapter's rules; `scope` names the table or collection in messages. */
export interface RecordValidators {
  /** One record (position `index` in the call) against `dim` and `metric` (spec `validateMemoryRecord`). */
  validateRecord(r: MemoryRecord, index: number, dim: number, metric: Metric, scope: string): void;
  /** A recall/count filter (spec `validateRecallFilter`); every part optional, empty lists match nothing. */
  validateFilter(f: RecallFilter | undefined, where: string): void;
  /** A `deleteWhere` filter: a recall filter with at least one part (spec `validateDeleteFilter`). */
  validateDeleteWhere(f: RecallFilter | undefined, where: string): void;
  /** A recall query: vector (DIMENSION_MISMATCH / INVALID_VECTOR), k 1..1000, minScore, scan, filter (spec `validateRecallQuery`). */
  validateQuery(q: RecallQuery, dim: number, metric: Metric, scope: string): void;
  /** Ids for get/delete: an array of strings (spec `validateIdList`). */
  validateIds: IdsValidator;
}

/**
 * The contract's record checks for one adapter: `rules` (its name, vector check, filter operators,
 * metadata shapes) and `noun`, the word before the scope in messages (`table t1: record 3 …`,
 * `collection c1: …`). Pure: builds closures, throws nothing itself.
 */
export function recordValidators(rules: InputRules, noun: 'table' | 'collection'): RecordValidators {
  const validateIds: IdsValidator = (ids, where) => validateIdList(ids, where, rules);
  return {
    validateRecord: (r, index, dim, metric, scope) => validateMemoryRecord(r, index, dim, metric, `${noun} ${scope}`, rules),
    validateFilter: (f, where) => validateRecallFilter(f, where, rules),
    validateDeleteWhere: (f, where) => validateDeleteFilter(f, where, rules),
    validateQuery: (q, dim, metric, scope) => validateRecallQuery(q, dim, metric, `${noun} ${scope}`, rules),
    validateIds,
  };
}

/** INVALID_INPUT `<adapter>: <message>`. */
export function invalidInput(adapter: string, message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${adapter}: ${message}`);
}

/** A collection name of the contract (`[a-z0-9_]{1,48}`), returned; INVALID_INPUT `<adapter>: collection name must match …` otherwise. */
export function validateCollectionName(adapter: string, name: unknown): string {
  if (typeof name !== 'string' || !COLLECTION_NAME_RE.test(name)) throw invalidInput(adapter, `collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
  return name;
}

/** What `validateSpecBasics` checks a spec against. */
export interface SpecLimits {
  /** The adapter's rules (name for messages, text rules for `embeddingModel`). */
  rules: InputRules;
  /** Largest dim (default MAX_SPEC_DIM, 16000). */
  maxDim?: number;
  /** Metrics the adapter offers; omitted: the caller checks the metric itself. */
  metrics?: readonly Metric[];
  /** How the refused metric is shown: `json` (quoted) or `text` (default). */
  metricShown?: 'json' | 'text';
  /** Refuse a spec that is not an object (INVALID_INPUT `collection spec must be an object`) before reading its name. */
  requireObject?: boolean;
  /** Check `embeddingModel` as storable text (default true; false for a backend that never stores it). */
  embeddingModel?: boolean;
}

/**
 * The checks every adapter's `validateSpec` starts with, in this order: (optionally) an object,
 * the name (`validateCollectionName`), dim an integer in 1..maxDim, the metric among `metrics`,
 * and `embeddingModel` (when set, unless `limits.embeddingModel` is false) storable text (spec `checkStoredText`). Returns the scope
 * `collection <name>` for the adapter's own index checks. Throws INVALID_INPUT naming the field.
 */
export function validateSpecBasics(spec: CollectionSpec, limits: SpecLimits): string {
  const { adapter } = limits.rules;
  if (limits.requireObject && (typeof spec !== 'object' || spec === null)) throw invalidInput(adapter, 'collection spec must be an object');
  validateCollectionName(adapter, spec?.name);
  const where = `collection ${spec.name}`;
  const maxDim = limits.maxDim ?? MAX_SPEC_DIM;
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > maxDim) throw invalidInput(adapter, `${where}: dim must be an integer in 1..${maxDim}, got ${spec.dim}`);
  if (limits.metrics && !limits.metrics.includes(spec.metric)) {
    const shown = limits.metricShown === 'json' ? JSON.stringify(spec.metric) : String(spec.metric);
    throw invalidInput(adapter, `${where}: metric must be one of ${limits.metrics.join(', ')}, got ${shown}`);
  }
  if (limits.embeddingModel !== false && spec.embeddingModel !== undefined) checkStoredText(spec.embeddingModel, `${where}: embeddingModel`, limits.rules);
  return where;
}
