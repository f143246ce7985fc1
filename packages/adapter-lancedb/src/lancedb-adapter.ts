import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { closeLocalStore, MemoryMatrixError, ownedTempDir, removeOwnedDir, vectorCapabilities } from '@memory-matrix/spec';
import type { Capabilities, ChatHistory, CollectionSpec, HistoryOptions, MemoryStore, ProcessRecipe, ProcessReopenable, ServerInfo } from '@memory-matrix/spec';
import { MARKER_KEY, tableSchema } from './codec';
import { LancedbCollection } from './collection';
import { ADAPTER, StoreContext, wrapBackendError } from './context';
import { installedVersion } from './driver-versions';
import { LANCEDB_FILTER_OPERATORS } from './filter-sql';
import { LancedbChatHistory } from './history';
import { markerOf, parseMarker, tableOf, type CollectionMarker } from './marker';
import { LANCEDB_METRICS } from './scores';
import { DEFAULT_INDEX_OPTIONS, type LancedbIndexOptions } from './vector-index';
import { validateName, validateSpec } from './validate';

/** Options of `createLancedbStore`. */
export interface LancedbStoreOptions {
  /**
   * The database directory to open (another connection to a store the caller or an engine owns;
   * never removed by this store). Absent: the store makes its own temp dir and removes it on
   * `close()`.
   */
  dir?: string;
  /** Index options (the target's `adapterOptions`); default `DEFAULT_INDEX_OPTIONS`. */
  index?: LancedbIndexOptions;
}

/** What the LanceDB adapter can do (embedded LanceDB 0.37, local directory). */
export const LANCEDB_CAPABILITIES: Capabilities = vectorCapabilities({
  // readConsistencyInterval 0 on every connection: an acknowledged write is seen by the next read of any connection (C27).
  readYourWrites: 'strong',
  metrics: LANCEDB_METRICS,
  exactScan: true,
  annIndexes: ['hnsw', 'ivfflat'],
  // Compiled to a LanceDB where (filter-sql.ts; README "Filters"): every operator but $contains (flat metadata, no arrays).
  filterOperators: [...LANCEDB_FILTER_OPERATORS],
  threshold: true,
  upsert: true,
  // deleteWhere: one statement / call the backend evaluates over the recall filter (collection.ts).
  deleteByFilter: true,
  quantized: false,
  history: true,
  historyWindow: true,
  ttl: false,
  timeDecay: true,
  snapshots: true,
  indexIntrospection: true,
});

/**
 * Open a LanceDB store: one `lancedb.connect(dir, { readConsistencyInterval: 0 })` (every read
 * checks for the latest table version, so another connection's acknowledged write is seen by the
 * next read) on `opts.dir`, or on a new temp dir the store owns (removed on `close()`).
 * Throws BACKEND_ERROR.
 */
export async function createLancedbStore(opts: LancedbStoreOptions = {}): Promise<LancedbStore> {
  const ownedDir = ownedTempDir('lancedb', opts.dir);
  const dir = path.resolve(opts.dir ?? ownedDir!);
  try {
    const db = await lancedb.connect(dir, { readConsistencyInterval: 0 });
    return new LancedbStore(new StoreContext(db, dir), ownedDir, opts.index ?? DEFAULT_INDEX_OPTIONS);
  } catch (err) {
    removeOwnedDir(ownedDir);
    throw wrapBackendError(err, `connect ${dir}`);
  }
}

/** The LanceDB `MemoryStore`: a collection is a table `mm_<name>` whose schema metadata holds the marker (marker.ts); chat history and snapshots are the tables of history.ts. */
export class LancedbStore implements MemoryStore, ProcessReopenable {
  readonly adapter = ADAPTER;
  readonly capabilities = LANCEDB_CAPABILITIES;

  constructor(
    readonly ctx: StoreContext,
    private readonly ownedDir: string | undefined,
    private readonly indexOptions: LancedbIndexOptions,
  ) {}

  /**
   * How another OS process opens this store's directory (spec snapshots.ts `ProcessRecipe`, C26):
   * `createLancedbStore({ dir })` of this package. A store that owns a temp dir has none to share
   * safely (it removes it on close), but its directory is still given: the child never closes it.
   */
  processRecipe(): ProcessRecipe {
    return { module: path.join(__dirname, `index${path.extname(__filename)}`), exportName: 'createLancedbStore', options: { dir: this.ctx.dir, index: this.indexOptions } };
  }

  /** Chat history of one session (history.ts). Throws INVALID_INPUT, CAPABILITY_MISSING (a TTL: Lance rows do not expire). */
  async openHistory(opts: HistoryOptions): Promise<ChatHistory> {
    return new LancedbChatHistory(this.ctx, opts);
  }

  /** The database directory of this store. */
  get dir(): string {
    return this.ctx.dir;
  }

  /**
   * LanceDB has no version query: `server` is `LanceDB <version> (embedded)` and the components
   * the versions of the loaded packages (`@lancedb/lancedb`, its native binary, apache-arrow).
   */
  async serverInfo(): Promise<ServerInfo> {
    const v = installedVersion('@lancedb/lancedb', ADAPTER);
    return {
      server: `LanceDB ${v} (embedded)`,
      components: { lancedb: v, 'lancedb-native': installedVersion('@lancedb/lancedb-linux-x64-gnu', ADAPTER), 'apache-arrow': installedVersion('apache-arrow', ADAPTER) },
    };
  }

  /** Create the table (empty, with the marker in its schema metadata; mode `create`). Throws COLLECTION_EXISTS, INVALID_INPUT, BACKEND_ERROR. */
  async createCollection(spec: CollectionSpec): Promise<LancedbCollection> {
    validateSpec(spec);
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    const table = tableOf(spec.name);
    const tbl = await this.ctx.run('create collection', table, async () => {
      if ((await this.ctx.db.tableNames()).includes(table)) {
        const ours = await this.markerOf(table, spec.name).catch(() => undefined);
        throw new MemoryMatrixError(
          'COLLECTION_EXISTS',
          `${ADAPTER}: collection ${spec.name}: table ${table} already exists in ${this.ctx.dir}${ours ? '' : ' and was not created by memory-matrix; not touched'}`,
        );
      }
      try {
        return await this.ctx.db.createEmptyTable(table, tableSchema(spec.dim, markerOf(stored)), { mode: 'create' });
      } catch (err) {
        if (/already exists/i.test((err as Error)?.message ?? ''))
          throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: collection ${spec.name}: table ${table} already exists in ${this.ctx.dir}`, { cause: err });
        throw err;
      }
    });
    return new LancedbCollection(this.ctx, stored, table, tbl, this.indexOptions);
  }

  /** Reopen a collection from its table's marker (metric, dim, index, model id — never a default). Throws COLLECTION_MISSING, BACKEND_ERROR. */
  async openCollection(name: string): Promise<LancedbCollection> {
    validateName(name);
    const table = tableOf(name);
    return this.ctx.run('open collection', table, async () => {
      if (!(await this.ctx.db.tableNames()).includes(table)) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name}: no table ${table} in ${this.ctx.dir}`);
      const tbl = await this.ctx.db.openTable(table);
      const m = parseMarker((await tbl.schema()).metadata.get(MARKER_KEY), name);
      if (!m) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name}: table ${table} has no memory-matrix marker; not opened`);
      const spec: CollectionSpec = { name, dim: m.dim, metric: m.metric, index: m.index };
      if (m.embeddingModel !== undefined) spec.embeddingModel = m.embeddingModel;
      return new LancedbCollection(this.ctx, spec, table, tbl, this.indexOptions);
    });
  }

  /** Drop a collection's table. Missing is not an error; a table without our marker is not dropped. */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const table = tableOf(name);
    await this.ctx.run('drop collection', table, async () => {
      if (!(await this.ctx.db.tableNames()).includes(table)) return;
      if (!(await this.markerOf(table, name))) return;
      await this.ctx.db.dropTable(table);
    });
  }

  /** Close the connection (idempotent); a store that made its own temp dir removes it. */
  async close(): Promise<void> {
    closeLocalStore(this.ctx, () => this.ctx.db.close(), this.ownedDir);
  }

  private async markerOf(table: string, name: string): Promise<CollectionMarker | undefined> {
    const tbl = await this.ctx.db.openTable(table);
    try {
      return parseMarker((await tbl.schema()).metadata.get(MARKER_KEY), name);
    } finally {
      tbl.close();
    }
  }
}
