import { isMemoryMatrixError, MemoryMatrixError, type ErrorCode } from '@memory-matrix/spec';

/** The adapter name prefix of every error message (`MemoryStore.adapter` is the driver's name: mastra-pgvector, mastra-libsql). */
export const ADAPTER = 'mastra';

/**
 * Refusals of Mastra or of the database under it, as they word them (@mastra/pg 0.17.10 / 1.27.1 and
 * @mastra/libsql 0.16.4 / 1.23.1 dist/index.cjs: "Vector dimension mismatch", "queryVector must be an array
 * of finite numbers", "topK must be a positive integer"; pgvector src/vector.c: "expected N
 * dimensions, not M", "NaN not allowed in vector"; libSQL's vector functions (libsql
 * src/vector.c, vectorParse / vector_distance): "vector: invalid float at position N", which is
 * what a NaN or ±Infinity becomes (LibSQLVector.upsert JSON-stringifies the vector: both are
 * written as `null`), and "vectors must have the same length: N != M" for a query of another
 * dimension). Mastra wraps the database's error in a `MastraError` whose `cause` is the original;
 * the codes follow from the words of the whole chain.
 */
const REFUSALS: Array<[RegExp, ErrorCode]> = [
  [/Vector dimension mismatch|expected \d+ dimensions, not \d+|different vector dimensions|dimensions are different|vectors must have the same length/, 'DIMENSION_MISMATCH'],
  [/NaN not allowed in vector|infinite value not allowed in vector|queryVector must be an array of finite numbers|vector: invalid float/, 'INVALID_VECTOR'],
  [/topK must be a positive integer|Dimension must be a positive integer|Invalid index name/, 'INVALID_INPUT'],
];

/**
 * The messages of `err` and its `cause` chain (MastraError keeps the database's error as cause), joined by ' <- '.
 * A MastraError's `details.message` follows its message: @mastra/libsql 1.23.1 refuses a non-finite query vector
 * with a MastraError whose only words are there (`details: { message: "queryVector must be an array of finite
 * numbers" }`, id MASTRA_VECTOR_LIBSQL_QUERY_INVALID_ARGS, message "Unknown error", no cause).
 */
export function messagesOf(err: unknown): string {
  const out: string[] = [];
  for (let e = err as { message?: unknown; cause?: unknown; details?: { message?: unknown } } | undefined, n = 0; e && n < 5; e = e.cause as typeof e, n++) {
    out.push(typeof e.message === 'string' ? e.message : String(e));
    if (typeof e.details?.message === 'string') out.push(e.details.message);
  }
  return out.join(' <- ');
}

/**
 * What Mastra threw, as a MemoryMatrixError: passed through when it already is one; the codes of
 * `REFUSALS` by the words of the error and its causes; else BACKEND_ERROR. Message:
 * `mastra: <what> failed: <messages>`; the original error is the `cause`.
 */
export function wrapMastraError(err: unknown, what: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const message = messagesOf(err);
  const code = REFUSALS.find(([re]) => re.test(message))?.[1] ?? 'BACKEND_ERROR';
  return new MemoryMatrixError(code, `${ADAPTER}: ${what} failed: ${message}`, { cause: err });
}

/** Run `fn`, wrapping what it throws with `wrapMastraError(err, what)`. */
export async function viaMastra<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw wrapMastraError(err, what);
  }
}

/** INVALID_INPUT with the adapter's prefix. */
export function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}
