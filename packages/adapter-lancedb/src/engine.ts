import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { createLancedbStore, type LancedbStore } from './lancedb-adapter';
import { DEFAULT_INDEX_OPTIONS, type LancedbIndexOptions } from './vector-index';

/**
 * An embedded LanceDB "server" for a run: one temp dir holding the database (one Lance dataset per
 * table). The driver wraps it as the `embedded` start of `lancedb@…` targets.
 * - `connect` opens a NEW store (a new `lancedb.connect`) on the same dir, what another client of
 *   the same local database does;
 * - `stop` closes every store it opened and removes the dir (idempotent).
 */
export interface LancedbEngine {
  /** The temp dir the engine owns. */
  readonly dir: string;
  connect(): Promise<LancedbStore>;
  stop(): Promise<void>;
}

/** Start an engine: a new temp dir `mm-lancedb-…`. `index`: the target's adapterOptions. Throws BACKEND_ERROR when the dir cannot be made. */
export async function lancedbEmbeddedEngine(index: LancedbIndexOptions = DEFAULT_INDEX_OPTIONS): Promise<LancedbEngine> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-lancedb-'));
  const open: LancedbStore[] = [];
  let stopped = false;
  return {
    dir,
    async connect() {
      if (stopped) throw new MemoryMatrixError('BACKEND_ERROR', `lancedb: engine ${dir} is stopped; connect after stop`);
      const store = await createLancedbStore({ dir, index });
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
