/**
 * A LanceDB store PROCESS: the process that owns the database directory `<dataDir>` for the fault
 * checks (C15 kills it with SIGKILL mid-stream and starts it again on the same directory; C22 runs
 * one per writer on one directory). Clients (client.ts) reach it over loopback TCP, one JSON line
 * per request (wire.ts); every TCP connection gets its own LanceDB connection (`createLancedbStore`
 * on the directory), as N threads of an application would hold. A request is answered after the
 * adapter call returned, i.e. after its Lance commit: an answer is an acknowledgement.
 * argv: <dataDir> <host> <port> keep|nokeep <settings JSON> (none accepted: LanceDB has no
 * durability settings). The index options are the driver's defaults (`hnswPartitions` 1): the
 * generic local provider hands a launcher no adapterOptions. Prints
 * `ready <port>` once listening. SIGTERM / SIGINT: close every connection and exit 0. The process
 * ends itself when its parent is gone (parent pid checked every 250 ms), removing dataDir unless
 * `keep` (then only when orphaned); see packages/backends/src/local/guard.ts.
 */
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { ChatHistory, MemoryCollection } from '@memory-matrix/spec';
import { createLancedbStore, type LancedbStore } from '../lancedb-adapter';
import { lancedbAdapterOptionsSchema } from '../options';
import { errorToWire, queryFromWire, recordFromWire, recordToWire, type WireRecord, type WireReply, type WireRequest } from './wire';

const [dataDir, host, portArg, mode, settingsArg] = process.argv.slice(2);
if (!dataDir || !host || !portArg || !mode || settingsArg === undefined) {
  process.stderr.write('usage: server.ts <dataDir> <host> <port> keep|nokeep <settings JSON>\n');
  process.exit(2);
}
const keep = mode === 'keep';
const settings = JSON.parse(settingsArg) as Record<string, string>;
if (Object.keys(settings).length) {
  process.stderr.write(`lancedb store process ${dataDir}: durability settings ${Object.keys(settings).join(', ')} are not supported (LanceDB has no durability settings; give none)\n`);
  process.exit(2);
}
const options = lancedbAdapterOptionsSchema.parse({});
mkdirSync(dataDir, { recursive: true });
const sessions = new Set<Session>();

/** One client connection: its own LanceDB connection and the collections it opened, by name. */
class Session {
  private store?: Promise<LancedbStore>;
  private readonly collections = new Map<string, MemoryCollection>();
  private readonly histories = new Map<string, ChatHistory>();
  private buf = '';
  constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => this.onData(d));
    socket.on('error', () => undefined); // a client gone mid-answer (cut, or its process died): nothing to tell
    socket.on('close', () => void this.close());
  }

  private onData(d: string): void {
    this.buf += d;
    for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
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

  private db(): Promise<LancedbStore> {
    this.store ??= createLancedbStore({ dir: dataDir, index: options });
    return this.store;
  }

  /** Collection `name`, opened from its table's marker on first use (COLLECTION_MISSING when absent). */
  private async collection(s: LancedbStore, name: unknown): Promise<MemoryCollection> {
    const n = String(name);
    let c = this.collections.get(n);
    if (!c) this.collections.set(n, (c = await s.openCollection(n)));
    return c;
  }

  /** The chat-history session of `opts` (`HistoryOptions`), opened on first use. */
  private async history(s: LancedbStore, opts: unknown): Promise<ChatHistory> {
    const k = JSON.stringify(opts);
    let h = this.histories.get(k);
    if (!h) this.histories.set(k, (h = await s.openHistory(opts as Parameters<LancedbStore['openHistory']>[0])));
    return h;
  }

  private async handle({ op, args }: WireRequest): Promise<unknown> {
    const s = await this.db();
    const col = () => this.collection(s, args[0]);
    const hist = () => this.history(s, args[0]);
    switch (op) {
      case 'serverInfo':
        return s.serverInfo();
      case 'settings':
        return { dir: s.dir, readConsistencyInterval: '0' };
      case 'createCollection': {
        const c = await s.createCollection(args[0] as Parameters<LancedbStore['createCollection']>[0]);
        this.collections.set(c.spec.name, c);
        return c.spec;
      }
      case 'openCollection': {
        this.collections.delete(String(args[0])); // read the marker again: it may have been dropped and created anew
        return (await col()).spec;
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
      case 'count':
        return (await col()).count((args[1] ?? undefined) as Parameters<MemoryCollection['count']>[0]); // JSON carries an absent filter as null
      case 'buildIndex':
        return (await col()).buildIndex();
      case 'recall':
        return (await col()).recall(queryFromWire(args[1] as Parameters<typeof queryFromWire>[0]));
      case 'scan':
        return (await (await col()).scan!(args[1] as Parameters<NonNullable<MemoryCollection['scan']>>[0])).map(recordToWire);
      case 'indexInEffect':
        return (await col()).indexInEffect!(queryFromWire(args[1] as Parameters<typeof queryFromWire>[0]));
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

  async close(): Promise<void> {
    sessions.delete(this);
    this.socket.destroy();
    const s = await this.store?.catch(() => undefined);
    await s?.close();
  }
}

const server = net.createServer((socket) => sessions.add(new Session(socket)));
server.on('error', (e) => {
  process.stderr.write(`lancedb store process: ${e.stack ?? e}\n`);
  process.exit(1);
});
server.listen(Number(portArg), host, () => process.stdout.write(`ready ${portArg}\n`));

/** A clean end: every LanceDB connection closed, then exit 0. */
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
