import type Redis from 'ioredis';
import { DEFAULT_HISTORY_PREFIX, MemoryMatrixError, validateHistoryWindow, validateRawPayloads, validateReadLast } from '@memory-matrix/spec';
import type { ChatHistory, ChatMessage, HistoryKey, HistoryOptions, HistoryWindow } from '@memory-matrix/spec';
import { ADAPTER, type StoreContext } from './context';
import { scanKeys, sessionKeys, SESSION_RE, validatePrefix } from './keys';
import { codePoints, decodeMessage, encodeMessage, PAYLOAD_VERSION, validateMessage } from './history-payload';
import { HISTORY_SCRIPT } from './history-script';

/** Default history key prefix (spec history-rows.ts). */
export { DEFAULT_HISTORY_PREFIX } from '@memory-matrix/spec';
const COMMAND = 'mmHistoryWrite';

type ScriptClient = Redis & { [COMMAND](msgs: string, meta: string, ...args: Array<string | number>): Promise<number> };

/** The client with the history script defined (EVALSHA, loaded on first use by ioredis). */
function scripted(client: Redis): ScriptClient {
  if (typeof (client as unknown as Partial<ScriptClient>)[COMMAND] !== 'function') {
    client.defineCommand(COMMAND, { numberOfKeys: 2, lua: HISTORY_SCRIPT });
  }
  return client as unknown as ScriptClient;
}

/** Validate `HistoryOptions` (INVALID_INPUT naming the field). */
export function validateHistoryOptions(o: HistoryOptions): Required<Pick<HistoryOptions, 'sessionId' | 'keyPrefix' | 'refreshTtlOnWrite'>> & HistoryOptions {
  const bad = (why: string) => new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: openHistory: ${why}`);
  if (typeof o?.sessionId !== 'string' || !SESSION_RE.test(o.sessionId)) throw bad(`sessionId must match ${SESSION_RE.source}, got ${JSON.stringify(o?.sessionId)}`);
  const keyPrefix = validatePrefix(o.keyPrefix ?? DEFAULT_HISTORY_PREFIX, 'openHistory: keyPrefix');
  if (o.ttlMs !== undefined && (!Number.isInteger(o.ttlMs) || o.ttlMs < 1)) throw bad(`ttlMs must be an integer ≥ 1 (milliseconds), got ${o.ttlMs}`);
  if (o.refreshTtlOnWrite !== undefined && typeof o.refreshTtlOnWrite !== 'boolean') throw bad('refreshTtlOnWrite must be a boolean');
  if (o.window !== undefined) validateHistoryWindow(o.window, 'openHistory: window', ADAPTER);
  return { ...o, keyPrefix, refreshTtlOnWrite: o.refreshTtlOnWrite ?? true };
}

/**
 * Chat history of one session on Redis: a list of versioned JSON payloads (RPUSH, oldest first)
 * and a meta hash, written only through one Lua script (history-script.ts) so append + window +
 * TTL on every key are atomic. Reads decode every payload (v1 is upgraded, anything unknown is
 * PAYLOAD_UNSUPPORTED). See the spec's `ChatHistory` for the contract.
 */
export class RedisChatHistory implements ChatHistory {
  readonly sessionId: string;
  readonly keyPrefix: string;
  private readonly k: ReturnType<typeof sessionKeys>;
  private readonly opts: ReturnType<typeof validateHistoryOptions>;

  constructor(
    private readonly ctx: StoreContext,
    options: HistoryOptions,
  ) {
    this.opts = validateHistoryOptions(options);
    this.sessionId = this.opts.sessionId;
    this.keyPrefix = this.opts.keyPrefix;
    this.k = sessionKeys(this.keyPrefix, this.sessionId);
  }

  async append(messages: ChatMessage[]): Promise<void> {
    if (!Array.isArray(messages)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: append to ${this.k.messages}: messages must be an array`);
    messages.forEach((m, i) => validateMessage(m, `append to ${this.k.messages}: message ${i}`));
    if (messages.length === 0) return;
    await this.write(
      'append',
      this.opts.window ?? {},
      messages.map((m) => codePoints(m.content)),
      messages.map(encodeMessage),
    );
  }

  async read(opts: { last?: number } = {}): Promise<ChatMessage[]> {
    const last = opts.last;
    validateReadLast(last, `read of ${this.k.messages}`, ADAPTER);
    const key = this.k.messages;
    return this.ctx.run('read history', key, async () => {
      if (last === undefined) return (await this.ctx.client.lrange(key, 0, -1)).map((p, i) => decodeMessage(p, key, i));
      const [len, raw] = await this.tail(last);
      return raw.map((p, i) => decodeMessage(p, key, len - raw.length + i));
    });
  }

  length(): Promise<number> {
    return this.ctx.run('length of history', this.k.messages, () => this.ctx.client.llen(this.k.messages));
  }

  async trim(window: HistoryWindow): Promise<number> {
    validateHistoryWindow(window, `trim of ${this.k.messages}: window`, ADAPTER);
    return this.write('trim', window, [], []);
  }

  async clear(): Promise<void> {
    await this.ctx.run('clear history', this.k.pattern, async () => {
      const keys = await scanKeys(this.ctx.client, this.k.pattern);
      if (keys.length) await this.ctx.client.unlink(...keys);
    });
  }

  keys(): Promise<HistoryKey[]> {
    return this.ctx.run('list history keys', this.k.pattern, async () => {
      const keys = await scanKeys(this.ctx.client, this.k.pattern);
      const out: HistoryKey[] = [];
      for (const key of keys) {
        const ttl = await this.ctx.client.pttl(key);
        if (ttl === -2) continue; // expired or deleted since the scan
        out.push({ key, ttlMs: ttl >= 0 ? ttl : null });
      }
      return out;
    });
  }

  async writeRaw(payloads: string[]): Promise<void> {
    validateRawPayloads(payloads, `writeRaw to ${this.k.messages}`, ADAPTER);
    if (payloads.length)
      await this.write(
        'raw',
        {},
        payloads.map(() => 0),
        payloads,
      );
  }

  readRaw(): Promise<string[]> {
    return this.ctx.run('read raw history', this.k.messages, () => this.ctx.client.lrange(this.k.messages, 0, -1));
  }

  /** The newest `n` payloads and the list length, in one round trip. */
  private async tail(n: number): Promise<[number, string[]]> {
    const res = await this.ctx.client.multi().llen(this.k.messages).lrange(this.k.messages, -n, -1).exec();
    if (!res || res.some(([e]) => e)) throw res?.find(([e]) => e)?.[0] ?? new Error('MULTI aborted');
    return [res[0]![1] as number, res[1]![1] as string[]];
  }

  private write(mode: 'append' | 'trim' | 'raw', w: HistoryWindow, chars: number[], payloads: string[]): Promise<number> {
    return this.ctx.run(`${mode} history`, this.k.messages, async () => {
      try {
        return await scripted(this.ctx.client)[COMMAND](
          this.k.messages,
          this.k.meta,
          mode,
          this.opts.ttlMs ?? 0,
          this.opts.refreshTtlOnWrite ? '1' : '0',
          w.maxMessages ?? 0,
          w.maxChars ?? 0,
          PAYLOAD_VERSION,
          payloads.length,
          ...chars,
          ...payloads,
        );
      } catch (err) {
        const m = /PAYLOAD_UNSUPPORTED (.*)/.exec(String((err as Error)?.message));
        if (m) throw new MemoryMatrixError('PAYLOAD_UNSUPPORTED', `${ADAPTER}: ${m[1]}`, { cause: err });
        throw err;
      }
    });
  }
}
