import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { MemoryCollection, MemoryStore } from '../adapter';
import type { ChatHistory, HistoryOptions } from '../history';
import type { RecallFilter } from '../types';
import { LineSplitter } from '../lines';
import { OPTIONAL_COLLECTION_METHODS, type WireCollection } from './client';
import { errorToWire, queryFromWire, recordFromWire, recordToWire, type WireQuery, type WireRecord, type WireReply, type WireRequest } from './wire';

/** What an adapter's store process serves on one data directory (`StoreProcessServer.configure`'s result). */
export interface StoreProcessService<S extends MemoryStore> {
  /** A NEW store of the adapter on the process's data (one per client connection). */
  open(): Promise<S>;
  /** The settings in effect on `store`'s connection, read back from the engine (op `effective`, the fault instance's `effective`). */
  effective(store: S): Record<string, string> | Promise<Record<string, string>>;
  /**
   * Take the storage's write lock on `store`'s connection (op `lock.hold`, `FaultTarget.holdWriteLock`):
   * returns once it is held, with how long another writer waits for it (ms, null: without limit)
   * and how to let it go. Absent: the engine has no write lock a client can hold.
   */
  holdWriteLock?(store: S): { waitLimitMs: number | null; release(): void } | Promise<{ waitLimitMs: number | null; release(): void }>;
}

/** An adapter's store process: its name and how it serves a data directory. */
export interface StoreProcessServer<S extends MemoryStore> {
  /** The adapter's name, e.g. `sqlite` (messages say `<adapter> store process`). */
  adapter: string;
  /**
   * Check the durability configuration's catalog `settings` (argv, `{}` when none) and say how to
   * serve `dataDir` (created after the call). Throws, with a message naming the setting, for a
   * setting it does not take: the process then prints the message and exits 2 (a failed start).
   */
  configure(dataDir: string, settings: Record<string, string>): StoreProcessService<S>;
}

/**
 * Run THIS process as a store process: the process that owns a data directory for the fault checks
 * (C15 kills it with SIGKILL mid-stream and starts it again on the same data; C22 runs one per
 * writer on one directory). Clients (client.ts) reach it over loopback TCP, one JSON line per request
 * (wire.ts); every TCP connection gets a store of its own (`service.open()`), as N threads of an
 * application would hold N connections. A request is answered after the adapter call returned,
 * i.e. after its commit: an answer is an acknowledgement.
 * argv: <dataDir> <host> <port> keep|nokeep <settings JSON>; a usage error exits 2. Prints
 * `ready <port>` once listening. SIGTERM / SIGINT: close every store (the engine's own clean
 * close) and exit 0. The process ends itself (SIGKILL) when its parent is gone (parent pid checked
 * every 250 ms), removing dataDir unless `keep` (then only when orphaned); see
 * packages/targets/src/local/guard.ts. A listen error exits 1.
 */
export function serveStoreProcess<S extends MemoryStore>(def: StoreProcessServer<S>): void {
  const label = `${def.adapter} store process`;
  const [dataDir, host, portArg, mode, settingsArg] = process.argv.slice(2);
  if (!dataDir || !host || !portArg || !mode || settingsArg === undefined) {
    process.stderr.write('usage: server.ts <dataDir> <host> <port> keep|nokeep <settings JSON>\n');
    process.exit(2);
  }
  const keep = mode === 'keep';
  let service: StoreProcessService<S>;
  try {
    service = def.configure(dataDir, JSON.parse(settingsArg) as Record<string, string>);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`); // bad input: the start fails with this line in its message
    process.exit(2);
  }
  mkdirSync(dataDir, { recursive: true });
  const sessions = new Set<Session<S>>();
  const server = net.createServer((socket) => sessions.add(new Session(socket, service, sessions)));
  server.on('error', (e) => {
    process.stderr.write(`${label}: ${e.stack ?? e}\n`);
    process.exit(1);
  });
  server.listen(Number(portArg), host, () => process.stdout.write(`ready ${portArg}\n`));

  /** A clean end: every store closed, then exit 0. */
  async function shutdown(): Promise<void> {
    server.close();
    await Promise.allSettled([...sessions].map((s) => s.close()));
    if (!keep) rmSync(dataDir!, { recursive: true, force: true });
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) {
      rmSync(dataDir, { recursive: true, force: true }); // orphaned: nobody will restart on it
      process.kill(process.pid, 'SIGKILL');
    }
  }, 250).unref();
}

/**
 * One client connection: its own store, and the collections and chat-history sessions it opened,
 * by name (requests name them, so a client that connects again after a cut needs no state from the
 * connection it lost).
 */
class Session<S extends MemoryStore> {
  private store?: Promise<S>;
  private readonly collections = new Map<string, MemoryCollection>();
  private readonly histories = new Map<string, ChatHistory>();
  private readonly lines = new LineSplitter();
  /** The write lock this connection holds (op `lock.hold`), released by `lock.release` or when the connection ends. */
  private lock?: () => void;
  constructor(
    private readonly socket: net.Socket,
    private readonly service: StoreProcessService<S>,
    private readonly sessions: Set<Session<S>>,
  ) {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => this.onData(d));
    socket.on('error', () => undefined); // a client gone mid-answer (cut, or its process died): nothing to tell
    socket.on('close', () => void this.close());
  }

  private onData(d: string): void {
    for (const line of this.lines.push(d)) {
      const req = JSON.parse(line) as WireRequest;
      void this.handle(req).then(
        (ok) => this.reply({ id: req.id, ok: ok ?? null }),
        (err: unknown) => this.reply({ id: req.id, error: errorToWire(err) }),
      );
    }
  }

  private reply(r: WireReply): void {
    if (!this.socket.destroyed) this.socket.write(`${JSON.stringify(r)}\n`);
  }

  private db(): Promise<S> {
    this.store ??= this.service.open();
    return this.store;
  }

  /** Collection `name`, opened from the store on first use (COLLECTION_MISSING when absent). */
  private async collection(s: S, name: unknown): Promise<MemoryCollection> {
    const n = String(name);
    let c = this.collections.get(n);
    if (!c) this.collections.set(n, (c = await s.openCollection(n)));
    return c;
  }

  /** The chat-history session of `opts` (`HistoryOptions`), opened on first use. */
  private async history(s: S, opts: unknown): Promise<ChatHistory> {
    const k = JSON.stringify(opts);
    let h = this.histories.get(k);
    if (!h) {
      if (typeof s.openHistory !== 'function') throw Object.assign(new Error(`${s.adapter}: this store has no chat history (openHistory)`), { code: 'CAPABILITY_MISSING' });
      this.histories.set(k, (h = await s.openHistory(opts as HistoryOptions)));
    }
    return h;
  }

  private async handle({ op, args }: WireRequest): Promise<unknown> {
    const s = await this.db();
    const col = () => this.collection(s, args[0]);
    const hist = () => this.history(s, args[0]);
    switch (op) {
      case 'serverInfo':
        return s.serverInfo();
      case 'effective':
        return this.service.effective(s);
      case 'lock.hold': {
        if (!this.service.holdWriteLock) throw Object.assign(new Error(`${s.adapter}: this store process has no write lock to hold`), { code: 'CAPABILITY_MISSING' });
        if (this.lock) throw Object.assign(new Error('lock.hold: this connection already holds the write lock'), { code: 'INVALID_INPUT' });
        const held = await this.service.holdWriteLock(s);
        this.lock = held.release;
        return { waitLimitMs: held.waitLimitMs };
      }
      case 'lock.release':
        this.releaseLock();
        return null;
      case 'createCollection': {
        const c = await s.createCollection(args[0] as Parameters<MemoryStore['createCollection']>[0]);
        this.collections.set(c.spec.name, c);
        return describe(c);
      }
      case 'openCollection': {
        this.collections.delete(String(args[0])); // read the marker again: it may have been dropped and created anew
        return describe(await col());
      }
      case 'dropCollection':
        this.collections.delete(String(args[0]));
        return s.dropCollection(String(args[0]));
      case 'upsert':
        return (await col()).upsert((args[1] as WireRecord[]).map(recordFromWire));
      case 'get':
        return (await (await col()).get(args[1] as string[])).map(recordToWire);
      case 'delete':
        return (await col()).delete(args[1] as string[]);
      case 'deleteWhere':
        return (await col()).deleteWhere!((args[1] ?? undefined) as RecallFilter); // an absent filter (null on the wire) is the adapter's INVALID_INPUT
      case 'count':
        return (await col()).count((args[1] ?? undefined) as Parameters<MemoryCollection['count']>[0]); // JSON carries an absent filter as null
      case 'buildIndex':
        return (await col()).buildIndex();
      case 'recall':
        return (await col()).recall(queryFromWire(args[1] as WireQuery));
      case 'scan':
        return (await (await col()).scan!(args[1] as Parameters<NonNullable<MemoryCollection['scan']>>[0])).map(recordToWire);
      case 'indexInEffect':
        return (await col()).indexInEffect!(queryFromWire(args[1] as WireQuery));
      case 'openHistory': {
        const h = await hist();
        return { sessionId: h.sessionId, keyPrefix: h.keyPrefix };
      }
      case 'history.append':
        return (await hist()).append(args[1] as Parameters<ChatHistory['append']>[0]);
      case 'history.read':
        return (await hist()).read((args[1] ?? undefined) as Parameters<ChatHistory['read']>[0]);
      case 'history.length':
        return (await hist()).length();
      case 'history.trim':
        return (await hist()).trim(args[1] as Parameters<ChatHistory['trim']>[0]);
      case 'history.clear':
        return (await hist()).clear();
      case 'history.keys':
        return (await hist()).keys();
      case 'history.writeRaw':
        return (await hist()).writeRaw(args[1] as string[]);
      case 'history.readRaw':
        return (await hist()).readRaw();
      default:
        throw Object.assign(new Error(`unknown operation ${JSON.stringify(op)}`), { code: 'INVALID_INPUT' });
    }
  }

  private releaseLock(): void {
    const release = this.lock;
    this.lock = undefined;
    release?.();
  }

  async close(): Promise<void> {
    this.sessions.delete(this);
    this.releaseLock();
    this.socket.destroy();
    const s = await this.store?.catch(() => undefined);
    await s?.close();
  }
}

/** What the client needs of a collection: its spec and which optional methods it has. */
function describe(c: MemoryCollection): WireCollection {
  return { spec: c.spec, methods: OPTIONAL_COLLECTION_METHODS.filter((m) => typeof c[m] === 'function') };
}
