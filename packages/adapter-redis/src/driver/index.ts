import { defineDriver, HNSW_ONLY_INDEXES } from '@memory-matrix/spec';
import { REDIS_CAPABILITIES } from '../redis-adapter';
import { REDIS_SCORES } from '../scores';
import { redisContainerKind } from './container';
import { redisAdapterOptionsSchema, type RedisAdapterOptions } from './options';

/**
 * The redis driver: Redis through ioredis (chat history in lists with TTL; vectors in Vector
 * Sets). Offers `container` (kind `redis`, with fault controls). `adapterOptions`:
 * `quantization: q8 | noquant` (options.ts).
 */
export const redisDriver = defineDriver<RedisAdapterOptions>({
  name: 'redis',
  description: 'Redis (ioredis): chat history; Vector Sets',
  capabilities: REDIS_CAPABILITIES,
  scores: REDIS_SCORES,
  /** Index types: Vector Sets' HNSW (m, efConstruction, efSearch; spec hnswIndexSchema). */
  indexes: HNSW_ONLY_INDEXES,
  adapterOptions: redisAdapterOptionsSchema,
  container: redisContainerKind,
});
