import type { Capabilities } from './capabilities';
import type { MemoryPolicy, MemoryPolicyState } from './eviction';
import type { ChatHistory, HistoryOptions } from './history';
import type { CollectionSpec, MemoryRecord, Metric, RecallFilter, RecallHit, RecallQuery, ServerInfo } from './types';

/**
 * The adapter contract. One `MemoryStore` is one client/connection to one backend;
 * a `MemoryCollection` is one table / key prefix / Chroma collection the run created.
 * Errors are `MemoryMatrixError` with the codes named below; backend errors are wrapped
 * as `BACKEND_ERROR` with the original as `cause`, never swallowed into an empty result.
 */
export interface MemoryStore {
  /** Adapter name (the driver's name, e.g. `toy`). */
  readonly adapter: string;
  /** What this adapter can do against this server. */
  readonly capabilities: Capabilities;
  /** Server and component versions as the server reports them. */
  serverInfo(): Promise<ServerInfo>;
  /** Create a new collection. Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING. */
  createCollection(spec: CollectionSpec): Promise<MemoryCollection>;
  /** Reopen a collection this or another client created; metric/dim read from the store. Throws COLLECTION_MISSING. */
  openCollection(name: string): Promise<MemoryCollection>;
  /** Drop a collection the run created (table/keys/collection). Missing is not an error. */
  dropCollection(name: string): Promise<void>;
  /** Close the client; idempotent. */
  close(): Promise<void>;
  /** Chat history of one session (history.ts); only adapters with the `history` capability. Throws INVALID_INPUT. */
  openHistory?(opts: HistoryOptions): Promise<ChatHistory>;
  /** Memory limit, eviction policy and counters as the server reports them (eviction.ts, C19); `evictionPolicy` capability. Throws BACKEND_ERROR. */
  memoryPolicy?(): Promise<MemoryPolicyState>;
  /** Set the memory limit and eviction policy (C19, on a server the run started only). Throws INVALID_INPUT, BACKEND_ERROR. */
  setMemoryPolicy?(policy: MemoryPolicy): Promise<void>;
}

export interface MemoryCollection {
  /** The spec as stored (metric and dim as the store reports them after reopen). */
  readonly spec: CollectionSpec;
  /**
   * Insert or replace memories by id, chunked by the adapter's max batch. Validates every record
   * first (DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT) and writes nothing if one is bad;
   * a batch is atomic where the backend allows (declared otherwise in the adapter README).
   */
  upsert(records: MemoryRecord[]): Promise<void>;
  /**
   * Records by id, in the order asked, each id once (a repeated id at its first occurrence only),
   * missing ids left out: `get(['b', 'x', 'a', 'b'])` with a and b stored is [b, a] (`inAskedOrder`,
   * get-order.ts). Throws INVALID_INPUT (not an array of strings), BACKEND_ERROR.
   */
  get(ids: string[]): Promise<MemoryRecord[]>;
  /** Delete by id; returns how many existed. */
  delete(ids: string[]): Promise<number>;
  /**
   * Delete every memory matching `filter` (recall's semantics: namespaces, kinds, metadata and
   * `where`, all ANDed) in one statement / call the backend evaluates — never a list of ids read
   * back and deleted by id in the adapter; returns how many the backend deleted. Only adapters
   * with the `deleteByFilter` capability (C25). Throws INVALID_INPUT (a filter with no part: it
   * would delete every memory — `dropCollection` does that; a malformed filter),
   * CAPABILITY_MISSING (a `where` operator not in `filterOperators`), BACKEND_ERROR.
   */
  deleteWhere?(filter: RecallFilter): Promise<number>;
  /** Number of memories, optionally under a filter (recall's semantics, `where` included where `filterOperators` lists its operators). */
  count(filter?: RecallFilter): Promise<number>;
  /**
   * Build (or rebuild) the collection's ANN index after a bulk load (HNSW, IVFFlat need data to
   * train on); a no-op where the backend indexes on write or the index type is `none`.
   */
  buildIndex(): Promise<void>;
  /** Top-k by canonical score, non-increasing, ties broken by id ascending (C07). */
  recall(query: RecallQuery): Promise<RecallHit[]>;
  /**
   * One page of the whole collection, keyset-paginated in id order (UTF-8 byte order, spec
   * `compareIdsBytes`): up to `limit` records whose id sorts strictly after `after` (from the
   * start when absent), ascending; exactly min(limit, records left) of them, so a short page (or `[]`) is the last. Records are as stored: text,
   * metadata, createdAt byte for byte, `embedding` the float32 vector the store keeps for the
   * memory (where the backend's index holds another copy, e.g. Redis int8, the adapter README
   * says which one is returned). Not a snapshot: writes between pages may or may not show.
   * Optional for adapters outside this repo; all three here implement it (migration, sampler).
   * Throws INVALID_INPUT (limit not an integer 1..MAX_SCAN_LIMIT, `after` not a string),
   * PAYLOAD_UNSUPPORTED (a stored record it cannot decode, naming key and id), BACKEND_ERROR.
   */
  scan?(opts: ScanOptions): Promise<MemoryRecord[]>;
  /**
   * The ANN index configuration the SERVER says is in effect for `query` (a `scan: 'index'`
   * recall), read back from the server, never from the adapter's own spec: pgvector the plan of
   * the recall (EXPLAIN under the recall's own settings, in the same transaction) and
   * `SHOW hnsw.ef_search` / `ivfflat.probes` there, with the index's access method, operator
   * class and reloptions from the catalog; Redis `VINFO` of the vector set; Chroma the
   * collection's stored configuration. Only adapters with the `indexIntrospection` capability
   * (C28). Throws INVALID_INPUT (a bad query, as recall), BACKEND_ERROR.
   */
  indexInEffect?(query: RecallQuery): Promise<IndexInEffect>;
}

/**
 * What `MemoryCollection.indexInEffect` reports: the index the server uses for one recall.
 * - `type`: the index type the query runs on, with the `IndexConfig` type names (`hnsw`,
 *   `ivfflat`), or `none` when the server answers it without an index (a sequential scan).
 * - `metric`: the metric the index is built for, read from the server (pgvector the operator
 *   class, Chroma `hnsw.space`, Redis Vector Sets are always cosine); null with `type: 'none'`.
 * - `params`: the parameters in effect, with the names of the `IndexConfig` type (hnsw: m,
 *   efConstruction, efSearch; ivfflat: lists, probes, integers; a driver's own type: its schema's
 *   keys); a parameter the server does not report is absent (Redis does not report EF
 *   construction; its per-query EF is a VSIM argument, not server state).
 * - `extra`: other server-reported settings that decide recall, e.g. `quantization: int8`,
 *   `hnsw.iterative_scan: strict_order`.
 * - `source`: where the values were read, e.g. `EXPLAIN: Index Scan using mm_x_ann; SHOW hnsw.ef_search`.
 */
export interface IndexInEffect {
  type: string;
  metric: Metric | null;
  params: Record<string, number | string | boolean>;
  extra?: Record<string, string>;
  source: string;
}

/** `MemoryCollection.scan` page request: `after` an id (exclusive) or absent, `limit` 1..MAX_SCAN_LIMIT records. */
export interface ScanOptions {
  after?: string;
  limit: number;
}
