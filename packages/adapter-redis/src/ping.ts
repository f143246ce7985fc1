import { redisClient } from './redis-adapter';

/**
 * One real `PING` on a new connection to `host:port` (readiness probe of the container
 * provider). Resolves with the reply (`PONG`); rejects with the client's error. Always closes.
 */
export async function pingRedis(host: string, port: number, timeoutMs = 2_000): Promise<string> {
  const client = redisClient({ host, port, connectTimeoutMs: timeoutMs });
  try {
    await client.connect();
    return await client.ping();
  } finally {
    client.disconnect();
  }
}
