import {
  CHROMA_PLAIN_FILTER_OPERATORS,
  filterToWhere as chromaWhere,
  instantKeys,
  RESERVED as CHROMA_RESERVED,
  type ChromaStoredRow,
  type Where,
  type WhereLayout,
} from '@memory-matrix/adapter-chroma';
import { MemoryMatrixError, refuseMetadataShapes, validateRecallFilter, type MemoryKind, type MemoryRecord, type Metadata, type RecallFilter } from '@memory-matrix/spec';

/**
 * How a memory is a LangChain `Document` (what a LangChain.js user's memory module would store):
 * - `pageContent` = text; the Chroma id = the memory id (`addVectors(…, { ids })`);
 * - `metadata` = the memory's own metadata, unchanged, plus three reserved keys for the memory's
 *   fields: `mm.ns` namespace, `mm.kind` kind, `mm.at` createdAt (ISO string), and createdAt as the
 *   integers `mm.ms` (epoch milliseconds) + `mm.us` (further microseconds) that filters compare
 *   (Chroma refuses a range on a string; adapter-chroma `instantKeys`). A memory whose
 *   own metadata uses an `mm.` key is refused (INVALID_INPUT): the keys would collide.
 * Values are handed to the client as they are: the driver adds no encoding the client lacks
 * (the raw chroma adapter types its keys and keeps null and exact floats apart; LangChain does
 * not, so what Chroma does to null and to float metadata is what a LangChain user gets: README).
 */
export const RESERVED = {
  namespace: CHROMA_RESERVED.namespace,
  kind: CHROMA_RESERVED.kind,
  createdAt: CHROMA_RESERVED.createdAt,
  createdAtMs: CHROMA_RESERVED.createdAtMs,
  createdAtUs: CHROMA_RESERVED.createdAtUs,
} as const;

/** The Document metadata of a memory. Throws INVALID_INPUT for a reserved key in its own metadata. */
export function documentMetadata(r: MemoryRecord, where: string): Record<string, unknown> {
  const clash = Object.keys(r.metadata ?? {}).find((k) => k.startsWith('mm.'));
  if (clash !== undefined) throw new MemoryMatrixError('INVALID_INPUT', `${where}: memory ${r.id}: metadata key ${JSON.stringify(clash)} is reserved (mm.*) by the LangChain document layout`);
  refuseMetadataShapes(r.metadata ?? {}, `${where}: memory ${r.id}`); // nested / array: not declared (metadataShapes)
  return { ...r.metadata, [RESERVED.namespace]: r.namespace, [RESERVED.kind]: r.kind, [RESERVED.createdAt]: r.createdAt, ...instantKeys(r.createdAt) };
}

/**
 * A memory from what Chroma holds for one id (read through the chromadb collection LangChain
 * wraps: LangChain has no get by id). BACKEND_ERROR naming the collection and id when a reserved
 * field is missing (a record this driver did not write).
 */
export function decodeRecord(coll: string, id: string, { document, meta, embedding }: ChromaStoredRow): MemoryRecord {
  const bad = (what: string) => new MemoryMatrixError('BACKEND_ERROR', `langchain-chroma: collection ${coll}: record ${id}: ${what}`);
  const m = meta ?? {};
  const [ns, kind, at] = [m[RESERVED.namespace], m[RESERVED.kind], m[RESERVED.createdAt]];
  if (typeof ns !== 'string' || typeof kind !== 'string' || typeof at !== 'string') throw bad(`reserved metadata ${Object.values(RESERVED).join('/')} missing`);
  if (typeof document !== 'string') throw bad('document (text) missing');
  if (!embedding) throw bad('embedding missing');
  const metadata: Metadata = {};
  for (const [k, v] of Object.entries(m)) if (!k.startsWith('mm.')) metadata[k] = v as Metadata[string];
  return { id, namespace: ns, kind: kind as MemoryKind, text: document, createdAt: at, metadata, embedding: Float32Array.from(embedding) };
}

/**
 * The document layout for adapter-chroma's `compileWhere`: the reserved keys, and every metadata
 * value under its own key whatever its type (Chroma keeps string, boolean and number apart in
 * `where`); a null has no key (Chroma drops null metadata values: a `$eq null` matches nothing).
 */
export const DOCUMENT_LAYOUT: WhereLayout = {
  adapter: 'langchain-chroma',
  namespace: RESERVED.namespace,
  kind: RESERVED.kind,
  createdAtMs: RESERVED.createdAtMs,
  createdAtUs: RESERVED.createdAtUs,
  metadata: (k, type) => (type === 'null' ? undefined : k),
};

/**
 * A recall filter as the `filter` LangChain's `Chroma` passes to Chroma as its `where` unchanged
 * (`similaritySearchVectorWithScore` sends `{ ...filter }`): adapter-chroma `filterToWhere` over
 * DOCUMENT_LAYOUT (`undefined` for none, `null` when it can match nothing). Throws
 * CAPABILITY_MISSING for an operator outside CHROMA_PLAIN_FILTER_OPERATORS, INVALID_INPUT for a malformed filter (spec validateRecallFilter).
 */
export function filterToWhere(f: RecallFilter | undefined): Where | undefined | null {
  validateRecallFilter(f, 'filter', { adapter: 'langchain-chroma', filterOperators: CHROMA_PLAIN_FILTER_OPERATORS });
  return chromaWhere(f, DOCUMENT_LAYOUT);
}
