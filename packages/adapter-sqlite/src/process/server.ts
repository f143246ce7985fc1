/**
 * A SQLite store PROCESS: the process that owns the database file `<dataDir>/memory.db` for the
 * fault checks (C15 kills it with SIGKILL mid-stream and starts it again on the same file; C22 runs
 * one per writer on one file). Clients (client.ts) reach it over loopback TCP, one JSON line per
 * request (wire.ts); every TCP connection gets its own SQLite connection (`createSqliteStore` on the
 * file, with the configuration's journal settings), so N clients are N SQLite connections, as N
 * threads of an application would hold. A request is answered after the adapter call returned, i.e.
 * after its transaction committed: an answer is an acknowledgement.
 * argv: <dataDir> <host> <port> keep|nokeep <settings JSON>. Prints `ready <port>` once listening.
 * SIGTERM / SIGINT: close every connection (SQLite's own clean close) and exit 0. The process ends
 * itself when its parent is gone (parent pid checked every 250 ms), removing dataDir unless `keep`
 * (then only when orphaned); see packages/backends/src/local/guard.ts.
 */
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ChatHistory, MemoryCollection } from '@memory-matrix/spec';
import { createSqliteStore, type SqliteStore } from '../sqlite-adapter';
import { journalOfSettings } from './settings';
import { errorToWire, queryFromWire, recordFromWire, recordToWire, type WireRecord, type WireReply, type WireRequest } from './wire';

const [dataDir, host, portArg, mode, settingsArg] = process.argv.slice(2);
if (!dataDir || !host || !portArg || !mode || settingsArg === undefined) {
  process.stderr.write('usage: server.ts <dataDir> <host> <port> keep|nokeep <settings JSON>\n');
  process.exit(2);
}
const keep = mode === 'keep';
const journal = journalOfSettings(JSON.parse(settingsArg) as Record<string, string>, `sqlite store process ${dataDir}`);
mkdirSync(dataDir, { recursive: true });
const file = path.join(dataDir, 'memory.db');
const sessions = new Set<Session>();

/** One client connection: its own SQLite connection, the collections and histories it opened (by handle). */
class Session {
  private store?: Promise<SqliteStore>;
  private readonly handles = new Map<number, MemoryCollection | ChatHistory>();
  private next = 1;
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

  private db(): Promise<SqliteStore> {
    this.store ??= createSqliteStore({ ...journal, file });
    return this.store;
  }

  private handle$(h: unknown): MemoryCollection | ChatHistory {
    const x = this.handles.get(Number(h));
    if (!x) throw Object.assign(new Error(`unknown handle ${String(h)}`), { code: 'INVALID_INPUT' });
    return x;
  }

  private keepHandle(x: MemoryCollection | ChatHistory): number {
    const h = this.next++;
    this.handles.set(h, x);
    return h;
  }

  private async handle({ op, args }: WireRequest): Promise<unknown> {
    const s = await this.db();
    const col = () => this.handle$(args[0]) as MemoryCollection;
    const hist = () => this.handle$(args[0]) as ChatHistory;
    switch (op) {
      case 'serverInfo':
        return s.serverInfo();
      case 'pragmas': {
        const p = (name: string) => String(s.ctx.db.pragma(name, { simple: true }));
        return { journal_mode: p('journal_mode'), synchronous: ['OFF', 'NORMAL', 'FULL', 'EXTRA'][Number(p('synchronous'))] ?? p('synchronous'), busy_timeout: p('busy_timeout'), file };
      }
      case 'createCollection': {
        const c = await s.createCollection(args[0] as Parameters<SqliteStore['createCollection']>[0]);
        return { handle: this.keepHandle(c), spec: c.spec };
      }
      case 'openCollection': {
        const c = await s.openCollection(String(args[0]));
        return { handle: this.keepHandle(c), spec: c.spec };
      }
      case 'dropCollection':
        return s.dropCollection(String(args[0]));
      case 'upsert':
        return col().upsert((args[1] as WireRecord[]).map(recordFromWire));
      case 'get':
        return (await col().get(args[1] as string[])).map(recordToWire);
      case 'delete':
        return col().delete(args[1] as string[]);
      case 'count':
        return col().count((args[1] ?? undefined) as Parameters<MemoryCollection['count']>[0]); // JSON carries an absent filter as null
      case 'buildIndex':
        return col().buildIndex();
      case 'recall':
        return col().recall(queryFromWire(args[1] as Parameters<typeof queryFromWire>[0]));
      case 'scan':
        return (await col().scan!(args[1] as Parameters<NonNullable<MemoryCollection['scan']>>[0])).map(recordToWire);
      case 'openHistory': {
        const h = await s.openHistory(args[0] as Parameters<SqliteStore['openHistory']>[0]);
        return { handle: this.keepHandle(h), sessionId: h.sessionId, keyPrefix: h.keyPrefix };
      }
      case 'history.append':
        return hist().append(args[1] as Parameters<ChatHistory['append']>[0]);
      case 'history.read':
        return hist().read((args[1] ?? undefined) as Parameters<ChatHistory['read']>[0]);
      case 'history.length':
        return hist().length();
      case 'history.trim':
        return hist().trim(args[1] as Parameters<ChatHistory['trim']>[0]);
      case 'history.clear':
        return hist().clear();
      case 'history.keys':
        return hist().keys();
      case 'history.writeRaw':
        return hist().writeRaw(args[1] as string[]);
      case 'history.readRaw':
        return hist().readRaw();
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
  process.stderr.write(`sqlite store process: ${e.stack ?? e}\n`);
  process.exit(1);
});
server.listen(Number(portArg), host, () => process.stdout.write(`ready ${portArg}\n`));

/** A clean end: every SQLite connection closed (WAL checkpointed by SQLite on the last close), then exit 0. */
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
