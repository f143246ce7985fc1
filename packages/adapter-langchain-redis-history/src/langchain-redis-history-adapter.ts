import { createClient } from 'redis';
import { capabilities, MemoryMatrixError, type Capabilities, type ChatHistory, type ConnectOptions, type HistoryOptions, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import { ADAPTER, StoreContext, type NodeRedis } from './context';
import { LangchainRedisHistory } from './history';

/**
 * What LangChain.js `RedisChatMessageHistory` (@langchain/redis) can do: chat history (`history`)
 * with a per-session TTL (`ttl`: `sessionTTL`, re-set after every message). It lacks windows and
 * trim (`historyWindow`), a TTL a write leaves alone (`ttlFixed`), millisecond TTLs (`ttlMillis`:
 * `sessionTTL` is EXPIRE seconds), vectors, the server's eviction policy and snapshots: those
 * checks and parts skip, naming the capability.
 */
export const LANGCHAIN_REDIS_HISTORY_CAPABILITIES: Capabilities = capabilities({ history: true, ttl: true });

/** Options of `connectLangchainRedisHistory`. */
export interface LangchainRedisHistoryOptions {
  /** `redis://host:port`. */
  url: string;
  /**
   * `clientName` → node-redis `name` (CLIENT SETNAME on every connect: the fault controls drop
   * connections by it); `timeouts.connectMs` → `socket.connectTimeout`. node-redis 4 has no
   * per-command timeout, so `queryMs` / `statementMs` are not applied.
   */
  connect?: ConnectOptions;
}

/**
 * A new store: one node-redis 4 client (the library @langchain/redis is built on, as a LangChain
 * app passes it: `RedisChatMessageHistory({ client })`), connected, configured to fail fast as the
 * raw redis adapter's ioredis client is: `disableOfflineQueue` (a command issued while the
 * connection is down rejects at once; with node-redis' default it waits in the offline queue until
 * the client reconnects — forever when the server comes back at another address, as a restarted
 * container does: C15 hung 20 min that way, measured), and at most 10 reconnects (50·n ms apart,
 * ≤ 500 ms). Commands already sent reject when the connection drops (node-redis either way).
 * Throws INVALID_INPUT (bad client name), BACKEND_ERROR naming the URL when it cannot connect.
 */
export async function connectLangchainRedisHistory(o: LangchainRedisHistoryOptions): Promise<LangchainRedisHistoryStore> {
  const name = o.connect?.clientName;
  if (name !== undefined && !/^[!-~]{1,63}$/.test(name))
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: clientName must be 1-63 printable ASCII characters without spaces (CLIENT SETNAME), got ${JSON.stringify(name)}`);
  const client = createClient({
    url: o.url,
    ...(name !== undefined ? { name } : {}),
    disableOfflineQueue: true,
    socket: { connectTimeout: o.connect?.timeouts?.connectMs ?? 5_000, reconnectStrategy: (n: number) => (n > 10 ? false : Math.min(50 * n, 500)) },
  }) as unknown as NodeRedis;
  client.on('error', () => undefined); // commands in flight still reject; the event alone would crash the process
  try {
    await client.connect();
  } catch (err) {
    await client.disconnect().catch(() => undefined);
    throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: cannot connect to ${o.url}: ${(err as Error).message}`, { cause: err });
  }
  return new LangchainRedisHistoryStore(new StoreContext(client, o.url));
}

/** The `MemoryStore` of LangChain.js `RedisChatMessageHistory`: chat history only (no collections). */
export class LangchainRedisHistoryStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = LANGCHAIN_REDIS_HISTORY_CAPABILITIES;

  constructor(private readonly ctx: StoreContext) {}

  /** `Redis <version>` from INFO server (through the node-redis client); components `redis`. */
  async serverInfo(): Promise<ServerInfo> {
    const info = await this.ctx.run('INFO server', undefined, () => this.ctx.client.info('server'));
    const version = /redis_version:(\S+)/.exec(info)?.[1];
    if (!version) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: INFO server of ${this.ctx.url} names no redis_version`);
    return { server: `Redis ${version} via LangChain.js RedisChatMessageHistory`, components: { redis: version } };
  }

  createCollection(): Promise<never> {
    return this.noVectors('createCollection');
  }
  openCollection(): Promise<never> {
    return this.noVectors('openCollection');
  }
  dropCollection(): Promise<never> {
    return this.noVectors('dropCollection');
  }

  /** A session (history.ts). CAPABILITY_MISSING for a window, `refreshTtlOnWrite: false` or a TTL that is not whole seconds; INVALID_INPUT. */
  async openHistory(opts: HistoryOptions): Promise<ChatHistory> {
    if (this.ctx.closed) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: openHistory: the store was closed`);
    return new LangchainRedisHistory(this.ctx, opts);
  }

  /**
   * Close the client (idempotent); later calls throw BACKEND_ERROR. QUIT when the connection is
   * ready; otherwise `disconnect()`: node-redis 4.7.1's `quit()` on a client that is reconnecting
   * (the server was killed) queues QUIT where nothing will send it and stops reconnecting, so it
   * never settles (measured in C15: with no handle left, the whole process ran out of work).
   */
  async close(): Promise<void> {
    if (this.ctx.closed) return;
    this.ctx.closed = true;
    const c = this.ctx.client;
    if (c.isReady) await c.quit().catch(() => c.disconnect().catch(() => undefined));
    else if (c.isOpen) await c.disconnect().catch(() => undefined);
  }

  private async noVectors(op: string): Promise<never> {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${op}: RedisChatMessageHistory stores chat history only (capability vectors)`);
  }
}
