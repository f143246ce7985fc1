import { isMemoryMatrixError, MemoryMatrixError, type ErrorCode } from '@memory-matrix/spec';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'langchain-pgvector';

/**
 * pgvector's own refusals (pgvector src/vector.c, 0.8.x), as the server words them and the client
 * passes them on: LangChain's `addVectors` rethrows them as `new Error("Error inserting: " +
 * message)` (no SQLSTATE kept), its searches reject with node-postgres' error. The contract's
 * codes follow from the server's words; nothing else is inferred.
 */
const SERVER_REFUSALS: Array<[RegExp, ErrorCode]> = [
  [/expected \d+ dimensions, not \d+|different vector dimensions \d+ and \d+/, 'DIMENSION_MISMATCH'],
  [/NaN not allowed in vector|infinite value not allowed in vector/, 'INVALID_VECTOR'],
];

/**
 * What the client (or the pool under it) threw, as a MemoryMatrixError: passed through when it
 * already is one; DIMENSION_MISMATCH / INVALID_VECTOR when the message is one of pgvector's
 * refusals above; else BACKEND_ERROR. The message names the operation and the table:
 * `langchain-pgvector: <what> on table <table> failed: <message> (SQLSTATE xxxxx)`; the original
 * error is the `cause`.
 */
export function wrapClientError(err: unknown, what: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const e = err as { message?: unknown; code?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const state = typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? ` (SQLSTATE ${e.code})` : '';
  const code = SERVER_REFUSALS.find(([re]) => re.test(message))?.[1] ?? 'BACKEND_ERROR';
  return new MemoryMatrixError(code, `${ADAPTER}: ${what} failed: ${message}${state}`, { cause: err });
}

/** Run `fn`, wrapping what it throws with `wrapClientError(err, what)`. */
export async function viaClient<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw wrapClientError(err, what);
  }
}

/** INVALID_INPUT with the adapter's prefix. */
export function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}
