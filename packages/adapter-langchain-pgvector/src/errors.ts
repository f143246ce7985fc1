import { codeByWords, errorText, runWrapped, wrapBackendErrorIn, type ContextStyle, MemoryMatrixError, type ErrorCode } from '@memory-matrix/spec';

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
export const wrapClientError = (err: unknown, what: string): MemoryMatrixError => wrapBackendErrorIn(CLIENT_STYLE, err, what);

/** The client's wording (spec kit/context.ts): message, then ` (SQLSTATE xxxxx)` when the error has one; codes by SERVER_REFUSALS. */
const CLIENT_STYLE: ContextStyle = {
  adapter: ADAPTER,
  noun: '',
  describe: (err) => {
    const state = (err as { code?: unknown } | null | undefined)?.code;
    return `${errorText(err)}${typeof state === 'string' && /^[0-9A-Z]{5}$/.test(state) ? ` (SQLSTATE ${state})` : ''}`;
  },
  codeOf: codeByWords(SERVER_REFUSALS),
};

/** Run `fn`, wrapping what it throws with `wrapClientError(err, what)`. */
export const viaClient = <T>(what: string, fn: () => Promise<T>): Promise<T> => runWrapped(CLIENT_STYLE, what, fn);

/** INVALID_INPUT with the adapter's prefix. */
export function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}
