import { codeByWords, MemoryMatrixError, runWrapped, wrapBackendErrorIn, type ContextStyle, type ErrorCode } from '@memory-matrix/spec';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'mem0';

/**
 * mem0's own refusals (mem0ai 3.3.1 dist/oss: `MemoryVectorStore.insert` / `search`,
 * `validateAndTrimEntityId`, `validateSearchParams`, `Memory.add`), as it words them. The contract's
 * codes follow from those words; nothing else is inferred.
 */
const LAYER_REFUSALS: Array<[RegExp, ErrorCode]> = [
  // mem0's embedded store; pgvector's own words through mem0's pgvector store (`expected 3 dimensions, not 2`, `different vector dimensions 3 and 2`).
  [/Vector dimension mismatch|Query dimension mismatch|expected \d+ dimensions, not \d+|different vector dimensions/, 'DIMENSION_MISMATCH'],
  [/^Invalid (userId|agentId|runId|user_id|agent_id|run_id|threshold|topK)\b|messages (array|string) cannot|topK must be|threshold must be/, 'INVALID_INPUT'],
];

/**
 * What mem0 threw, as a MemoryMatrixError: passed through when it already is one; the codes of
 * `LAYER_REFUSALS` by mem0's words; else BACKEND_ERROR. Message: `mem0: <what> failed: <message>`;
 * the original error is the `cause`.
 */
export const wrapLayerError = (err: unknown, what: string): MemoryMatrixError => wrapBackendErrorIn(MEM0_STYLE, err, what);

/** mem0's wording (spec kit/context.ts): `mem0: <what> failed: <message>`, codes by LAYER_REFUSALS. */
const MEM0_STYLE: ContextStyle = { adapter: ADAPTER, noun: '', codeOf: codeByWords(LAYER_REFUSALS) };

/** Run `fn`, wrapping what it throws with `wrapLayerError(err, what)`. */
export const viaLayer = <T>(what: string, fn: () => Promise<T>): Promise<T> => runWrapped(MEM0_STYLE, what, fn);

/** INVALID_INPUT with the adapter's prefix. */
export function invalid(message: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${message}`);
}
