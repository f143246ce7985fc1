import { MemoryMatrixError } from '@memory-matrix/spec';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JournalConfig } from './connection';
import { createSqliteStore, type SqliteStore } from './sqlite-adapter';

/**
 * An embedded SQLite "server" for a run: one temp dir holding one database file. The driver of
 * the backends registry wraps it as the `embedded` start of `sqlite@…` targets.
 * - `start` (`sqliteEmbeddedEngine`) makes the dir; the file is created by the first `connect`;
 * - `connect` opens a NEW store on the same file with a new connection (what another client,
 *   or another process, of the same local store does);
 * - `stop` closes every store it opened and removes the dir (idempotent).
 */
export interface SqliteEngine {
  /** The temp dir the engine owns. */
  readonly dir: string;
  /** The database file every connection opens. */
  readonly file: string;
  /** The journal configuration every connection applies. */
  readonly journal: JournalConfig;
  connect(): Promise<SqliteStore>;
  stop(): Promise<void>;
}

/** Start an engine: a new temp dir `mm-sqlite-…` with `memory.db` to be. Throws BACKEND_ERROR when the dir cannot be made. */
export async function sqliteEmbeddedEngine(journal: JournalConfig = {}): Promise<SqliteEngine> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-sqlite-'));
  const file = path.join(dir, 'memory.db');
  const open: SqliteStore[] = [];
  let stopped = false;
  return {
    dir,
    file,
    journal,
    async connect() {
      if (stopped) throw new MemoryMatrixError('BACKEND_ERROR', `sqlite: engine ${dir} is stopped; connect after stop`);
      const store = await createSqliteStore({ ...journal, file });
      open.push(store);
      return store;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const errors: unknown[] = [];
      for (const s of open) await s.close().catch((e: unknown) => errors.push(e));
      rmSync(dir, { recursive: true, force: true });
      if (errors.length) throw errors[0];
    },
  };
}
