import { MemoryMatrixError, MEMORY_KINDS, parseInstant, type MemoryKind, type MemoryRecord, type Metadata } from '@memory-matrix/spec';
import { typeTags } from './filter-expr';
import { FIELD } from './schema';

/** One Milvus row as the adapter writes it (field names: schema.ts FIELD). */
export type Row = Record<string, unknown>;

/**
 * The row of a record (a validated one): scalar fields, createdAt also as epoch ms + µs (Int64),
 * metadata as a JSON object with typed values, `meta_types` its type tags, the float32 vector.
 */
export function encodeRow(r: MemoryRecord): Row {
  const t = parseInstant(r.createdAt, `milvus: record ${r.id}: createdAt`);
  return {
    [FIELD.id]: r.id,
    [FIELD.namespace]: r.namespace,
    [FIELD.kind]: r.kind,
    [FIELD.createdAt]: r.createdAt,
    [FIELD.createdMs]: t.ms,
    [FIELD.createdUs]: t.us,
    [FIELD.text]: r.text,
    [FIELD.metadata]: r.metadata,
    [FIELD.metaTypes]: typeTags(r.metadata),
    [FIELD.embedding]: Array.from(r.embedding),
  };
}

/** Rough request size of a row in bytes (UTF-8 strings, JSON metadata, 4 bytes per float), for the byte budget of a batch. */
export function rowBytes(r: MemoryRecord): number {
  return Buffer.byteLength(r.id) + Buffer.byteLength(r.namespace) + Buffer.byteLength(r.text) + Buffer.byteLength(JSON.stringify(r.metadata)) + 4 * r.embedding.length + 64;
}

/** A row read back → MemoryRecord. PAYLOAD_UNSUPPORTED naming the collection and id when a field is missing or of the wrong type. */
export function decodeRow(coll: string, row: Row): MemoryRecord {
  const id = row[FIELD.id];
  const bad = (what: string) => new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `milvus: collection ${coll}: row ${JSON.stringify(id)}: ${what}`);
  if (typeof id !== 'string') throw bad('no string id');
  const str = (f: string): string => {
    const v = row[f];
    if (typeof v !== 'string') throw bad(`field ${f} is ${typeof v}, not a string`);
    return v;
  };
  const kind = str(FIELD.kind);
  if (!MEMORY_KINDS.includes(kind as MemoryKind)) throw bad(`kind ${JSON.stringify(kind)} is not a memory kind`);
  const meta = row[FIELD.metadata];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw bad('metadata is not a JSON object');
  const emb = row[FIELD.embedding];
  if (!Array.isArray(emb) || emb.some((x) => typeof x !== 'number')) throw bad('embedding is not a list of numbers');
  return {
    id,
    namespace: str(FIELD.namespace),
    kind: kind as MemoryKind,
    createdAt: str(FIELD.createdAt),
    text: str(FIELD.text),
    metadata: meta as Metadata,
    embedding: Float32Array.from(emb as number[]),
  };
}

/** Splits `items` into chunks of at most `rows` items and at most `budget` bytes by `size` (a single larger item is a chunk of its own). */
export function chunkBy<T>(items: readonly T[], rows: number, budget: number, size: (t: T) => number): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const it of items) {
    const b = size(it);
    if (cur.length > 0 && (cur.length >= rows || bytes + b > budget)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(it);
    bytes += b;
  }
  if (cur.length) out.push(cur);
  return out;
}
