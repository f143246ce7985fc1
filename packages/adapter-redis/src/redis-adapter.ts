import Redis from 'ioredis';
import { capabilities, MemoryMatrixError, vectorCapabilities } from '@memory-matrix/spec';
import type { Capabilities, ChatHistory, CollectionSpec, HistoryOptions, MemoryPolicy, MemoryPolicyState, MemoryStore, ServerInfo } from '@memory-matrix/spec';
import { QUANT_FLAG, RedisVectorCollection, type Quantization } from './collection';
import { ADAPTER, StoreContext } from './context';
import { detectServer, type RedisServerFacts } from './detect';
import { REDIS_FILTER_OPERATORS } from './filter-expr';
import { RedisChatHistory } from './history';
import { collectionKeys, scanKeys, validateName, validatePrefix } from './keys';
import { parseMarker, markerOf, VINFO_QUANT } from './marker';
import { readMemoryPolicy, writeMemoryPolicy } from './memory-policy';
import { validateSpec } from './validate';

/** Options of a Redis store. */
export interface RedisStoreOptions {
  /** Prefix of every collection key, `[A-Za-z0-9._:@/-]{1,64}`. Default `mm:`. */
  keyPrefix?: string;
  /** Quantization of vector sets this store creates: `q8` (Redis' default, int8) or `noquant` (float32). Default `q8`. */
  quantization?: Quantization;
}

/** Where to connect: a server reached on `host:port` (the provider passes the mapped port on 127.0.0.1). */
export interface RedisConnectOptions extends RedisStoreOptions {
  host: string;
  port: number;
  /** Connect timeout, ms. Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Client-side limit per command, ms (ioredis `commandTimeout`): a command without a reply by then
   * rejects with "Command timed out" (BACKEND_ERROR from the store) — the only limit that ends a
   * call against a frozen server (`docker pause`); a later reply is discarded. The commands of an
   * upsert or delete of n records get ceil(n / 250) times the limit (`context.ts` unitsFor).
   * Default none.
   */
  commandTimeoutMs?: number;
  /** `CLIENT SETNAME` of the connection (and of every reconnect): `[!-~]{1,63}`, no spaces. Default none. */
  clientName?: string;
}

/**
 * What the adapter can do against Redis ≥ 8.0 with Vector Sets (declared before connecting;
 * a connected store narrows it to what the server has, see `RedisStore.capabilities`).
 * Cosine only; exact scan = VSIM TRUTH; ANN = the vector set's HNSW; int8 quantization by
 * default (a `noquant` target overrides `quantized` in the catalog); chat history with TTL on
 * every Redis version (lists + Lua).
 */
export const REDIS_CAPABILITIES: Capabilities = vectorCapabilities({
  metrics: ['cosine'],
  exactScan: true,
  annIndexes: ['hnsw'],
  // VSIM … FILTER, compiled by filter-expr.ts (README "Filters"); no $contains: metadata is flat.
  filterOperators: [...REDIS_FILTER_OPERATORS],
  threshold: true,
  upsert: true,
  quantized: true,
  history: true,
  historyWindow: true,
  ttl: true,
  ttlFixed: true,
  ttlMillis: true,
  timeDecay: true,
  evictionPolicy: true,
  indexIntrospection: true,
  // One server, commands executed in order: a write acknowledged by Redis is seen by every connection's next command (no replicas read): C27.
  readYourWrites: 'strong',
});

/** Capabilities of a server without Vector Sets (Redis 7.x): history and TTL only. */
export const REDIS_HISTORY_ONLY_CAPABILITIES: Capabilities = capabilities({ history: true, historyWindow: true, ttl: true, ttlFixed: true, ttlMillis: true, evictionPolicy: true });

/**
 * A new ioredis client (not yet connected; `lazyConnect`). RESP2 (`protocol: 2`) so replies have
 * one documented shape on every server version; no automatic re-sending of commands whose reply
 * was lost (`autoResendUnfulfilledCommands: false`) and no retry of a command across a reconnect
 * (`maxRetriesPerRequest: 0`): a dropped connection surfaces as an error (C23), never as a
 * silent double RPUSH. `'error'` events are absorbed (commands in flight still reject).
 * `commandTimeoutMs` / `clientName`: see `RedisConnectOptions`. Throws INVALID_INPUT for a bad
 * client name or a timeout that is not a positive integer of ms.
 */
export function redisClient(o: { host: string; port: number; connectTimeoutMs?: number; commandTimeoutMs?: number; clientName?: string }): Redis {
  if (o.clientName !== undefined && !/^[!-~]{1,63}$/.test(o.clientName)) {
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: clientName must be 1-63 printable ASCII characters without spaces (CLIENT SETNAME), got ${JSON.stringify(o.clientName)}`);
  }
  for (const [field, v] of [
    ['connectTimeoutMs', o.connectTimeoutMs],
    ['commandTimeoutMs', o.commandTimeoutMs],
  ] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${field} must be a positive integer of milliseconds, got ${String(v)}`);
  }
  const client = new Redis({
    host: o.host,
    port: o.port,
    protocol: 2,
    lazyConnect: true,
    connectTimeout: o.connectTimeoutMs ?? 5_000,
    ...(o.commandTimeoutMs !== undefined ? { commandTimeout: o.commandTimeoutMs } : {}),
    ...(o.clientName !== undefined ? { connectionName: o.clientName } : {}),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: true,
    retryStrategy: (times) => (times > 10 ? null : Math.min(50 * times, 500)),
  });
  client.on('error', () => undefined);
  return client;
}

/**
 * Connect a new client to `host:port` and open a store over it (the store owns the client).
 * Throws BACKEND_ERROR naming host and port when the connection or the detection fails.
 */
export async function connectRedisStore(o: RedisConnectOptions): Promise<RedisStore> {
  const client = redisClient(o);
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: cannot connect to ${o.host}:${o.port}: ${(err as Error).message}`, { cause: err });
  }
  return createRedisStore(client, o);
}

/**
 * Open a store over a connected (or lazily connecting) ioredis client; the store owns it
 * (`close()` quits it). Detects the server (INFO, MODULE LIST, COMMAND INFO). Throws
 * INVALID_INPUT (bad options) or BACKEND_ERROR.
 */
export async function createRedisStore(client: Redis, opts: RedisStoreOptions = {}): Promise<RedisStore> {
  const prefix = validatePrefix(opts.keyPrefix ?? 'mm:', 'keyPrefix');
  const quantization = opts.quantization ?? 'q8';
  if (!(quantization in QUANT_FLAG)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: quantization must be q8 or noquant, got ${JSON.stringify(quantization)}`);
  const ctx = new StoreContext(client, prefix);
  let facts: RedisServerFacts;
  try {
    facts = await ctx.run('detect server', undefined, () => detectServer(client));
  } catch (err) {
    client.disconnect();
    throw err;
  }
  return new RedisStore(ctx, facts, quantization);
}

/** The Redis `MemoryStore`: collections on Vector Sets (collection.ts), chat history on lists (history.ts). */
export class RedisStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities: Capabilities;

  constructor(
    private readonly ctx: StoreContext,
    /** What the server reported at connect time. */
    readonly facts: RedisServerFacts,
    /** Quantization of collections this store creates. */
    readonly quantization: Quantization,
  ) {
    this.capabilities = facts.vectorSets ? { ...REDIS_CAPABILITIES, quantized: quantization === 'q8' } : REDIS_HISTORY_ONLY_CAPABILITIES;
  }

  /**
   * `server`: `Redis <version> (<mode>, <os>)`; components: `redis` (redis_version), every module
   * of MODULE LIST by name (`vectorset` on Redis 8), and `redisearch`: the search module's
   * version when FT.SEARCH exists, else `absent` — either way this adapter does not use it
   * (the FT.SEARCH KNN path is not implemented; Vector Sets answer recall).
   */
  async serverInfo(): Promise<ServerInfo> {
    const f = await this.ctx.run('serverInfo', undefined, () => detectServer(this.ctx.client));
    const search = f.modules.search ?? f.modules.ft ?? (f.redisearch ? 'present' : undefined);
    const components: Record<string, string> = { redis: f.version, ...f.modules };
    components.redisearch = search ? `${search} (detected; FT.SEARCH KNN path not implemented)` : 'absent';
    return { server: `Redis ${f.version} (${f.mode}, ${f.os})`, components };
  }

  /** SET <prefix>{name}:meta <marker> NX. Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING. */
  async createCollection(spec: CollectionSpec): Promise<RedisVectorCollection> {
    this.requireVectors(`create collection ${spec?.name}`);
    validateSpec(spec);
    const keys = collectionKeys(this.ctx.prefix, spec.name);
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    await this.ctx.run('create collection', keys.base, async () => {
      const others = await scanKeys(this.ctx.client, keys.pattern);
      if (others.length) throw exists(keys.base, others.includes(keys.meta));
      const ok = await this.ctx.client.set(keys.meta, markerOf(stored, this.quantization), 'NX');
      if (ok !== 'OK') throw exists(keys.base, true); // created concurrently by another client
    });
    return new RedisVectorCollection(this.ctx, stored, keys, this.quantization);
  }

  /**
   * Reopen from the marker (metric, dim, index, quantization, model id — never a default);
   * cross-checks VINFO of an existing vector set. Throws COLLECTION_MISSING, BACKEND_ERROR.
   */
  async openCollection(name: string): Promise<RedisVectorCollection> {
    this.requireVectors(`open collection ${name}`);
    validateName(name);
    const keys = collectionKeys(this.ctx.prefix, name);
    return this.ctx.run('open collection', keys.base, async () => {
      const raw = await this.ctx.client.get(keys.meta);
      if (raw === null) {
        const others = await scanKeys(this.ctx.client, keys.pattern);
        throw new MemoryMatrixError(
          'COLLECTION_MISSING',
          `${ADAPTER}: collection ${name}: no marker ${keys.meta}${others.length ? ` (${others.length} other key(s) under ${keys.pattern} were not created by memory-matrix; not opened)` : ''}`,
        );
      }
      const m = parseMarker(raw, keys.meta, name);
      const info = (await this.ctx.client.call('VINFO', keys.vset).catch(() => null)) as unknown[] | null;
      if (Array.isArray(info)) {
        const f: Record<string, unknown> = {};
        for (let i = 0; i + 1 < info.length; i += 2) f[String(info[i])] = info[i + 1];
        const bad = (what: string) => new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: collection ${name}: ${keys.vset} ${what}`);
        if (Number(f['vector-dim']) !== m.spec.dim) throw bad(`has dimension ${String(f['vector-dim'])} but the marker says ${m.spec.dim}`);
        const q = VINFO_QUANT[String(f['quant-type'])];
        if (q !== m.quantization) throw bad(`is quantized as ${String(f['quant-type'])} but the marker says ${m.quantization}`);
      }
      return new RedisVectorCollection(this.ctx, m.spec, keys, m.quantization);
    });
  }

  /** UNLINK exactly the keys `SCAN MATCH <prefix>{name}:*` lists (never FLUSH*). Missing is not an error; keys without our marker are refused (INVALID_INPUT). */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const keys = collectionKeys(this.ctx.prefix, name);
    await this.ctx.run('drop collection', keys.base, async () => {
      const found = await scanKeys(this.ctx.client, keys.pattern);
      if (found.length === 0) return;
      if (!found.includes(keys.meta)) {
        throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: refusing to drop ${found.length} key(s) under ${keys.pattern}: no memory-matrix marker ${keys.meta}`);
      }
      await this.ctx.client.unlink(...found);
    });
  }

  /** Chat history of one session (works on every Redis version; history.ts). Throws INVALID_INPUT. */
  async openHistory(opts: HistoryOptions): Promise<ChatHistory> {
    if (this.ctx.closed) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: openHistory: the store is closed`);
    return new RedisChatHistory(this.ctx, opts);
  }

  /** maxmemory, maxmemory-policy, used_memory, DBSIZE, evicted_keys (memory-policy.ts; C19). Throws BACKEND_ERROR. */
  async memoryPolicy(): Promise<MemoryPolicyState> {
    return this.ctx.run('memoryPolicy', undefined, () => readMemoryPolicy(this.ctx.client));
  }

  /**
   * CONFIG SET maxmemory / maxmemory-policy — server-wide: the matrix calls it only on an instance
   * it started for C19 (spec eviction.ts), never on a user's server. Throws INVALID_INPUT, BACKEND_ERROR.
   */
  async setMemoryPolicy(policy: MemoryPolicy): Promise<void> {
    await this.ctx.run('setMemoryPolicy', undefined, () => writeMemoryPolicy(this.ctx.client, policy));
  }

  /** QUIT the client (idempotent); later calls throw BACKEND_ERROR. */
  async close(): Promise<void> {
    if (this.ctx.closed) return;
    this.ctx.closed = true;
    await this.ctx.client.quit().catch(() => this.ctx.client.disconnect());
  }

  private requireVectors(what: string): void {
    if (!this.facts.vectorSets) {
      throw new MemoryMatrixError(
        'CAPABILITY_MISSING',
        `${ADAPTER}: ${what}: Redis ${this.facts.version} has no Vector Sets (VADD is unknown; they are built into Redis ≥ 8.0)${this.facts.redisearch ? '; RediSearch is loaded but its FT.SEARCH KNN path is not implemented by this adapter' : ''}`,
      );
    }
  }
}

function exists(base: string, ours: boolean): MemoryMatrixError {
  return new MemoryMatrixError(
    'COLLECTION_EXISTS',
    ours ? `${ADAPTER}: collection ${base}* already exists` : `${ADAPTER}: keys under ${base}* exist and were not created by memory-matrix; not touched`,
  );
}
