import { isCanonicalInstant, MEMORY_KINDS, MemoryMatrixError, type MemoryRecord } from '@memory-matrix/spec';
import { ADAPTER } from './context';

/**
 * The stored form of a memory in the collection's `docs` hash (field = id):
 * `{"v":1,"namespace":…,"kind":…,"text":…,"createdAt":…,"metadata":{…},"embedding":"<base64>"}`.
 * `embedding` is the little-endian float32 bytes as written, so `get()` returns the vector bit for
 * bit (−0, subnormals) even when the vector set stores it int8-quantized and normalised (VEMB
 * would return an approximation). Text and metadata go through JSON, which keeps every string
 * (incl. CJK, emoji, NUL) and the type of every scalar (0, "", false, null).
 */
export const DOC_VERSION = 1;

/** Float32Array → the bytes VADD's `FP32` argument expects (little-endian float32, no copy when aligned). */
export function f32Blob(v: Float32Array): Buffer {
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  if (!le) throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: big-endian hosts are not supported (FP32 blobs are little-endian)`);
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Encode one record for the docs hash. */
export function encodeDoc(r: MemoryRecord): string {
  return JSON.stringify({
    v: DOC_VERSION,
    namespace: r.namespace,
    kind: r.kind,
    text: r.text,
    createdAt: r.createdAt,
    metadata: r.metadata,
    embedding: f32Blob(r.embedding).toString('base64'),
  });
}

/**
 * Decode a docs-hash value back into a record. Throws PAYLOAD_UNSUPPORTED naming the key and id
 * for anything this version did not write (never a silently partial record).
 */
export function decodeDoc(id: string, raw: string, key: string, dim: number): MemoryRecord {
  const bad = (why: string) => new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `${ADAPTER}: ${key} field ${JSON.stringify(id)}: ${why}`);
  let d: Record<string, unknown>;
  try {
    d = JSON.parse(raw) as Record<string, unknown>;
  } catch (e) {
    throw bad(`not JSON (${(e as Error).message})`);
  }
  if (typeof d !== 'object' || d === null) throw bad('not a JSON object');
  if (d.v !== DOC_VERSION) throw bad(`document version ${JSON.stringify(d.v)} is not ${DOC_VERSION}`);
  const { namespace, kind, text, createdAt, metadata, embedding } = d;
  if (typeof namespace !== 'string' || typeof text !== 'string') throw bad('namespace/text missing');
  if (typeof kind !== 'string' || !MEMORY_KINDS.includes(kind as MemoryRecord['kind'])) throw bad(`unknown kind ${JSON.stringify(kind)}`);
  if (!isCanonicalInstant(createdAt)) throw bad(`createdAt ${JSON.stringify(createdAt)} is not canonical`);
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw bad('metadata is not an object');
  if (typeof embedding !== 'string') throw bad('embedding missing');
  const bytes = Buffer.from(embedding, 'base64');
  if (bytes.length !== dim * 4) throw bad(`embedding has ${bytes.length} bytes, dim ${dim} needs ${dim * 4}`);
  const vec = new Float32Array(dim);
  new Uint8Array(vec.buffer).set(bytes);
  return { id, namespace, kind: kind as MemoryRecord['kind'], text, createdAt, metadata: metadata as MemoryRecord['metadata'], embedding: vec };
}

/**
 * The stored `createdAt` of one docs-hash value (for the time-decay re-rank), without decoding
 * the embedding. Throws PAYLOAD_UNSUPPORTED naming the key and id when the doc is missing or
 * has no canonical createdAt (a vector without its doc is never silently dropped).
 */
export function createdAtOf(raw: string | null, id: string, key: string): string {
  let at: unknown;
  try {
    at = raw === null ? undefined : (JSON.parse(raw) as { createdAt?: unknown }).createdAt;
  } catch {
    at = undefined;
  }
  if (!isCanonicalInstant(at)) {
    throw new MemoryMatrixError(
      'PAYLOAD_UNSUPPORTED',
      `${ADAPTER}: ${key} field ${JSON.stringify(id)}: ${raw === null ? 'no document for a vector-set element' : `createdAt ${JSON.stringify(at)} is not a canonical instant`}`,
    );
  }
  return at;
}
