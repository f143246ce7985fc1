import type Redis from 'ioredis';
import { KitStoreContext, MemoryMatrixError, wrapBackendErrorIn, type ContextStyle } from '@memory-matrix/spec';

/** The adapter name, as reported in `MemoryStore.adapter` and every error message. */
export const ADAPTER = 'redis';

/**
 * Redis's wording of backend errors: `redis: <what> on <where> failed: <message> (<EXECABORT's
 * replies>)`, OUT_OF_MEMORY for `OOM command not allowed when used memory > 'maxmemory'`
 * (maxmemory + noeviction: its own code, C19), else BACKEND_ERROR (spec kit/context.ts).
 */
export const REDIS_STYLE: ContextStyle = {
  adapter: ADAPTER,
  noun: '',
  describe: (err) => {
    const message = err instanceof Error ? err.message : String(err);
    // EXECABORT carries the replies that aborted the MULTI (ioredis `previousErrors`): name them.
    const previous = ((err as { previousErrors?: unknown[] })?.previousErrors ?? []).map((e) => (e instanceof Error ? e.message : String(e)));
    return previous.length ? `${message} (${[...new Set(previous)].join('; ')})` : message;
  },
  codeOf: (text) => (/\bOOM command not allowed\b/.test(text) ? 'OUT_OF_MEMORY' : 'BACKEND_ERROR'),
};

/**
 * State shared by a store, its collections and its histories: the ioredis client, the store's
 * key prefix, whether the store is closed. `run` (spec `KitStoreContext`, REDIS_STYLE, the
 * client's error as `cause`, BACKEND_ERROR at once when the store is closed) is the one place
 * backend errors are wrapped.
 */
export class StoreContext extends KitStoreContext {
  constructor(
    readonly client: Redis,
    /** Prefix of every collection key this store creates or opens, e.g. `mm:`. */
    readonly prefix: string,
  ) {
    super(REDIS_STYLE);
  }

  /**
   * `tx.exec()` with the client's per-command limit (`commandTimeoutMs`, ioredis `commandTimeout`)
   * multiplied by `units` for the commands of this transaction only: one EXEC does all the work of
   * a batch at once, so an upsert or delete of n records is allowed `unitsFor(n)` limits.
   * Relies on ioredis sending a pipeline's commands synchronously inside `exec()`.
   */
  execScaled(tx: ReturnType<Redis['multi']>, units: number): ReturnType<ReturnType<Redis['multi']>['exec']> {
    const opts = this.client.options;
    const base = opts.commandTimeout;
    if (base === undefined || units <= 1) return tx.exec();
    opts.commandTimeout = base * units;
    try {
      return tx.exec();
    } finally {
      opts.commandTimeout = base;
    }
  }
}

/**
 * Records per unit of a write's time limit (`StoreContext.execScaled`). Measured on Redis 8.0.2: a
 * MULTI of 3,000 VADDs (384-d, M 16, EF 200) + HSETs took 1.5 s on an idle 2-core machine and
 * 3.3 s at load 6.9 (≈1.1 ms per record, transfer + queueing + EXEC); 250 records are ≈0.3 s then,
 * inside any limit ≥ 1 s, so a limit set for single commands also fits every chunk of a batch.
 */
export const RECORDS_PER_TIMEOUT_UNIT = 250;

/** Units of a write of `n` records: ceil(n / RECORDS_PER_TIMEOUT_UNIT), at least 1. */
export function unitsFor(n: number): number {
  return Math.max(1, Math.ceil(n / RECORDS_PER_TIMEOUT_UNIT));
}

/** Pass MemoryMatrixErrors through; wrap anything else as BACKEND_ERROR (OUT_OF_MEMORY for Redis' OOM reply) naming `what`. */
export const wrapBackendError = (err: unknown, what: string): MemoryMatrixError => wrapBackendErrorIn(REDIS_STYLE, err, what);

/**
 * The results of `multi().exec()`: throws BACKEND_ERROR for an aborted transaction (null) or the
 * first command that failed inside it (naming its index), else the replies in order.
 */
export function execReplies(res: Array<[Error | null, unknown]> | null, what: string): unknown[] {
  if (res === null) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${what}: MULTI/EXEC was aborted`);
  const bad = res.findIndex(([e]) => e !== null);
  if (bad >= 0) {
    const e = res[bad]![0]!;
    throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${what}: command ${bad + 1} of ${res.length} in MULTI/EXEC failed: ${e.message}`, { cause: e });
  }
  return res.map(([, v]) => v);
}
