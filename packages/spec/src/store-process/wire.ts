import { MemoryMatrixError, type ErrorCode } from '../errors';
import type { RecallQuery, MemoryRecord } from '../types';

/**
 * The wire format between a store process (server.ts) and its clients (client.ts): one JSON object
 * per line over a loopback TCP connection. A request is `{ id, op, args }`, its answer `{ id, ok }`
 * or `{ id, error: { code, message, cause? } }` (`cause`: the backend's error the adapter wrapped,
 * as its name, message and string code). Float32 vectors travel as base64 of their bytes (bit for
 * bit); every other value is JSON (scores are float64 numbers, exact in JSON).
 */

/** One request: `id` (≥ 1, per connection), the operation name, its arguments. */
export interface WireRequest {
  id: number;
  op: string;
  args: unknown[];
}

/** An error as it crosses the wire: the adapter's code and message, and the backend error it wrapped (`cause`), when there is one. */
export interface WireError {
  code: string;
  message: string;
  cause?: { name: string; message: string; code?: string };
}

/** The answer to request `id`: `ok` (any JSON) or an error with the adapter's code. */
export type WireReply = { id: number; ok: unknown } | { id: number; error: WireError };

/** A `MemoryRecord` on the wire: `embedding` is the base64 of its float32 bytes. */
export type WireRecord = Omit<MemoryRecord, 'embedding'> & { embedding: string };

/** A `RecallQuery` on the wire: `vector` is the base64 of its float32 bytes. */
export type WireQuery = Omit<RecallQuery, 'vector'> & { vector: string };

/** Operations that change data (what `awaitWriteInFlight` waits for). */
export const WRITE_OPS: ReadonlySet<string> = new Set(['upsert', 'delete', 'deleteWhere', 'history.append', 'history.trim', 'history.clear', 'history.writeRaw', 'createCollection', 'dropCollection']);

/** base64 of the bytes of `v` (its own view, not the whole buffer). */
export function vectorToWire(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

/** The Float32Array of base64 `s`; INVALID_INPUT when its length is not a multiple of 4 bytes. */
export function vectorFromWire(s: string): Float32Array {
  const b = Buffer.from(s, 'base64');
  if (b.byteLength % 4 !== 0) throw new MemoryMatrixError('INVALID_INPUT', `store process wire: a vector of ${b.byteLength} bytes is not float32`);
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export const recordToWire = (r: MemoryRecord): WireRecord => ({ ...r, embedding: vectorToWire(r.embedding) });
export const recordFromWire = (r: WireRecord): MemoryRecord => ({ ...r, embedding: vectorFromWire(r.embedding) });
export const queryToWire = (q: RecallQuery): WireQuery => ({ ...q, vector: vectorToWire(q.vector) });
export const queryFromWire = (q: WireQuery): RecallQuery => ({ ...q, vector: vectorFromWire(q.vector) });

/** The codes an adapter call may throw that keep their meaning across the wire. */
const CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'DIMENSION_MISMATCH',
  'INVALID_VECTOR',
  'INVALID_INPUT',
  'BACKEND_ERROR',
  'CAPABILITY_MISSING',
  'COLLECTION_EXISTS',
  'COLLECTION_MISSING',
  'PAYLOAD_UNSUPPORTED',
  'FINGERPRINT_MISMATCH',
]);

/**
 * An error the server sent, as the MemoryMatrixError the adapter threw there (an unknown code
 * becomes BACKEND_ERROR); `where` names the process. Its `cause`, when sent, is an Error with the
 * backend error's name, message and code (e.g. `SqliteError`, `SQLITE_BUSY`).
 */
export function errorFromWire(e: WireError, where: string): MemoryMatrixError {
  const code = (CODES.has(e.code) ? e.code : 'BACKEND_ERROR') as ErrorCode;
  const cause = e.cause ? Object.assign(new Error(e.cause.message), { name: e.cause.name }, e.cause.code === undefined ? {} : { code: e.cause.code }) : undefined;
  return new MemoryMatrixError(code, `${e.message} (in the store process of ${where})`, cause ? { cause } : undefined);
}

/** An error thrown in the server, for the wire: its code (BACKEND_ERROR when it has none), message, and its `cause` when that is an Error. */
export function errorToWire(err: unknown): WireError {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  const out: WireError = { code: typeof e?.code === 'string' && CODES.has(e.code) ? e.code : 'BACKEND_ERROR', message: typeof e?.message === 'string' ? e.message : String(err) };
  if (e?.cause instanceof Error) {
    const c = e.cause as Error & { code?: unknown };
    out.cause = { name: c.name, message: c.message, ...(typeof c.code === 'string' ? { code: c.code } : {}) };
  }
  return out;
}
