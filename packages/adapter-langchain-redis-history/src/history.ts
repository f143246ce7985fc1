import type { RedisChatMessageHistory } from '@langchain/redis';
import { MemoryMatrixError, type ChatHistory, type ChatMessage, type HistoryKey, type HistoryOptions, type HistoryWindow } from '@memory-matrix/spec';
import { ADAPTER, type StoreContext } from './context';
import { fromLangchain, toLangchain } from './layout';

/** The options this client can honour, checked: CAPABILITY_MISSING for what it lacks, INVALID_INPUT for a malformed value. */
export function validateHistoryOptions(o: HistoryOptions): { key: string; keyPrefix: string; sessionTTL?: number } {
  const at = `${ADAPTER}: openHistory`;
  if (typeof o?.sessionId !== 'string' || o.sessionId.length === 0) throw new MemoryMatrixError('INVALID_INPUT', `${at}: sessionId must be a non-empty string, got ${JSON.stringify(o?.sessionId)}`);
  const keyPrefix = o.keyPrefix ?? '';
  if (typeof keyPrefix !== 'string') throw new MemoryMatrixError('INVALID_INPUT', `${at}: keyPrefix must be a string`);
  if (o.window !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${at}: RedisChatMessageHistory keeps the whole list; it has no window (capability historyWindow)`);
  if (o.refreshTtlOnWrite === false)
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${at}: RedisChatMessageHistory re-sets sessionTTL after every message it adds; refreshTtlOnWrite: false is not possible (capability ttlFixed)`);
  if (o.ttlMs === undefined) return { key: keyPrefix + o.sessionId, keyPrefix };
  if (!Number.isInteger(o.ttlMs) || o.ttlMs < 1) throw new MemoryMatrixError('INVALID_INPUT', `${at}: ttlMs must be an integer ≥ 1 (milliseconds), got ${o.ttlMs}`);
  if (o.ttlMs % 1000 !== 0) throw new MemoryMatrixError('CAPABILITY_MISSING', `${at}: sessionTTL is whole seconds (Redis EXPIRE); ttlMs ${o.ttlMs} is not (capability ttlMillis)`);
  return { key: keyPrefix + o.sessionId, keyPrefix, sessionTTL: o.ttlMs / 1000 };
}

/**
 * One session through LangChain.js `RedisChatMessageHistory` (@langchain/redis): its `sessionId` is
 * the Redis key, so the contract's `keyPrefix + sessionId` is what the driver passes as LangChain's
 * sessionId (the client has no prefix option; a LangChain app writes its prefix into the session
 * id the same way); `sessionTTL` = ttlMs / 1000. Writes: `addMessages` (LangChain's default: one
 * `addMessage` per message, each an LPUSH then an EXPIRE when a TTL is set); `read`: `getMessages`
 * (LRANGE, reversed: the client LPUSHes, newest first), then `last` taken from its end; `clear`:
 * the client's DEL. What the client has no API for goes through the same node-redis client it
 * wraps: `length` (LLEN), `keys` (PTTL of the one key), `writeRaw` / `readRaw` (the list verbatim,
 * oldest first, written as the client writes: LPUSH, then EXPIRE when a TTL is set).
 */
export class LangchainRedisHistory implements ChatHistory {
  readonly sessionId: string;
  readonly keyPrefix: string;
  /** LangChain's stored messages (`{"type", "data"}`, unversioned): C20 reads golden-data/legacy/history-payloads.langchain.json. */
  readonly payloadFormat = 'langchain';
  /** The one Redis key of the session (`keyPrefix + sessionId`). */
  readonly key: string;
  private readonly ttl: number | undefined;
  private readonly lc: RedisChatMessageHistory;

  constructor(
    private readonly ctx: StoreContext,
    opts: HistoryOptions,
  ) {
    const v = validateHistoryOptions(opts);
    this.sessionId = opts.sessionId;
    this.keyPrefix = v.keyPrefix;
    this.key = v.key;
    this.ttl = v.sessionTTL;
    // @langchain/redis loaded on first use (the registry lists every driver; runs that never open this one skip the load).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { RedisChatMessageHistory: History } = require('@langchain/redis') as typeof import('@langchain/redis');
    this.lc = new History({ sessionId: v.key, ...(v.sessionTTL !== undefined ? { sessionTTL: v.sessionTTL } : {}), client: ctx.client as never });
  }

  /** `addMessages` of the mapped messages (layout.ts). Validates every message first (INVALID_INPUT); not atomic (see the class). */
  async append(messages: ChatMessage[]): Promise<void> {
    if (!Array.isArray(messages)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: append to ${this.key}: messages must be an array`);
    const lc = messages.map((m, i) => toLangchain(m, `append to ${this.key}: message ${i}`));
    if (lc.length) await this.ctx.run('append (addMessages)', this.key, () => this.lc.addMessages(lc));
  }

  /** `getMessages()`, decoded (PAYLOAD_UNSUPPORTED naming key and index); `last` ≥ 1: the newest of them. */
  async read(opts: { last?: number } = {}): Promise<ChatMessage[]> {
    const last = opts.last;
    if (last !== undefined && (!Number.isInteger(last) || last < 1)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: read of ${this.key}: last must be an integer ≥ 1, got ${last}`);
    const all = await this.ctx.run('read (getMessages)', this.key, () => this.lc.getMessages(), { decode: true });
    const msgs = all.map((m, i) => fromLangchain(m, this.key, i));
    return last === undefined ? msgs : msgs.slice(-last);
  }

  length(): Promise<number> {
    return this.ctx.run('LLEN', this.key, () => this.ctx.client.lLen(this.key));
  }

  /** CAPABILITY_MISSING: the client has no window or trim (capability historyWindow). */
  async trim(window: HistoryWindow): Promise<number> {
    void window;
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: trim of ${this.key}: RedisChatMessageHistory has no trim (capability historyWindow)`);
  }

  async clear(): Promise<void> {
    await this.ctx.run('clear', this.key, () => this.lc.clear());
  }

  /** The session's one key with its PTTL, read from the server (none when it does not exist). */
  keys(): Promise<HistoryKey[]> {
    return this.ctx.run('PTTL', this.key, async () => {
      const ttl = await this.ctx.client.pTTL(this.key);
      return ttl === -2 ? [] : [{ key: this.key, ttlMs: ttl >= 0 ? ttl : null }];
    });
  }

  /** The payloads verbatim, oldest first, as the client writes them: LPUSH (newest at the head), then EXPIRE sessionTTL when set. */
  async writeRaw(payloads: string[]): Promise<void> {
    if (!Array.isArray(payloads) || payloads.some((p) => typeof p !== 'string')) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: writeRaw to ${this.key}: payloads must be strings`);
    if (payloads.length === 0) return;
    await this.ctx.run('writeRaw (LPUSH)', this.key, async () => {
      await this.ctx.client.lPush(this.key, payloads);
      if (this.ttl !== undefined) await this.ctx.client.expire(this.key, this.ttl);
    });
  }

  /** The list verbatim, oldest first (LRANGE reversed, as `getMessages` reads it). */
  readRaw(): Promise<string[]> {
    return this.ctx.run('readRaw (LRANGE)', this.key, async () => (await this.ctx.client.lRange(this.key, 0, -1)).reverse());
  }
}
