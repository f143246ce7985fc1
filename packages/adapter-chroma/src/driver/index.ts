import { defineDriver, HNSW_ONLY_INDEXES } from '@memory-matrix/spec';
import { CHROMA_CAPABILITIES } from '../chroma-adapter';
import { CHROMA_SCORES } from '../scores';
import { chromaContainerKind } from './container';
import { chromaLocal } from './local';

/**
 * The chroma driver: Chroma through the chromadb client. Offers `container` (kind `chroma`, with
 * fault controls) and `local` (engine `chroma-bindings-1.0`: Chroma 1.0.0 from its npm bindings,
 * with local fault controls). Takes no `adapterOptions`.
 */
export const chromaDriver = defineDriver({
  name: 'chroma',
  description: 'Chroma (chromadb client; native server from its npm bindings)',
  capabilities: CHROMA_CAPABILITIES,
  scores: CHROMA_SCORES,
  /** Index types: Chroma's HNSW (m, efConstruction, efSearch; spec hnswIndexSchema). */
  indexes: HNSW_ONLY_INDEXES,
  container: chromaContainerKind,
  local: chromaLocal,
});
