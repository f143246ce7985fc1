export { connectLangchainRedisHistory, LangchainRedisHistoryStore, LANGCHAIN_REDIS_HISTORY_CAPABILITIES, type LangchainRedisHistoryOptions } from './langchain-redis-history-adapter';
export { LangchainRedisHistory, validateHistoryOptions } from './history';
export { fromLangchain, toLangchain, MESSAGE_CLASSES } from './layout';
export { langchainRedisHistoryDriver } from './driver';
