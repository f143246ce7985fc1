import type { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import { Document } from '@langchain/core/documents';
import { literalToVector } from '@memory-matrix/adapter-pgvector';
import { MemoryMatrixError, parseInstant, refuseMetadataShapes, validateIdList, type InputRules, type MemoryKind, type MemoryRecord, type Metadata, type RecallFilter } from '@memory-matrix/spec';
import { ADAPTER, invalid } from './errors';

/**
 * A memory as a LangChain `Document`. PGVectorStore keeps three things per row — `text`
 * (`pageContent`), `metadata` (jsonb) and `embedding` — plus its uuid id (ids.ts). A memory's id,
 * namespace, kind and createdAt therefore travel in the document's metadata under these keys, as an
 * application's memory layer over LangChain keeps them; the memory's own metadata keys sit beside
 * them; createdAt is kept twice, as its canonical string and as epoch microseconds (`mm_created_us`,
 * a number: what the client's numeric range filter compares, filter-compile.ts). Keys starting with `mm_` are the driver's: a memory whose metadata uses one is refused
 * (INVALID_INPUT), so nothing of a memory is silently overwritten.
 */
export const FIELD_KEYS = { id: 'mm_id', namespace: 'mm_namespace', kind: 'mm_kind', createdAt: 'mm_created_at', createdMicros: 'mm_created_us' } as const;
const RESERVED_PREFIX = 'mm_';

/** Rules for the spec's id checks: strings of well-formed Unicode (the uuid is derived from their UTF-8 bytes). */
export const ID_RULES: InputRules = { adapter: ADAPTER };

/**
 * Check the parts of `records` this mapping needs (an array; each id a well-formed string; metadata
 * an object whose keys are not the driver's) — nothing else: the vectors go to the client as they
 * are, and what the client or the server refuses is reported as they refuse it. Throws INVALID_INPUT
 * naming the table, the record's position and the key.
 */
export function checkRecords(records: unknown, table: string): asserts records is MemoryRecord[] {
  if (!Array.isArray(records)) throw invalid(`table ${table}: upsert expects an array of records`);
  validateIdList(
    records.map((r: { id?: unknown }) => r?.id),
    `table ${table}: upsert`,
    ID_RULES,
  );
  records.forEach((r: MemoryRecord, i) => {
    if (typeof r.metadata !== 'object' || r.metadata === null || Array.isArray(r.metadata)) throw invalid(`table ${table}: records[${i}] (id ${r.id}): metadata must be an object`);
    refuseMetadataShapes(r.metadata, `${ADAPTER}: table ${table}: records[${i}] (id ${r.id})`); // nested / array: not declared (metadataShapes)
    const key = Object.keys(r.metadata).find((k) => k.startsWith(RESERVED_PREFIX));
    if (key !== undefined)
      throw invalid(`table ${table}: records[${i}] (id ${r.id}): metadata key ${JSON.stringify(key)} starts with ${RESERVED_PREFIX}, which this driver keeps for the memory's own fields`);
  });
}

/** The document PGVectorStore stores for `r`: its text as `pageContent`, its metadata plus FIELD_KEYS. INVALID_INPUT for a createdAt that is not a canonical instant. */
export function documentOf(r: MemoryRecord): Document {
  return new Document({
    pageContent: r.text,
    metadata: {
      ...r.metadata,
      [FIELD_KEYS.id]: r.id,
      [FIELD_KEYS.namespace]: r.namespace,
      [FIELD_KEYS.kind]: r.kind,
      [FIELD_KEYS.createdAt]: r.createdAt,
      [FIELD_KEYS.createdMicros]: createdMicros(r.createdAt, `record ${r.id}: createdAt`),
    },
  });
}

/**
 * A canonical instant (time.ts) as epoch microseconds, a JS number: exact while below 2^53 µs
 * (until the year 2255); later instants are the nearest double (order kept, ties within the
 * rounding step of 32–64 µs not). Throws INVALID_INPUT (`where` leads the message) for a string
 * that is not a canonical instant.
 */
export function createdMicros(createdAt: string, where: string): number {
  const i = parseInstant(createdAt, where);
  return i.ms * 1000 + i.us;
}

/** The memory id a stored document carries; BACKEND_ERROR naming the table and row when it has none (a row this driver did not write). */
export function memoryIdOf(metadata: unknown, table: string, rowId: unknown): string {
  const id = (metadata as Record<string, unknown> | null)?.[FIELD_KEYS.id];
  if (typeof id !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: table ${table}: row ${String(rowId)} has no ${FIELD_KEYS.id} in its metadata (not written by this driver)`);
  return id;
}

/**
 * A row of PGVectorStore's table read back (`id, text, metadata, embedding::text`) as a memory:
 * the FIELD_KEYS taken out of the metadata, the rest as the memory's metadata, the embedding
 * parsed exactly from pgvector's text form. BACKEND_ERROR when a field is missing.
 */
export function recordOfRow(row: { id: unknown; text: unknown; metadata: unknown; embedding: unknown }, table: string): MemoryRecord {
  const raw = (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>;
  const id = memoryIdOf(raw, table, row.id);
  const metadata: Metadata = {};
  for (const [k, v] of Object.entries(raw)) if (!k.startsWith(RESERVED_PREFIX)) metadata[k] = v as Metadata[string];
  const field = (key: string): string => {
    const v = raw[key];
    if (typeof v !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: table ${table}: memory ${id} has no ${key} in its metadata`);
    return v;
  };
  return {
    id,
    namespace: field(FIELD_KEYS.namespace),
    kind: field(FIELD_KEYS.kind) as MemoryKind,
    createdAt: field(FIELD_KEYS.createdAt),
    text: row.text as string,
    metadata,
    embedding: literalToVector(row.embedding as string, `table ${table} id ${id}`),
  };
}

/**
 * The contract's filter in the client's filter language (PGVectorStore `buildFilterClauses`):
 * `namespaces` / `kinds` → `{ mm_namespace: { in: [...] } }` / `{ mm_kind: { in: [...] } }`
 * (`metadata->>'key' IN (…)`), each metadata key → `{ key: value }` (`metadata->>'key' = $n`: the
 * client compares the value's TEXT, so `0` also matches a stored `"0"`, and `null` matches nothing
 * — what the client does, reported by the checks, not corrected here). Absent or empty → undefined.
 * INVALID_INPUT for a metadata key that starts with `mm_`.
 */
export function clientFilter(filter: RecallFilter | undefined, where: string): PGVectorStore['FilterType'] | undefined {
  if (filter === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filter.metadata ?? {})) {
    if (k.startsWith(RESERVED_PREFIX)) throw invalid(`${where}: filter key ${JSON.stringify(k)} starts with ${RESERVED_PREFIX}, which this driver keeps for the memory's own fields`);
    out[k] = v;
  }
  if (filter.namespaces !== undefined) out[FIELD_KEYS.namespace] = { in: filter.namespaces };
  if (filter.kinds !== undefined) out[FIELD_KEYS.kind] = { in: filter.kinds };
  // A null value (the contract allows it) goes to the client as it is, although its filter type names only string | number | boolean.
  return Object.keys(out).length ? (out as PGVectorStore['FilterType']) : undefined;
}
