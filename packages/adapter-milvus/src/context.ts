import { isMemoryMatrixError, MemoryMatrixError } from '@memory-matrix/spec';
import type { MilvusClient } from '@zilliz/milvus2-sdk-node';

/** Adapter name (`MemoryStore.adapter`). */
export const ADAPTER = 'milvus';

/**
 * The consistency level of every search and query this adapter sends: `Strong` (Milvus docs,
 * "Consistency Level": a read sees every write acknowledged before it; the server waits for the
 * latest timestamp). Collections are created with it too. Declared here, used everywhere.
 */
export const CONSISTENCY = 'Strong' as const;

/** A Milvus status as the SDK returns it: top-level or under `.status`. */
interface Status {
  code?: number;
  error_code?: string | number;
  reason?: string;
}

/**
 * The status of a response: throws BACKEND_ERROR `milvus: <op> failed: <reason> (code N)` unless
 * `code` is 0. `code` is checked, not `error_code`: kylin-ai-vector-engine refuses e.g. an
 * IVF_FLAT index with `error_code: "Success"` and `code: 65535` (measured).
 */
export function checkStatus(res: unknown, op: string, coll?: string): void {
  const r = res as { status?: Status } & Status;
  const s: Status | undefined = r && typeof r === 'object' ? (r.status ?? r) : undefined;
  if (!s || typeof s !== 'object') throw new MemoryMatrixError('BACKEND_ERROR', `milvus: ${op}${coll ? ` on collection ${coll}` : ''}: no status in the reply (${JSON.stringify(res)?.slice(0, 200)})`);
  const code = s.code ?? 0;
  const legacy = s.error_code;
  if (code !== 0 || (legacy !== undefined && legacy !== 'Success' && legacy !== 0)) {
    throw new MemoryMatrixError('BACKEND_ERROR', `milvus: ${op}${coll ? ` on collection ${coll}` : ''} failed: ${s.reason || '(no reason)'} (code ${code}, error_code ${String(legacy)})`);
  }
}

/** `BACKEND_ERROR` for a failed client call, the SDK's error as `cause`; a MemoryMatrixError passes through. */
export function wrapBackendError(err: unknown, op: string, coll?: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const msg = err instanceof Error ? err.message : String(err);
  return new MemoryMatrixError('BACKEND_ERROR', `milvus: ${op}${coll ? ` on collection ${coll}` : ''} failed: ${msg}`, { cause: err });
}

/**
 * Asked after a failed call: whether the server itself is gone (its container exited). Returns the
 * report (`TARGET_CRASHED: … last log lines …`) or undefined when the server still runs.
 * Supplied by the container driver (driver/crash.ts); absent for a bare `createMilvusStore`.
 */
export type CrashProbe = () => Promise<string | undefined>;

/** What a store and its collections share: the client, limits, the closed flag, the crash probe. */
export class StoreContext {
  closed = false;
  /** Set once a crash was detected: every later call fails at once with this report (no new request, no hang). */
  crashed: string | undefined;

  constructor(
    readonly client: MilvusClient,
    /** e.g. `127.0.0.1:19530` (messages). */
    readonly where: string,
    /** Records per insert/upsert request (see MAX_BATCH_ROWS) and per `id in [...]` list. */
    readonly maxBatch: number,
    private readonly crashProbe?: CrashProbe,
  ) {}

  /**
   * Runs `fn` (one or more SDK calls), checks the reply's status (`checkStatus`, unless `check` is
   * false) and wraps errors as BACKEND_ERROR. After a failure it asks the crash probe: a server
   * that is gone turns the error into `BACKEND_ERROR` whose message starts with `TARGET_CRASHED`
   * and carries the server's last log lines, and the store remembers it (later calls fail at once
   * with the same report). BACKEND_ERROR after `close()`.
   */
  async run<T>(op: string, coll: string | undefined, fn: () => Promise<T>, check = true): Promise<T> {
    const on = `${op}${coll ? ` on collection ${coll}` : ''}`;
    if (this.crashed) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: ${on}: ${this.crashed}`);
    if (this.closed) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: ${on}: the store was closed`);
    try {
      const res = await fn();
      if (check) checkStatus(res, op, coll);
      return res;
    } catch (err) {
      const e = wrapBackendError(err, op, coll);
      if (e.code !== 'BACKEND_ERROR' || !this.crashProbe) throw e;
      const report = await this.crashProbe().catch(() => undefined);
      if (!report) throw e;
      this.crashed = report;
      throw new MemoryMatrixError('BACKEND_ERROR', `milvus: ${on}: ${report} (client: ${e.message})`, { cause: err });
    }
  }
}
