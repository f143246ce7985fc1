// Records carried in a layer's metadata (issue 33): a layer (Mastra, mem0) stores a vector and a
// metadata object, so a memory's own fields travel in that object under the driver's keys. The
// check of an upsert call and the write / read of those keys, once for every such driver.
import { MemoryMatrixError } from '../errors';
import { validateIdList, refuseMetadataShapes, type InputRules } from '../record-validation';
import { parseInstant } from '../time';
import type { MemoryKind, MemoryRecord, Metadata } from '../types';

/**
 * The metadata keys a driver keeps a memory's own fields under (`mm_id`…). `text` only where the
 * layer stores no text of its own (Mastra); `createdMicros` holds createdAt as epoch microseconds
 * (a number, what a range filter compares).
 */
export interface CarriedKeys {
  id: string;
  namespace: string;
  kind: string;
  text?: string;
  createdAt: string;
  createdMicros: string;
}

/**
 * How one driver checks an upsert call of records bound for a layer's metadata: `rules` for the
 * spec id checks (the adapter name prefixes every message), `keyProblem` the reason a metadata key
 * is refused (undefined: accepted; the driver's own keys, the layer's operators or fields).
 */
export interface CarriedRecordRules {
  rules: InputRules;
  keyProblem(key: string): string | undefined;
}

/**
 * Check an upsert call for a layer: an array; ids well formed (spec `validateIdList`, `<where>:
 * upsert`) and each once; metadata an object, flat (spec `refuseMetadataShapes`), with no key
 * `keyProblem` refuses. Vectors and texts go to the layer as they are. Throws INVALID_INPUT
 * `<adapter>: <where>: …` naming the position, id and key.
 */
export function checkCarriedRecords(records: unknown, where: string, r: CarriedRecordRules): asserts records is MemoryRecord[] {
  const adapter = r.rules.adapter;
  const invalid = (message: string) => new MemoryMatrixError('INVALID_INPUT', `${adapter}: ${message}`);
  if (!Array.isArray(records)) throw invalid(`${where}: upsert expects an array of records`);
  validateIdList(
    records.map((x: { id?: unknown }) => x?.id),
    `${where}: upsert`,
    r.rules,
  );
  const seen = new Set<string>();
  records.forEach((x: MemoryRecord, i) => {
    if (seen.has(x.id)) throw invalid(`${where}: records[${i}]: id ${JSON.stringify(x.id)} appears twice in one upsert`);
    seen.add(x.id);
    if (typeof x.metadata !== 'object' || x.metadata === null || Array.isArray(x.metadata)) throw invalid(`${where}: records[${i}] (id ${x.id}): metadata must be an object`);
    refuseMetadataShapes(x.metadata, `${adapter}: ${where}: records[${i}] (id ${x.id})`); // nested / array: not declared (metadataShapes)
    for (const key of Object.keys(x.metadata)) {
      const problem = r.keyProblem(key);
      if (problem !== undefined) throw invalid(`${where}: records[${i}] (id ${x.id}): metadata key ${JSON.stringify(key)} ${problem}`);
    }
  });
}

/**
 * The layer metadata of `r`: its metadata, then its own fields under `keys` (in the order id,
 * namespace, kind, text when `keys.text`, createdAt, createdMicros). Throws INVALID_INPUT (spec
 * `parseInstant`) for a createdAt that is not a canonical instant.
 */
export function carriedMetadata(r: MemoryRecord, keys: CarriedKeys): Record<string, unknown> {
  const t = parseInstant(r.createdAt, `record ${r.id}: createdAt`);
  return {
    ...r.metadata,
    [keys.id]: r.id,
    [keys.namespace]: r.namespace,
    [keys.kind]: r.kind,
    ...(keys.text !== undefined ? { [keys.text]: r.text } : {}),
    [keys.createdAt]: r.createdAt,
    // Epoch µs: exact below 2^53 (until the year 2255), the nearest double after.
    [keys.createdMicros]: t.ms * 1000 + t.us,
  };
}

/** A memory's own fields read back from layer metadata, and the rest of it (the memory's metadata). */
export interface CarriedFields {
  id: string;
  namespace: string;
  kind: MemoryKind;
  /** Present when `keys.text` is. */
  text?: string;
  createdAt: string;
  metadata: Metadata;
}

/**
 * The fields under `keys` taken out of a copy of `metadata` (taken in the order id, namespace,
 * kind, text, createdAt; createdMicros dropped). Throws `missing(key)` for the first key whose
 * value is not a string (the driver words it: BACKEND_ERROR naming the layer's item).
 */
export function takeCarried(metadata: Record<string, unknown> | undefined, keys: CarriedKeys, missing: (key: string) => Error): CarriedFields {
  const meta = { ...(metadata ?? {}) };
  const take = (key: string): string => {
    const v = meta[key];
    if (typeof v !== 'string') throw missing(key);
    delete meta[key];
    return v;
  };
  const id = take(keys.id);
  const namespace = take(keys.namespace);
  const kind = take(keys.kind) as MemoryKind;
  const text = keys.text !== undefined ? take(keys.text) : undefined;
  const createdAt = take(keys.createdAt);
  delete meta[keys.createdMicros];
  return { id, namespace, kind, ...(text !== undefined ? { text } : {}), createdAt, metadata: meta as Metadata };
}
