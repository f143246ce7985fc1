import { tempDirEngine, type TempDirEngine } from '@memory-matrix/spec';
import { createLancedbStore, type LancedbStore } from './lancedb-adapter';
import { DEFAULT_INDEX_OPTIONS, type LancedbIndexOptions } from './vector-index';

/**
 * An embedded LanceDB "server" for a run (spec kit `tempDirEngine`): one temp dir holding the
 * database (one Lance dataset per table); each `connect` opens a NEW store (a new
 * `lancedb.connect`) on it, what another client of the same local database does. The driver wraps
 * it as the `embedded` start of `lancedb@…` targets.
 */
export type LancedbEngine = TempDirEngine<LancedbStore>;

/** Start an engine: a new temp dir `mm-lancedb-…`. `index`: the target's adapterOptions. Throws the fs error when the dir cannot be made. */
export async function lancedbEmbeddedEngine(index: LancedbIndexOptions = DEFAULT_INDEX_OPTIONS): Promise<LancedbEngine> {
  return tempDirEngine('lancedb', (dir) => createLancedbStore({ dir, index }));
}
