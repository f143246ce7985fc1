/**
 * Stable error codes. Tests and callers assert `err.code`, never `instanceof` across packages
 * (two copies of this module may be loaded under jest's module registry).
 */
export type ErrorCode =
  | 'DIMENSION_MISMATCH' // a vector's length differs from the collection's `dim`
  | 'INVALID_VECTOR' // NaN / ±Infinity component, or a zero vector under cosine
  | 'INVALID_INPUT' // any other malformed argument (empty id, k < 1, bad filter …)
  | 'GOLDEN_INVALID' // a golden file is malformed (file:line:field in the message)
  | 'GOLDEN_CHECKSUM' // a golden file's sha256 differs from the manifest
  | 'GOLDEN_MISSING' // a golden file or a recorded expectation is missing
  | 'FINGERPRINT_MISMATCH' // dataset dim / metric / model id differs from the collection's
  | 'UNKNOWN_TARGET' // a `backend@version` that the catalog does not list
  | 'TARGET_UNAVAILABLE' // the target cannot be started here (no Docker, no image …)
  | 'BACKEND_ERROR' // the backend answered with an error; the original is `cause`
  | 'CAPABILITY_MISSING' // asked for something the target declares it cannot do
  | 'COLLECTION_EXISTS' // create on a name that already exists
  | 'COLLECTION_MISSING' // open on a name that does not exist
  | 'PAYLOAD_UNSUPPORTED' // a stored payload cannot be decoded (unknown version, malformed); key and index in the message
  | 'OUT_OF_MEMORY' // the backend refused a write at its memory limit (Redis `OOM` under maxmemory + noeviction); the server's reply in the message
  | 'TIMEOUT' // a phase exceeded its time limit (a cell's shared fixtures, prepared before the checks: cell.ts prepare)
  | 'CHILD_FAILED' // a cell's child process (an embedded cell run out of the runner's process) failed to start, crashed, timed out or wrote no valid report; target named
  | 'USAGE'; // bad CLI arguments

/** Base error of memory-matrix: a stable `code`, a message naming what and where, an optional `cause`. */
export class MemoryMatrixError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MemoryMatrixError';
    this.code = code;
  }
}

/** True when `err` carries the given memory-matrix error code (works across module copies). */
export function hasCode(err: unknown, code: ErrorCode): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/**
 * True for a MemoryMatrixError from any copy of this module (jest may load two): an instance, or
 * an Error named `MemoryMatrixError` with a string `code`. Adapters pass such errors through
 * unchanged when they wrap backend errors.
 */
export function isMemoryMatrixError(err: unknown): err is MemoryMatrixError {
  return err instanceof MemoryMatrixError || (err instanceof Error && err.name === 'MemoryMatrixError' && typeof (err as { code?: unknown }).code === 'string');
}
