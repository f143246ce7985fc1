import path from 'node:path';
import Database from 'libsql';
import {
  checkStoredText,
  closeLocalStore,
  MemoryMatrixError,
  ownedTempDir,
  removeOwnedDir,
  vectorCapabilities,
  type Capabilities,
  type CollectionSpec,
  type MemoryStore,
  type ServerInfo,
} from '@memory-matrix/spec';
import { LibsqlCollection, MAX_BATCH } from './collection';
import { ADAPTER, LibsqlContext } from './context';
import { installedLibsqlVersion } from './versions';
import { createTableSql, diskannOf, ident, LIBSQL_MAX_DIM, MARKER_TABLE, MARKER_TABLE_SQL, markerOf, namesOf, specOfMarker } from './schema';
import { LIBSQL_METRICS } from './scores';

/**
 * What the libSQL adapter can do (libsql 0.5.29, embedded). Lacks, and so declares false: inner
 * product (no such distance or index metric), chat history, TTL, time decay, snapshots (not
 * written for this proof; SQLite could hold them — issue 33 "later"), quantized storage (F8 /
 * F1BIT columns exist but the adapter stores F32_BLOB), index introspection.
 */
export const LIBSQL_CAPABILITIES: Capabilities = vectorCapabilities({
  metrics: LIBSQL_METRICS,
  exactScan: true,
  annIndexes: ['diskann'],
  threshold: true,
  upsert: true,
  quantized: false,
  maxBatch: MAX_BATCH,
  // MAX_VECTOR_SZ 65536 (libsql-sqlite3/src/vectorInt.h); the DiskANN index takes the same column: no narrower maxIndexDim known.
  maxDim: LIBSQL_MAX_DIM,
  history: false,
  ttl: false,
  timeDecay: false,
  snapshots: false,
  // Each write is a committed transaction before it resolves; a connection's next statement reads the committed file: C27.
  readYourWrites: 'strong',
});

const NAME = /^[a-z0-9_]{1,48}$/;

/** Collection name `[a-z0-9_]{1,48}` (spec `CollectionSpec.name`); INVALID_INPUT otherwise. */
function validateName(name: unknown): string {
  if (typeof name !== 'string' || !NAME.test(name)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
  return name;
}

/** A spec libSQL can hold: name, dim 1..65536, cosine or l2 (ip: CAPABILITY_MISSING), index none or diskann. */
function validateSpec(spec: CollectionSpec): void {
  const where = `collection ${validateName(spec?.name)}`;
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > LIBSQL_MAX_DIM)
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: dim must be an integer in 1..${LIBSQL_MAX_DIM}, got ${spec.dim}`);
  if (spec.metric === 'ip') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: no inner-product distance (libSQL offers cosine and l2)`);
  if (!LIBSQL_METRICS.includes(spec.metric)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: metric must be one of ${LIBSQL_METRICS.join(', ')}, got ${String(spec.metric)}`);
  if (spec.embeddingModel !== undefined) checkStoredText(spec.embeddingModel, `${where}: embeddingModel`, { adapter: ADAPTER });
  diskannOf(spec);
}

/**
 * Open a libSQL store on `file` (created if missing; WAL, busy timeout 5 s), or on a new file in a
 * temp dir the store owns and removes on `close()`. Creates the marker table. Throws BACKEND_ERROR.
 */
export async function createLibsqlStore(opts: { file?: string } = {}): Promise<LibsqlStore> {
  const ownedDir = ownedTempDir('libsql', opts.file);
  const file = path.resolve(opts.file ?? path.join(ownedDir!, 'memory.db'));
  let db: LibsqlContext['db'] | undefined;
  try {
    db = new Database(file, { timeout: 5000 });
    const ctx = new LibsqlContext(db, file);
    await ctx.run('open', undefined, () => {
      db!.exec('PRAGMA journal_mode = WAL');
      db!.exec('PRAGMA busy_timeout = 5000');
      db!.exec(MARKER_TABLE_SQL);
    });
    return new LibsqlStore(ctx, ownedDir);
  } catch (err) {
    db?.close();
    removeOwnedDir(ownedDir);
    throw err instanceof MemoryMatrixError ? err : new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: open ${file} failed: ${(err as Error).message}`, { cause: err });
  }
}

/** The libSQL `MemoryStore`: a collection is one table + its DiskANN index (schema.ts). */
export class LibsqlStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = LIBSQL_CAPABILITIES;

  constructor(
    readonly ctx: LibsqlContext,
    private readonly ownedDir: string | undefined,
  ) {}

  /** `server`: `libSQL <sqlite_version()>`; components `sqlite` (`sqlite_version()`) and `libsql` (the npm package's installed version). */
  serverInfo(): Promise<ServerInfo> {
    return this.ctx.run('serverInfo', undefined, () => {
      const r = this.ctx.db.prepare('SELECT sqlite_version() AS s').get([]) as { s: string };
      return { server: `libSQL (SQLite ${r.s})`, components: { sqlite: r.s, libsql: installedLibsqlVersion(`${ADAPTER}: serverInfo`) } };
    });
  }

  /** The table (and marker row) in one transaction; the DiskANN index is made by `buildIndex`. Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING, BACKEND_ERROR. */
  async createCollection(spec: CollectionSpec): Promise<LibsqlCollection> {
    validateSpec(spec);
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    const { table } = namesOf(spec.name);
    await this.ctx.run('create collection', table, () => {
      const db = this.ctx.db;
      db.transaction(() => {
        const marked = db.prepare(`SELECT 1 AS x FROM ${MARKER_TABLE} WHERE name = ?`).get([spec.name]);
        const taken = db.prepare(`SELECT 1 AS x FROM sqlite_schema WHERE name = ?`).get([table]);
        if (marked || taken) {
          throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: collection ${spec.name}: table ${table} already exists${marked ? '' : ' and was not created by memory-matrix; not touched'}`);
        }
        db.exec(createTableSql(stored));
        db.prepare(`INSERT INTO ${MARKER_TABLE} (name, spec) VALUES (?, ?)`).run([spec.name, markerOf(stored)]);
      }).immediate();
    });
    return new LibsqlCollection(this.ctx, stored);
  }

  /** Reopen from the marker row (metric, dim, index — never a default). Throws COLLECTION_MISSING, BACKEND_ERROR. */
  async openCollection(name: string): Promise<LibsqlCollection> {
    validateName(name);
    const { table } = namesOf(name);
    const row = await this.ctx.run('open collection', table, () => this.ctx.db.prepare(`SELECT spec FROM ${MARKER_TABLE} WHERE name = ?`).get([name]) as { spec: string } | undefined);
    if (!row) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name}: no marker row in ${MARKER_TABLE} of ${this.ctx.file}`);
    return new LibsqlCollection(this.ctx, specOfMarker(row.spec, name));
  }

  /** Drop a marked collection's table (its index with it) and marker row; missing is not an error. */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const { table } = namesOf(name);
    await this.ctx.run('drop collection', table, () => {
      const db = this.ctx.db;
      db.transaction(() => {
        if (!db.prepare(`SELECT 1 AS x FROM ${MARKER_TABLE} WHERE name = ?`).get([name])) return;
        db.exec(`DROP TABLE IF EXISTS ${ident(table)}`);
        db.prepare(`DELETE FROM ${MARKER_TABLE} WHERE name = ?`).run([name]);
      }).immediate();
    });
  }

  /** Close the connection (idempotent); a store that made its own temp dir removes it. */
  async close(): Promise<void> {
    closeLocalStore(this.ctx, () => this.ctx.db.close(), this.ownedDir);
  }
}
