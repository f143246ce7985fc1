/**
 * The SQLite store PROCESS (spec `serveStoreProcess`): the process that owns the database file
 * `<dataDir>/memory.db` for the fault checks (C15 kills it with SIGKILL mid-stream and starts it
 * again on the same file; C22 runs one per writer on one file). Every client connection gets its own
 * SQLite connection (`createSqliteStore` on the file, with the configuration's journal settings,
 * settings.ts), so N clients are N SQLite connections, as N threads of an application would hold. A
 * request is answered after its transaction committed. SIGTERM closes every connection (WAL
 * checkpointed by SQLite on the last close). `effective` is the PRAGMAs a connection reports.
 */
import path from 'node:path';
import { serveStoreProcess } from '@memory-matrix/spec';
import { ADAPTER } from '../context';
import { createSqliteStore, type SqliteStore } from '../sqlite-adapter';
import { journalOfSettings } from './settings';

serveStoreProcess<SqliteStore>({
  adapter: ADAPTER,
  configure(dataDir, settings) {
    const journal = journalOfSettings(settings, `sqlite store process ${dataDir}`);
    const file = path.join(dataDir, 'memory.db');
    return {
      open: () => createSqliteStore({ ...journal, file }),
      /** journal_mode, synchronous (by name) and busy_timeout (ms) as this connection reports them (PRAGMA), and the file. */
      effective(s) {
        const p = (name: string) => String(s.ctx.db.pragma(name, { simple: true }));
        return { journal_mode: p('journal_mode'), synchronous: ['OFF', 'NORMAL', 'FULL', 'EXTRA'][Number(p('synchronous'))] ?? p('synchronous'), busy_timeout: p('busy_timeout'), file };
      },
      /** `BEGIN IMMEDIATE` on this connection: the file's RESERVED lock, so other connections' writes wait out their busy_timeout; released by `COMMIT` (nothing was written). */
      holdWriteLock(s) {
        const db = s.ctx.db;
        db.exec('BEGIN IMMEDIATE');
        const release = () => {
          if (db.inTransaction) db.exec('COMMIT');
        };
        return { waitLimitMs: Number(db.pragma('busy_timeout', { simple: true })), release };
      },
    };
  },
});
