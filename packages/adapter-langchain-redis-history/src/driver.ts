import path from 'node:path';
import { defineDriver, pinnedPackageVersions, type ScoreConversion } from '@memory-matrix/spec';
import { connectLangchainRedisHistory, LANGCHAIN_REDIS_HISTORY_CAPABILITIES } from './langchain-redis-history-adapter';

/** This package's directory (its package.json pins the client packages). */
const PACKAGE_DIR = path.resolve(__dirname, '..');

/** No scores: the client stores chat history only (a vector check never reaches it). */
const NO_SCORES: ScoreConversion = {
  formula: 'none: RedisChatMessageHistory stores chat history, no vectors',
  toCanonical: () => Number.NaN,
};

/**
 * The langchain-redis-history driver: LangChain.js `RedisChatMessageHistory` (@langchain/redis,
 * on node-redis 4) over a Redis server target (`client` facet; catalog `server: redis@…`). Stores
 * are `connectLangchainRedisHistory` at the server's URL; the node-redis client carries
 * `opts.clientName` as CLIENT SETNAME, so the redis fault controls find its connections. Preflight:
 * @langchain/redis, @langchain/core and redis installed as pinned in this package's package.json.
 */
export const langchainRedisHistoryDriver = defineDriver({
  name: 'langchain-redis-history',
  description: 'LangChain.js RedisChatMessageHistory (@langchain/redis) over a Redis server',
  capabilities: LANGCHAIN_REDIS_HISTORY_CAPABILITIES,
  scores: NO_SCORES,
  /** No vectors, so no index: `none` only. */
  indexes: {},
  client: {
    servers: ['redis'],
    description: 'LangChain.js RedisChatMessageHistory (@langchain/redis, node-redis)',
    preflight: (where) => pinnedPackageVersions(PACKAGE_DIR, { '@langchain/redis': '@langchain/redis', '@langchain/core': '@langchain/core', 'node-redis': 'redis' }, where),
    connect: (server, opts) => connectLangchainRedisHistory({ url: server.url, connect: opts }),
  },
});
