import path from 'node:path';
import { closeLocalStore, MemoryMatrixError, ownedTempDir, removeOwnedDir, vectorCapabilities } from '@memory-matrix/spec';
import type { Capabilities, ChatHistory, CollectionSpec, HistoryOptions, MemoryStore, ProcessRecipe, ProcessReopenable, ServerInfo } from '@memory-matrix/spec';
import { MAX_BATCH, SqliteCollection } from './collection';
import { openConnection, type JournalConfig } from './connection';
import { ADAPTER, StoreContext } from './context';
import { createCollectionSql, ident, MARKER_TABLE, MARKER_TABLE_SQL, markerOf, namesOf, parseMarker } from './ddl';
import { SqliteChatHistory, HISTORY_TABLES_SQL } from './history';
import { SQLITE_METRICS } from './scores';
import { SQLITE_FILTER_OPERATORS } from './where-sql';
import { validateName, validateSpec } from './validate';

/** Options of `createSqliteStore`. */
export interface SqliteStoreOptions extends JournalConfig {
  /**
   * The database file to open (another connection to a store the caller or an engine owns; never
   * removed by this store). Absent: the store makes its own temp dir with one file `memory.db`
   * and removes the dir on `close()`.
   */
  file?: string;
}

/**
 * Largest dimension of a vec0 `float[N]` column: 8,192 (sqlite-vec.c `SQLITE_VEC_VEC0_MAX_DIMENSIONS`,
 * enforced at CREATE VIRTUAL TABLE; measured with sqlite-vec 0.1.9: float[8192] is created, float[8193] refused
 * with "Dimension on vector column too large, provided 8193, maximum 8192"). vec0 has no ANN index
 * (its KNN is exhaustive): no `maxIndexDim`.
 */
export const SQLITE_VEC_MAX_DIM = 8_192;

/** What the SQLite adapter can do (better-sqlite3 + sqlite-vec 0.1.x `vec0`). */
export const SQLITE_CAPABILITIES: Capabilities = vectorCapabilities({
  metrics: SQLITE_METRICS,
  exactScan: true,
  annIndexes: [],
  // The whole filter language, compiled to SQL over the JSON metadata (where-sql.ts).
  filterOperators: [...SQLITE_FILTER_OPERATORS],
  // Nested objects and arrays round-trip exactly through the JSON text column (README "Nested and array metadata").
  metadataShapes: ['nested', 'array'],
  threshold: true,
  upsert: true,
  // deleteWhere: one statement / call the backend evaluates over the recall filter (collection.ts).
  deleteByFilter: true,
  quantized: false,
  maxBatch: MAX_BATCH,
  maxDim: SQLITE_VEC_MAX_DIM,
  history: true,
  historyWindow: true,
  ttl: false,
  timeDecay: true,
  snapshots: true,
  // Each write is a committed transaction before it resolves; every connection's next statement starts a new read transaction: C27.
  readYourWrites: 'strong',
});

/**
 * Open a SQLite store: one better-sqlite3 connection with sqlite-vec loaded (connection.ts) on
 * `opts.file`, or on a new file in a temp dir the store owns (removed on `close()`). Creates the
 * marker and history tables when missing. Throws INVALID_INPUT (bad option), BACKEND_ERROR.
 */
export async function createSqliteStore(opts: SqliteStoreOptions = {}): Promise<SqliteStore> {
  const ownedDir = ownedTempDir('sqlite', opts.file);
  const file = path.resolve(opts.file ?? path.join(ownedDir!, 'memory.db'));
  try {
    const db = openConnection(file, opts);
    const ctx = new StoreContext(db, file);
    await ctx.run('create schema', MARKER_TABLE, () => {
      db.transaction(() => {
        db.exec(MARKER_TABLE_SQL);
        for (const s of HISTORY_TABLES_SQL) db.exec(s);
      }).immediate();
    });
    const { journalMode, synchronous, busyTimeoutMs } = opts;
    return new SqliteStore(ctx, ownedDir, { journalMode, synchronous, busyTimeoutMs });
  } catch (err) {
    removeOwnedDir(ownedDir);
    throw err;
  }
}

/** The SQLite `MemoryStore`: collections are table pairs (ddl.ts), chat history rows (history.ts). */
export class SqliteStore implements MemoryStore, ProcessReopenable {
  readonly adapter = ADAPTER;
  readonly capabilities = SQLITE_CAPABILITIES;

  constructor(
    readonly ctx: StoreContext,
    private readonly ownedDir: string | undefined,
    private readonly journal: JournalConfig = {},
  ) {}

  /**
   * How another OS process opens this store's file (spec snapshots.ts `ProcessRecipe`, C26):
   * `createSqliteStore({ file, journalMode, synchronous, busyTimeoutMs })` of this package.
   */
  processRecipe(): ProcessRecipe {
    return { module: path.join(__dirname, `index${path.extname(__filename)}`), exportName: 'createSqliteStore', options: { file: this.ctx.file, ...this.journal } };
  }

  /** The database file of this store. */
  get file(): string {
    return this.ctx.file;
  }

  /** `server`: `SQLite <sqlite_version()>`; components `sqlite` and `sqlite-vec` (`vec_version()`, without its `v`). */
  serverInfo(): Promise<ServerInfo> {
    return this.ctx.run('serverInfo', undefined, () => {
      const r = this.ctx.db.prepare('SELECT sqlite_version() AS s, vec_version() AS v').get() as { s: string; v: string };
      return { server: `SQLite ${r.s}`, components: { sqlite: r.s, 'sqlite-vec': r.v.replace(/^v/, '') } };
    });
  }

  /** Create both tables and the marker row in one transaction. Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING, BACKEND_ERROR. */
  async createCollection(spec: CollectionSpec): Promise<SqliteCollection> {
    validateSpec(spec);
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    const { table } = namesOf(spec.name);
    const statements = createCollectionSql(stored);
    await this.ctx.run('create collection', table, () => {
      const db = this.ctx.db;
      db.transaction(() => {
        const taken = db.prepare(`SELECT name FROM sqlite_schema WHERE name IN (?, ?)`).all(table, namesOf(spec.name).vec) as unknown[];
        const marked = db.prepare(`SELECT 1 FROM ${MARKER_TABLE} WHERE name = ?`).get(spec.name);
        if (marked || taken.length) {
          throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: collection ${spec.name}: table ${table} already exists${marked ? '' : ' and was not created by memory-matrix; not touched'}`);
        }
        for (const s of statements) db.exec(s);
        db.prepare(`INSERT INTO ${MARKER_TABLE} (name, spec) VALUES (?, ?)`).run(spec.name, markerOf(stored));
      }).immediate();
    });
    return new SqliteCollection(this.ctx, stored);
  }

  /** Reopen a collection from its marker row (metric, dim, model id — never a default). Throws COLLECTION_MISSING, BACKEND_ERROR. */
  async openCollection(name: string): Promise<SqliteCollection> {
    validateName(name);
    const { table } = namesOf(name);
    const row = await this.ctx.run('open collection', table, () => this.ctx.db.prepare(`SELECT spec FROM ${MARKER_TABLE} WHERE name = ?`).get(name) as { spec: string } | undefined);
    if (!row) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name}: no marker row in ${MARKER_TABLE} of ${this.ctx.file}`);
    const m = parseMarker(row.spec, name);
    const spec: CollectionSpec = { name, dim: m.dim, metric: m.metric, index: m.index };
    if (m.embeddingModel !== undefined) spec.embeddingModel = m.embeddingModel;
    return new SqliteCollection(this.ctx, spec);
  }

  /** Drop a collection's tables and marker row (one transaction). Missing is not an error; only marked collections are dropped. */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const { table, vec } = namesOf(name);
    await this.ctx.run('drop collection', table, () => {
      const db = this.ctx.db;
      db.transaction(() => {
        if (!db.prepare(`SELECT 1 FROM ${MARKER_TABLE} WHERE name = ?`).get(name)) return;
        db.exec(`DROP TABLE IF EXISTS ${ident(vec)}`);
        db.exec(`DROP TABLE IF EXISTS ${ident(table)}`);
        db.prepare(`DELETE FROM ${MARKER_TABLE} WHERE name = ?`).run(name);
      }).immediate();
    });
  }

  /** Chat history of one session (history.ts). Throws INVALID_INPUT, CAPABILITY_MISSING (a TTL: SQLite rows do not expire). */
  async openHistory(opts: HistoryOptions): Promise<ChatHistory> {
    return new SqliteChatHistory(this.ctx, opts);
  }

  /** Close the connection (idempotent); a store that made its own temp dir removes it. */
  async close(): Promise<void> {
    closeLocalStore(this.ctx, () => this.ctx.db.close(), this.ownedDir);
  }
}
