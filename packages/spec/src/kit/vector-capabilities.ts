// The capability head every vector adapter of the matrix declared alike (issue 33): the kit holds
// the flags they all set the same way; each adapter's own block keeps what differs and why.
import { capabilities, type Capabilities } from '../capabilities';

/**
 * The flags every vector-store adapter of the matrix sets alike (chroma, lancedb, libsql, milvus,
 * pgvector, redis, sqlite; langchain-chroma, langchain-pgvector, mastra, mem0): vectors, the
 * contract's three plain filters (namespace, kind, metadata: `RecallFilter`), delete by id and
 * reopen by name. Every other flag keeps spec `DEFAULT_CAPABILITIES` unless the adapter sets it.
 */
export const VECTOR_STORE_FLAGS = {
  vectors: true,
  filterNamespace: true,
  filterKind: true,
  filterMetadata: true,
  delete: true,
  reopen: true,
} as const satisfies Partial<Capabilities>;

/**
 * A full capabilities object of a vector adapter: spec `DEFAULT_CAPABILITIES`, then
 * `VECTOR_STORE_FLAGS`, then `own` (the adapter's flags; a flag set here wins, so an adapter can
 * still declare any of the shared ones otherwise). Pure; throws nothing.
 */
export function vectorCapabilities(own: Partial<Capabilities>): Capabilities {
  return capabilities({ ...VECTOR_STORE_FLAGS, ...own });
}
