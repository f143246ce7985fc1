import { carriedMetadata, checkCarriedRecords, MemoryMatrixError, takeCarried, type CarriedRecordRules, type InputRules, type MemoryRecord, type RecallFilter } from '@memory-matrix/spec';
import { ADAPTER, invalid } from './errors';

/**
 * A memory's own fields as mem0 keeps them. mem0 stores per memory a payload: the text as `data`,
 * its own `hash`, `textLemmatized`, `createdAt` (the time of the add, not the memory's), the
 * session ids (`user_id`, `agent_id`, `run_id`) and the `metadata` given to `add`. The memory's
 * id, namespace, kind and createdAt therefore travel in that metadata under these keys; the
 * namespace is also the mem0 `userId` (mem0's own scoping of a user's memories). createdAt is kept
 * twice: its canonical string and epoch microseconds (`mm_created_us`, a number, what a range
 * filter compares: filter-compile.ts).
 */
export const FIELD_KEYS = { id: 'mm_id', namespace: 'mm_namespace', kind: 'mm_kind', createdAt: 'mm_created_at', createdMicros: 'mm_created_us' } as const;
const RESERVED_PREFIX = 'mm_';

/**
 * Payload keys mem0 writes itself or strips from `metadata` (mem0ai 3.3.1 dist/oss:
 * `IDENTITY_KEYS`, `PAYLOAD_METADATA_EXCLUDED_KEYS`, `createMemory`, `normalizeExpirationDate`, and
 * `MemoryVectorStore.CAMEL_TO_SNAKE`, which renames userId/agentId/runId on read): a memory whose
 * metadata uses one would be overwritten or dropped, so it is refused (INVALID_INPUT).
 */
export const MEM0_KEYS: ReadonlySet<string> = new Set([
  'user_id',
  'agent_id',
  'run_id',
  'userId',
  'agentId',
  'runId',
  'actor_id',
  'hash',
  'data',
  'createdAt',
  'updatedAt',
  'textLemmatized',
  'attributedTo',
  'expiration_date',
]);

/** Rules for the spec's id checks. */
export const ID_RULES: InputRules = { adapter: ADAPTER };

/** The agent id every memory of a collection is added under (mem0 needs a user, agent or run id on every add and search). */
export const AGENT_ID = 'memory-matrix';

/** One memory as `Memory.get` / `getAll` / `search` return it (mem0ai `MemoryItem`). */
export interface Mem0Item {
  id: string;
  memory?: string;
  metadata?: Record<string, unknown>;
  user_id?: string;
  score?: number | null;
}

/** How the driver checks an upsert call (spec kit `checkCarriedRecords`): the driver's keys (`mm_…`) and mem0's own (`MEM0_KEYS`) are refused. */
const RECORD_RULES: CarriedRecordRules = {
  rules: ID_RULES,
  keyProblem: (key) =>
    key.startsWith(RESERVED_PREFIX) ? `starts with ${RESERVED_PREFIX}, which this driver keeps for the memory's own fields` : MEM0_KEYS.has(key) ? 'is one mem0 writes or strips itself' : undefined,
};

/**
 * Check the parts of `records` this mapping needs: an array; ids well formed and each once; metadata
 * an object whose keys are neither the driver's (`mm_…`) nor mem0's own (`MEM0_KEYS`). Vectors and
 * texts go to mem0 as they are. Throws INVALID_INPUT naming the collection, position and key.
 */
export function checkRecords(records: unknown, where: string): asserts records is MemoryRecord[] {
  checkCarriedRecords(records, where, RECORD_RULES);
}

/** The `metadata` option of `Memory.add` for `r`: its metadata plus FIELD_KEYS (spec kit `carriedMetadata`). INVALID_INPUT for a createdAt that is not a canonical instant. */
export function addMetadataOf(r: MemoryRecord): Record<string, unknown> {
  return carriedMetadata(r, FIELD_KEYS);
}

/** The memory id a mem0 item carries; BACKEND_ERROR when it has none (a memory this driver did not add). */
export function memoryIdOf(item: Mem0Item, where: string): string {
  const id = item.metadata?.[FIELD_KEYS.id];
  if (typeof id !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: mem0 memory ${item.id} has no ${FIELD_KEYS.id} in its metadata (not added by this driver)`);
  return id;
}

/**
 * A mem0 item read back (`getAll`) and its stored vector as a memory: text from `memory`, the
 * FIELD_KEYS out of the metadata, the rest as the memory's metadata. BACKEND_ERROR when a field is missing.
 */
export function recordOf(item: Mem0Item, embedding: Float32Array, where: string): MemoryRecord {
  const f = takeCarried(item.metadata, FIELD_KEYS, (key) => new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: mem0 memory ${item.id} has no string ${key} in its metadata`));
  if (typeof item.memory !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${where}: mem0 memory ${item.id} has no text`);
  return { id: f.id, namespace: f.namespace, kind: f.kind, createdAt: f.createdAt, text: item.memory, metadata: f.metadata, embedding };
}

/**
 * A recall filter in mem0's filter language (`Memory.search` / `getAll` `filters`; mem0ai
 * `_processMetadataFilters`, `MemoryVectorStore.matchFieldCondition`): always the collection's
 * `agent_id` (mem0 refuses a search without a user, agent or run id), namespaces and kinds as
 * `{ in: [...] }` on their FIELD_KEYS, metadata keys as plain equality. Values go as they are
 * (mem0 compares them with `===`; a value `"*"` is its wildcard). Throws INVALID_INPUT for a key
 * that is the driver's or mem0's, CAPABILITY_MISSING for a `where` expression (compiled by
 * filter-compile.ts `compileMem0Filter` instead).
 */
export function mem0Filter(filter: RecallFilter | undefined, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = { agent_id: AGENT_ID };
  if (filter === undefined) return out;
  if (filter.where !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: the filter language (where) is not compiled for mem0 (capability filterOperators)`);
  if (filter.namespaces !== undefined) out[FIELD_KEYS.namespace] = { in: filter.namespaces };
  if (filter.kinds !== undefined) out[FIELD_KEYS.kind] = { in: filter.kinds };
  for (const [key, value] of Object.entries(filter.metadata ?? {})) {
    if (key.startsWith(RESERVED_PREFIX) || MEM0_KEYS.has(key) || key === 'AND' || key === 'OR' || key === 'NOT' || key.startsWith('$')) {
      throw invalid(`${where}: filter metadata key ${JSON.stringify(key)} is the driver's or mem0's own`);
    }
    out[key] = value;
  }
  return out;
}
