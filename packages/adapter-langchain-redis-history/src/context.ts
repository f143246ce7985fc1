import { isMemoryMatrixError, MemoryMatrixError, type ErrorCode } from '@memory-matrix/spec';
import type { RedisClientType } from 'redis';

/** Adapter name (`MemoryStore.adapter`). */
export const ADAPTER = 'langchain-redis-history';

/** The node-redis client type `@langchain/redis` takes (`RedisChatMessageHistory({ client })`). */
export type NodeRedis = RedisClientType;

/**
 * Errors of a history READ whose text says the stored payload could not be decoded, and get
 * PAYLOAD_UNSUPPORTED: `JSON.parse` of a list element (SyntaxError), and @langchain/core's
 * `mapStoredMessagesToChatMessages` refusing one ("Got unexpected type: …", "Tool call ID must be
 * defined for tool messages", "Name must be defined …", "Role must be defined …"). Nothing else is
 * mapped: every other error is BACKEND_ERROR with the original as `cause`.
 */
const DECODE: RegExp[] = [/^SyntaxError: /, /Got unexpected type/, /must be defined for/];

/** What a store and its histories share: the node-redis client (LangChain's and the raw reads'), the URL, the closed flag. */
export class StoreContext {
  closed = false;

  constructor(
    readonly client: NodeRedis,
    /** `redis://127.0.0.1:<port>` (messages). */
    readonly url: string,
  ) {}

  /**
   * Run one client call on `key`: errors become `MemoryMatrixError` (`decode`: a read's decode
   * errors PAYLOAD_UNSUPPORTED naming the key, else BACKEND_ERROR naming the operation and key, the
   * original as `cause`). BACKEND_ERROR after `close()`.
   */
  async run<T>(op: string, key: string | undefined, fn: () => Promise<T>, opts: { decode?: boolean } = {}): Promise<T> {
    const at = `${ADAPTER}: ${op}${key !== undefined ? ` of ${key}` : ''}`;
    if (this.closed) throw new MemoryMatrixError('BACKEND_ERROR', `${at}: the store was closed`);
    try {
      return await fn();
    } catch (err) {
      if (isMemoryMatrixError(err)) throw err;
      const msg = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      const code: ErrorCode = opts.decode && DECODE.some((re) => re.test(msg)) ? 'PAYLOAD_UNSUPPORTED' : 'BACKEND_ERROR';
      throw new MemoryMatrixError(code, `${at} failed: ${msg}`, { cause: err });
    }
  }
}
