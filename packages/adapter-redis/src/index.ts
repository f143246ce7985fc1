export {
  connectRedisStore,
  createRedisStore,
  redisClient,
  RedisStore,
  REDIS_CAPABILITIES,
  REDIS_HISTORY_ONLY_CAPABILITIES,
  type RedisConnectOptions,
  type RedisStoreOptions,
} from './redis-adapter';
export { RedisVectorCollection, parseVsim, QUANT_FLAG, type Quantization } from './collection';
export { RedisChatHistory, DEFAULT_HISTORY_PREFIX, validateHistoryOptions } from './history';
export { encodeMessage, decodeMessage, validateMessage, codePoints, PAYLOAD_VERSION } from './history-payload';
export { encodeScalar, filterExpression, metadataField, recordAttributes, matchesNothing } from './attributes';
export { detectServer, parseInfo, parseModuleList, type RedisServerFacts } from './detect';
export { collectionKeys, sessionKeys, scanKeys } from './keys';
export { redisVsimToCanonical, redisearchToCanonical } from './scores';
export { MARKER_FORMAT } from './marker';
export { pingRedis } from './ping';
export { readMemoryPolicy, writeMemoryPolicy, REDIS_POLICIES } from './memory-policy';
export { redisDriver } from './driver';
export { redisContainerKind } from './driver/container';
export { redisAdapterOptionsSchema, type RedisAdapterOptions } from './driver/options';
export { redisSettingsInArgs, parseClientList, type ClientInfo } from './driver/settings';
export { REDIS_SCORES } from './scores';
