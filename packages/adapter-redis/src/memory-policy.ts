import type Redis from 'ioredis';
import { MemoryMatrixError, type MemoryPolicy, type MemoryPolicyState } from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { parseInfo } from './detect';

/** Redis `maxmemory-policy` values (redis.conf, "MEMORY MANAGEMENT"). */
export const REDIS_POLICIES = ['noeviction', 'allkeys-lru', 'allkeys-lfu', 'allkeys-random', 'volatile-lru', 'volatile-lfu', 'volatile-random', 'volatile-ttl'] as const;

/**
 * The server's memory settings and counters (spec eviction.ts): CONFIG GET maxmemory /
 * maxmemory-policy, INFO memory `used_memory`, DBSIZE, INFO stats `evicted_keys`, in one
 * pipeline. Throws the client's error (the caller wraps it).
 */
export async function readMemoryPolicy(client: Redis): Promise<MemoryPolicyState> {
  const res = await client.pipeline().call('CONFIG', 'GET', 'maxmemory').call('CONFIG', 'GET', 'maxmemory-policy').info('memory').info('stats').dbsize().exec();
  if (!res) throw new Error('memory pipeline returned nothing');
  const failed = res.find(([e]) => e);
  if (failed) throw failed[0];
  const [[, mm], [, pol], [, mem], [, stats], [, keys]] = res as Array<[null, unknown]>;
  return {
    maxmemoryBytes: Number((mm as string[])[1]),
    policy: String((pol as string[])[1]),
    usedBytes: Number(parseInfo(String(mem)).used_memory),
    keys: Number(keys),
    evictedKeys: Number(parseInfo(String(stats)).evicted_keys),
  };
}

/** CONFIG SET maxmemory <bytes> maxmemory-policy <policy> (one command, Redis ≥ 7). Throws INVALID_INPUT for a bad value. */
export async function writeMemoryPolicy(client: Redis, p: MemoryPolicy): Promise<void> {
  if (!Number.isInteger(p?.maxmemoryBytes) || p.maxmemoryBytes < 0) {
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: setMemoryPolicy: maxmemoryBytes must be an integer ≥ 0 (0 = no limit), got ${String(p?.maxmemoryBytes)}`);
  }
  if (!(REDIS_POLICIES as readonly string[]).includes(p.policy)) {
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: setMemoryPolicy: policy must be one of ${REDIS_POLICIES.join(', ')}, got ${JSON.stringify(p.policy)}`);
  }
  await client.call('CONFIG', 'SET', 'maxmemory', String(p.maxmemoryBytes), 'maxmemory-policy', p.policy);
}
