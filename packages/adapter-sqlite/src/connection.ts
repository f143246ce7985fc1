import BetterSqlite3, { type Database } from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { ADAPTER, wrapBackendError } from './context';

/** Journal configurations users choose (C15 runs each): `journal_mode` + `synchronous`. */
export interface JournalConfig {
  /** `PRAGMA journal_mode`: `WAL` (default) or the rollback journal `DELETE`. */
  journalMode?: 'WAL' | 'DELETE';
  /** `PRAGMA synchronous`: `NORMAL` (default) or `FULL`. */
  synchronous?: 'NORMAL' | 'FULL';
  /** `PRAGMA busy_timeout`, ms: how long a writer waits for another connection's lock before SQLITE_BUSY. Default 5000. */
  busyTimeoutMs?: number;
}

/**
 * Open one better-sqlite3 connection on `file` (created if missing), load sqlite-vec's `vec0`
 * extension (`sqlite-vec` package: the loadable library of the platform package, e.g.
 * `sqlite-vec-linux-x64`), and apply the journal configuration. Throws BACKEND_ERROR (the file
 * cannot be opened, the extension does not load, a pragma is refused), INVALID_INPUT (bad option).
 */
export function openConnection(file: string, cfg: JournalConfig = {}): Database {
  const journal = cfg.journalMode ?? 'WAL';
  const sync = cfg.synchronous ?? 'NORMAL';
  const busy = cfg.busyTimeoutMs ?? 5000;
  if (journal !== 'WAL' && journal !== 'DELETE') throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: journalMode must be WAL or DELETE, got ${JSON.stringify(journal)}`);
  if (sync !== 'NORMAL' && sync !== 'FULL') throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: synchronous must be NORMAL or FULL, got ${JSON.stringify(sync)}`);
  if (!Number.isInteger(busy) || busy < 0) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: busyTimeoutMs must be an integer ≥ 0, got ${busy}`);
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(file, { timeout: busy });
    sqliteVec.load(db);
    db.pragma(`busy_timeout = ${busy}`);
    const mode = String(db.pragma(`journal_mode = ${journal}`, { simple: true })).toUpperCase();
    if (mode !== journal) throw new Error(`journal_mode ${journal} was not applied (SQLite reports ${mode})`);
    db.pragma(`synchronous = ${sync}`);
    return db;
  } catch (err) {
    db?.close();
    throw wrapBackendError(err, `open ${file}`);
  }
}
