import path from 'node:path';
import { tempDirEngine, type TempDirEngine } from '@memory-matrix/spec';
import type { JournalConfig } from './connection';
import { createSqliteStore, type SqliteStore } from './sqlite-adapter';

/**
 * An embedded SQLite "server" for a run (spec kit `tempDirEngine`): one temp dir holding one
 * database file, created by the first `connect`; each `connect` opens a NEW store on that file with
 * a new connection (what another client, or another process, of the same local store does). The
 * driver of the backends registry wraps it as the `embedded` start of `sqlite@…` targets.
 */
export interface SqliteEngine extends TempDirEngine<SqliteStore> {
  /** The database file every connection opens. */
  readonly file: string;
  /** The journal configuration every connection applies. */
  readonly journal: JournalConfig;
}

/** Start an engine: a new temp dir `mm-sqlite-…` with `memory.db` to be. Throws the fs error when the dir cannot be made. */
export async function sqliteEmbeddedEngine(journal: JournalConfig = {}): Promise<SqliteEngine> {
  const engine = tempDirEngine('sqlite', (dir) => createSqliteStore({ ...journal, file: path.join(dir, 'memory.db') }));
  return { ...engine, file: path.join(engine.dir, 'memory.db'), journal };
}
