import type {
  Capabilities,
  ChatHistory,
  ChatMessage,
  CollectionSpec,
  HistoryKey,
  HistoryOptions,
  HistoryWindow,
  IndexInEffect,
  MemoryCollection,
  MemoryRecord,
  MemoryStore,
  RecallFilter,
  RecallHit,
  RecallQuery,
  ScanOptions,
  ServerInfo,
} from '@memory-matrix/spec';
import { ADAPTER } from '../context';
import { LANCEDB_CAPABILITIES } from '../lancedb-adapter';
import type { ProcessConnection } from './connection';
import { queryToWire, recordFromWire, recordToWire, type WireRecord } from './wire';

/**
 * What a store in a store process offers: the adapter's capabilities without `snapshots` (the wire
 * carries memories and chat history; C26 opens the directory in its own processes instead).
 */
export const PROCESS_STORE_CAPABILITIES: Capabilities = { ...LANCEDB_CAPABILITIES, snapshots: false };

/**
 * A `MemoryStore` whose LanceDB connection lives in a store process (server.ts): every method is
 * one request on `conn`, answered after the adapter call returned there (a write: after its Lance
 * commit). Errors are the adapter's own codes, or BACKEND_ERROR when the process is gone or did
 * not answer in time (connection.ts).
 */
export class ProcessStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = PROCESS_STORE_CAPABILITIES;
  constructor(readonly conn: ProcessConnection) {}

  serverInfo(): Promise<ServerInfo> {
    return this.conn.call('serverInfo');
  }

  /** The process's database directory and its read consistency (what `faults.effective` reports). */
  settings(): Promise<Record<string, string>> {
    return this.conn.call('settings');
  }

  async createCollection(spec: CollectionSpec): Promise<MemoryCollection> {
    return new ProcessCollection(this.conn, await this.conn.call<CollectionSpec>('createCollection', spec));
  }

  async openCollection(name: string): Promise<MemoryCollection> {
    return new ProcessCollection(this.conn, await this.conn.call<CollectionSpec>('openCollection', name));
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

/** A collection of a `ProcessStore` (every request names it). */
class ProcessCollection implements MemoryCollection {
  private readonly h: string;
  constructor(
    private readonly conn: ProcessConnection,
    readonly spec: CollectionSpec,
  ) {
    this.h = spec.name;
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
  async scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    return (await this.conn.call<WireRecord[]>('scan', this.h, opts)).map(recordFromWire);
  }
  indexInEffect(query: RecallQuery): Promise<IndexInEffect> {
    return this.conn.call('indexInEffect', this.h, queryToWire(query));
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
