import { MemoryMatrixError, parseInstant, refuseMetadataShapes, validateIdList, type InputRules, type MemoryKind, type MemoryRecord, type Metadata, type RecallFilter } from '@memory-matrix/spec';
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

/**
 * Check `records`: an array; ids well formed and each once; metadata a flat object whose keys do
 * not start with `mm_` (the driver's) or `$` (Mastra's operators). Throws INVALID_INPUT naming the
 * collection, position and key.
 */
export function checkRecords(records: unknown, where: string): asserts records is MemoryRecord[] {
  if (!Array.isArray(records)) throw invalid(`${where}: upsert expects an array of records`);
  validateIdList(
    records.map((r: { id?: unknown }) => r?.id),
    `${where}: upsert`,
    ID_RULES,
  );
  const seen = new Set<string>();
  records.forEach((r: MemoryRecord, i) => {
    if (seen.has(r.id)) throw invalid(`${where}: records[${i}]: id ${JSON.stringify(r.id)} appears twice in one upsert`);
    seen.add(r.id);
    if (typeof r.metadata !== 'object' || r.metadata === null || Array.isArray(r.metadata)) throw invalid(`${where}: records[${i}] (id ${r.id}): metadata must be an object`);
    refuseMetadataShapes(r.metadata, `${ADAPTER}: ${where}: records[${i}] (id ${r.id})`);
    for (const key of Object.keys(r.metadata)) {
      if (key.startsWith(RESERVED_PREFIX) || key.startsWith('$'))
        throw invalid(`${where}: records[${i}] (id ${r.id}): metadata key ${JSON.stringify(key)} starts with ${RESERVED_PREFIX} or $, which the driver or Mastra keep`);
    }
  });
}

/** The Mastra `metadata` of `r`: its metadata plus FIELD_KEYS. INVALID_INPUT for a createdAt that is not a canonical instant. */
export function metadataOf(r: MemoryRecord): Record<string, unknown> {
  const t = parseInstant(r.createdAt, `record ${r.id}: createdAt`);
  return {
    ...r.metadata,
    [FIELD_KEYS.id]: r.id,
    [FIELD_KEYS.namespace]: r.namespace,
    [FIELD_KEYS.kind]: r.kind,
    [FIELD_KEYS.text]: r.text,
    [FIELD_KEYS.createdAt]: r.createdAt,
    // Epoch µs: exact below 2^53 (until the year 2255).
    [FIELD_KEYS.createdMicros]: t.ms * 1000 + t.us,
  };
}

/** A Mastra hit read with `includeVector` as a memory; BACKEND_ERROR naming the vector id when a field is missing. */
export function recordOf(hit: MastraHit, where: string): MemoryRecord {
  const meta = { ...(hit.metadata ?? {}) };
  const take = (key: string): string => {
    const v = meta[key];
    if (typeof v !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: Mastra vector ${hit.id} has no string ${key} in its metadata (not written by this driver)`);
    delete meta[key];
    return v;
  };
  const id = take(FIELD_KEYS.id);
  const namespace = take(FIELD_KEYS.namespace);
  const kind = take(FIELD_KEYS.kind) as MemoryKind;
  const text = take(FIELD_KEYS.text);
  const createdAt = take(FIELD_KEYS.createdAt);
  delete meta[FIELD_KEYS.createdMicros];
  if (!Array.isArray(hit.vector)) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: Mastra returned vector ${hit.id} without its vector (includeVector)`);
  return { id, namespace, kind, text, createdAt, metadata: meta as Metadata, embedding: Float32Array.from(hit.vector) };
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
