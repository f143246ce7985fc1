import { carriedMetadata, checkCarriedRecords, MemoryMatrixError, takeCarried, type CarriedRecordRules, type InputRules, type MemoryRecord, type RecallFilter } from '@memory-matrix/spec';
import { ADAPTER, invalid } from './errors';

/**
 * A memory's own fields as the driver keeps them in Mastra's `metadata` (Mastra stores a vector id,
 * the vector and a metadata object; no text, kind or time). The id is Mastra's vector id AND
 * `mm_id` (so a filter can select ids); createdAt is kept twice: its canonical string and epoch
 * microseconds (`mm_created_us`, a number, what a range filter compares: filter-compile.ts).
 */
export const FIELD_KEYS = {
  id: 'mm_id',
  namespace: 'mm_namespace',
  kind: 'mm_kind',
  text: 'mm_text',
  createdAt: 'mm_created_at',
  createdMicros: 'mm_created_us',
} as const;
export const RESERVED_PREFIX = 'mm_';

/** Rules for the spec's id checks. */
export const ID_RULES: InputRules = { adapter: ADAPTER };

/** One hit of Mastra's `query` (QueryResult of @mastra/core: `{ id, score, metadata?, vector? }`). */
export interface MastraHit {
  id: string;
  score: number | null;
  metadata?: Record<string, unknown>;
  vector?: number[];
}

/** How the driver checks an upsert call (spec kit `checkCarriedRecords`): keys starting with `mm_` (the driver's) or `$` (Mastra's operators) are refused. */
const RECORD_RULES: CarriedRecordRules = {
  rules: ID_RULES,
  keyProblem: (key) => (key.startsWith(RESERVED_PREFIX) || key.startsWith('$') ? `starts with ${RESERVED_PREFIX} or $, which the driver or Mastra keep` : undefined),
};

/**
 * Check `records`: an array; ids well formed and each once; metadata a flat object whose keys do
 * not start with `mm_` (the driver's) or `$` (Mastra's operators). Throws INVALID_INPUT naming the
 * collection, position and key.
 */
export function checkRecords(records: unknown, where: string): asserts records is MemoryRecord[] {
  checkCarriedRecords(records, where, RECORD_RULES);
}

/** The Mastra `metadata` of `r`: its metadata plus FIELD_KEYS (spec kit `carriedMetadata`). INVALID_INPUT for a createdAt that is not a canonical instant. */
export function metadataOf(r: MemoryRecord): Record<string, unknown> {
  return carriedMetadata(r, FIELD_KEYS);
}

/** A Mastra hit read with `includeVector` as a memory; BACKEND_ERROR naming the vector id when a field is missing. */
export function recordOf(hit: MastraHit, where: string): MemoryRecord {
  const f = takeCarried(
    hit.metadata,
    FIELD_KEYS,
    (key) => new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: Mastra vector ${hit.id} has no string ${key} in its metadata (not written by this driver)`),
  );
  if (!Array.isArray(hit.vector)) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: Mastra returned vector ${hit.id} without its vector (includeVector)`);
  return { id: f.id, namespace: f.namespace, kind: f.kind, text: f.text!, createdAt: f.createdAt, metadata: f.metadata, embedding: Float32Array.from(hit.vector) };
}

/**
 * A filter without `where` in Mastra's filter syntax: namespaces and kinds as `$in` on their
 * FIELD_KEYS, metadata keys as `$eq`, all under one `$and` (undefined: no filter). Throws
 * INVALID_INPUT for a metadata key that is the driver's or an operator.
 */
export function plainFilter(filter: RecallFilter | undefined, where: string): Record<string, unknown> | undefined {
  if (filter === undefined) return undefined;
  const parts: Array<Record<string, unknown>> = [];
  if (filter.namespaces !== undefined) parts.push({ [FIELD_KEYS.namespace]: { $in: filter.namespaces } });
  if (filter.kinds !== undefined) parts.push({ [FIELD_KEYS.kind]: { $in: filter.kinds } });
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    if (key.startsWith(RESERVED_PREFIX) || key.startsWith('$')) throw invalid(`${where}: filter metadata key ${JSON.stringify(key)} is the driver's or an operator`);
    parts.push({ [key]: { $eq: value } });
  }
  return parts.length === 0 ? undefined : { $and: parts };
}
