import { defineDriver, HNSW_ONLY_INDEXES } from '@memory-matrix/spec';
import { MILVUS_CAPABILITIES } from '../milvus-adapter';
import { MILVUS_SCORES } from '../scores';
import { milvusContainerKind } from './container';

/**
 * The milvus driver: a Milvus gRPC server through @zilliz/milvus2-sdk-node 2.4.9. Offers
 * `container` (kind `milvus`: the offline kylin-ai-vector-engine image, a fork of Milvus Lite,
 * or the official milvusdb/milvus standalone image where a registry is reachable). No
 * `adapterOptions`.
 */
export const milvusDriver = defineDriver({
  name: 'milvus',
  description: 'Milvus gRPC API (@zilliz/milvus2-sdk-node 2.4.9; offline: kylin-ai-vector-engine, a Milvus Lite fork)',
  capabilities: MILVUS_CAPABILITIES,
  scores: MILVUS_SCORES,
  /** Index types: HNSW (built as Milvus HNSW; `none` is FLAT; m, efConstruction, efSearch; spec hnswIndexSchema). */
  indexes: HNSW_ONLY_INDEXES,
  container: milvusContainerKind,
});
