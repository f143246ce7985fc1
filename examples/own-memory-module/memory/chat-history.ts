import type Redis from 'ioredis';
import { brokenBy } from './breaks';

/**
 * The conversation of one chat session in Redis: one list per session (`<prefix><sessionId>`),
 * one JSON payload per message, oldest first, with a TTL on the key (sliding by default) and an
 * optional window (newest `maxMessages`, newest within `maxChars` code points).
 *
 * Payload format, versioned since the format change of v2:
 *   v2 (written now): {"v":2,"role":"user|assistant|system|tool","content":…,"createdAt":"…Z","metadata":{…}}
 *   v1 (read only):   {"v":1,"type":"human|ai|system|tool","text":…,"ts":<epoch ms>,"meta":{…}}
 * Anything else is refused with `PayloadError` (never read as an empty conversation).
 */

export type Role = 'user' | 'assistant' | 'system' | 'tool';

export interface ChatMessage {
  role: Role;
  content: string;
  /** ISO-8601 UTC with milliseconds. */
  createdAt: string;
  metadata: Record<string, string | number | boolean | null>;
}

export interface HistoryOptions {
  /** Key prefix; default `chat:`. */
  prefix?: string;
  /** TTL of the session's key in ms; none when absent. */
  ttlMs?: number;
  /** Reset the TTL on every write (default true); false: the TTL runs from the first write. */
  slidingTtl?: boolean;
  maxMessages?: number;
  maxChars?: number;
}

/** A stored payload this version cannot read: the key and the index in the list. */
export class PayloadError extends Error {
  constructor(
    readonly key: string,
    readonly index: number,
    why: string,
  ) {
    super(`${key}[${index}]: ${why}`);
  }
}

const ROLES: readonly Role[] = ['user', 'assistant', 'system', 'tool'];
const V1_TYPES: Record<string, Role> = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool' };
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export class ChatHistory {
  readonly key: string;

  constructor(
    private readonly redis: Redis,
    readonly sessionId: string,
    private readonly opts: HistoryOptions = {},
  ) {
    this.key = `${opts.prefix ?? 'chat:'}${sessionId}`;
  }

  /** Append messages (one call's messages stay together), then apply the window and the TTL. */
  async add(messages: ChatMessage[]): Promise<void> {
    await this.push(
      messages.map((m) => JSON.stringify({ v: 2, role: m.role, content: m.content, createdAt: m.createdAt, metadata: m.metadata })),
      true,
    );
  }

  /** Store payloads as they are (importing a conversation from the old service); TTL, no window. */
  async importRaw(payloads: string[]): Promise<void> {
    await this.push(payloads, false);
  }

  /** The stored payloads, oldest first. */
  async exportRaw(): Promise<string[]> {
    return this.redis.lrange(this.key, 0, -1);
  }

  /** All messages, oldest first, or the newest `last`. */
  async messages(last?: number): Promise<ChatMessage[]> {
    const payloads = await this.redis.lrange(this.key, last === undefined ? 0 : -last, -1);
    const offset = last === undefined ? 0 : Math.max(0, (await this.redis.llen(this.key)) - payloads.length);
    try {
      return payloads.map((p, i) => decode(this.key, offset + i, p));
    } catch (err) {
      // A reported bug: after the format change, old sessions came back as "no history".
      if (brokenBy('empty-on-bad-payload') && err instanceof PayloadError) return [];
      throw err;
    }
  }

  async size(): Promise<number> {
    return this.redis.llen(this.key);
  }

  /** Keep the newest messages within the window now; returns how many were removed. */
  async trim(window: { maxMessages?: number; maxChars?: number }): Promise<number> {
    const payloads = await this.redis.lrange(this.key, 0, -1);
    let keep = window.maxMessages === undefined ? payloads.length : Math.min(payloads.length, window.maxMessages);
    if (window.maxChars !== undefined) {
      let chars = 0;
      let n = 0;
      while (n < keep) {
        const c = [...decode(this.key, payloads.length - 1 - n, payloads[payloads.length - 1 - n]!).content].length;
        if (n > 0 && chars + c > window.maxChars) break;
        chars += c;
        n++;
      }
      keep = n;
    }
    const removed = payloads.length - keep;
    if (removed > 0) await (keep === 0 ? this.redis.del(this.key) : this.redis.ltrim(this.key, -keep, -1));
    return removed;
  }

  async clear(): Promise<void> {
    await this.redis.del(this.key);
  }

  /** The session's key and its remaining TTL in ms (null: none), or null when it does not exist. */
  async inspect(): Promise<{ key: string; ttlMs: number | null } | null> {
    const ttl = await this.redis.pttl(this.key);
    if (ttl === -2) return null;
    return { key: this.key, ttlMs: ttl === -1 ? null : ttl };
  }

  private async push(payloads: string[], window: boolean): Promise<void> {
    if (payloads.length === 0) return;
    const tx = this.redis.multi().rpush(this.key, ...payloads);
    if (window && this.opts.maxMessages !== undefined) tx.ltrim(this.key, -this.opts.maxMessages, -1);
    if (this.opts.ttlMs !== undefined) {
      if (this.opts.slidingTtl === false) tx.pexpire(this.key, this.opts.ttlMs, 'NX');
      else tx.pexpire(this.key, this.opts.ttlMs);
    }
    const results = await tx.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
    if (window && this.opts.maxChars !== undefined) await this.trim({ maxChars: this.opts.maxChars });
  }
}

/** One payload → a message (v2 as is, v1 upgraded); PayloadError for anything else. */
function decode(key: string, index: number, payload: string): ChatMessage {
  const bad = (why: string): never => {
    throw new PayloadError(key, index, why);
  };
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return bad('not JSON');
  }
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return bad('not a JSON object');
  const meta = (m: unknown): ChatMessage['metadata'] =>
    m === undefined ? {} : m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as ChatMessage['metadata']) : bad('metadata is not an object');
  if (p.v === 2) {
    if (!ROLES.includes(p.role as Role)) bad(`unknown role ${JSON.stringify(p.role)}`);
    if (typeof p.content !== 'string') bad('content is not a string');
    if (typeof p.createdAt !== 'string' || !INSTANT.test(p.createdAt)) bad('createdAt is not an ISO-8601 UTC instant');
    return { role: p.role as Role, content: p.content as string, createdAt: p.createdAt as string, metadata: meta(p.metadata) };
  }
  if (p.v === 1) {
    const role = V1_TYPES[String(p.type)] ?? bad(`unknown v1 type ${JSON.stringify(p.type)}`);
    if (typeof p.text !== 'string') bad('text is not a string');
    if (typeof p.ts !== 'number' || !Number.isInteger(p.ts)) bad('ts is not epoch milliseconds');
    return { role, content: p.text as string, createdAt: new Date(p.ts as number).toISOString(), metadata: meta(p.meta) };
  }
  return bad(`unsupported payload version ${JSON.stringify(p.v)}`);
}
