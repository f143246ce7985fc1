import type { IndexInEffect, MemoryCollection, MemoryStore, ScanOptions } from '../adapter';
import type { Capabilities } from '../capabilities';
import type { ChatHistory, ChatMessage, HistoryKey, HistoryOptions, HistoryWindow } from '../history';
import type { CollectionSpec, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ServerInfo } from '../types';
import type { ProcessConnection } from './connection';
import { queryToWire, recordFromWire, recordToWire, type WireRecord } from './wire';

/** The optional `MemoryCollection` methods a store process forwards when the adapter's collection has them. */
export const OPTIONAL_COLLECTION_METHODS = ['scan', 'indexInEffect', 'deleteWhere'] as const;
/** One of `OPTIONAL_COLLECTION_METHODS`. */
export type OptionalCollectionMethod = (typeof OPTIONAL_COLLECTION_METHODS)[number];

/** How the process answers `createCollection` / `openCollection`: the spec as stored and the optional methods the collection has. */
export interface WireCollection {
  spec: CollectionSpec;
  methods: OptionalCollectionMethod[];
}

/**
 * A `MemoryStore` whose adapter connection lives in a store process (server.ts): every method is one
 * request on `conn`, answered after the adapter call returned there (a write: after it committed).
 * `adapter` and `capabilities` are the adapter's (its capabilities without what the wire does not
 * carry, e.g. `snapshots`). Errors are the adapter's own codes, or BACKEND_ERROR when the process is
 * gone or did not answer in time (connection.ts).
 */
export class ProcessStore implements MemoryStore {
  constructor(
    readonly conn: ProcessConnection,
    readonly adapter: string,
    readonly capabilities: Capabilities,
  ) {}

  serverInfo(): Promise<ServerInfo> {
    return this.conn.call('serverInfo');
  }

  /** The settings in effect on this client's connection in the process, as the adapter's server reads them back (what `faults.effective` reports). */
  effective(): Promise<Record<string, string>> {
    return this.conn.call('effective');
  }

  async createCollection(spec: CollectionSpec): Promise<MemoryCollection> {
    return new ProcessCollection(this.conn, await this.conn.call<WireCollection>('createCollection', spec));
  }

  async openCollection(name: string): Promise<MemoryCollection> {
    return new ProcessCollection(this.conn, await this.conn.call<WireCollection>('openCollection', name));
  }

  dropCollection(name: string): Promise<void> {
    return this.conn.call('dropCollection', name);
  }

  async openHistory(opts: HistoryOptions): Promise<ChatHistory> {
    const r = await this.conn.call<{ sessionId: string; keyPrefix: string }>('openHistory', opts);
    return new ProcessHistory(this.conn, opts, r.sessionId, r.keyPrefix);
  }

  close(): Promise<void> {
    return this.conn.close();
  }
}

/**
 * A collection of a `ProcessStore` (every request names it). `scan`, `indexInEffect` and `deleteWhere` exist only
 * when the process's collection has them (`WireCollection.methods`), as on the adapter itself.
 */
class ProcessCollection implements MemoryCollection {
  readonly spec: CollectionSpec;
  readonly scan?: (opts: ScanOptions) => Promise<MemoryRecord[]>;
  readonly indexInEffect?: (query: RecallQuery) => Promise<IndexInEffect>;
  readonly deleteWhere?: (filter: RecallFilter) => Promise<number>;
  private readonly h: string;
  constructor(
    private readonly conn: ProcessConnection,
    w: WireCollection,
  ) {
    this.spec = w.spec;
    this.h = w.spec.name;
    if (w.methods.includes('scan')) this.scan = async (opts) => (await conn.call<WireRecord[]>('scan', this.h, opts)).map(recordFromWire);
    if (w.methods.includes('indexInEffect')) this.indexInEffect = (query) => conn.call('indexInEffect', this.h, queryToWire(query));
    if (w.methods.includes('deleteWhere')) this.deleteWhere = (filter) => conn.call('deleteWhere', this.h, filter);
  }
  upsert(records: MemoryRecord[]): Promise<void> {
    return this.conn.call('upsert', this.h, records.map(recordToWire));
  }
  async get(ids: string[]): Promise<MemoryRecord[]> {
    return (await this.conn.call<WireRecord[]>('get', this.h, ids)).map(recordFromWire);
  }
  delete(ids: string[]): Promise<number> {
    return this.conn.call('delete', this.h, ids);
  }
  count(filter?: RecallFilter): Promise<number> {
    return this.conn.call('count', this.h, filter);
  }
  buildIndex(): Promise<void> {
    return this.conn.call('buildIndex', this.h);
  }
  recall(query: RecallQuery): Promise<RecallHit[]> {
    return this.conn.call('recall', this.h, queryToWire(query));
  }
}

/** A chat-history session of a `ProcessStore` (every request carries its `HistoryOptions` `h`). */
class ProcessHistory implements ChatHistory {
  constructor(
    private readonly conn: ProcessConnection,
    private readonly h: HistoryOptions,
    readonly sessionId: string,
    readonly keyPrefix: string,
  ) {}
  append(messages: ChatMessage[]): Promise<void> {
    return this.conn.call('history.append', this.h, messages);
  }
  read(opts?: { last?: number }): Promise<ChatMessage[]> {
    return this.conn.call('history.read', this.h, opts);
  }
  length(): Promise<number> {
    return this.conn.call('history.length', this.h);
  }
  trim(window: HistoryWindow): Promise<number> {
    return this.conn.call('history.trim', this.h, window);
  }
  clear(): Promise<void> {
    return this.conn.call('history.clear', this.h);
  }
  keys(): Promise<HistoryKey[]> {
    return this.conn.call('history.keys', this.h);
  }
  writeRaw(payloads: string[]): Promise<void> {
    return this.conn.call('history.writeRaw', this.h, payloads);
  }
  readRaw(): Promise<string[]> {
    return this.conn.call('history.readRaw', this.h);
  }
}
