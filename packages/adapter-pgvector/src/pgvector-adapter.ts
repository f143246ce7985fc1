import { vectorCapabilities, hasCode, MemoryMatrixError, type Capabilities, type CollectionSpec, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import { ident } from './codec';
import { PgvectorCollection } from './collection';
import { PGVECTOR_FILTER_OPERATORS } from './filter-sql';
import { ADAPTER, StoreContext, sqlState, wrapBackendError } from './context';
import { TABLE_INFO_SQL, commentSql, createTableSql, namesOf, parseMarker, validatePrefix, type CollectionMarker } from './ddl';
import type { SqlClient } from './sql';
import { MAX_BATCH } from './upsert';
import { validateName, validateSpec } from './validate';

/** Options of `createPgvectorStore`. */
export interface PgvectorStoreOptions {
  /** Prefix of every table this store creates or opens, `[a-z_][a-z0-9_]{0,15}`. Default `mm_`. */
  tablePrefix?: string;
  /**
   * Run `CREATE EXTENSION vector` when it is missing (default true). False for databases the run
   * does not own (url targets): a missing extension is then TARGET_UNAVAILABLE, nothing is created.
   */
  createExtension?: boolean;
}

/**
 * Largest dimension of a `vector` column: 16,000 (pgvector README "Vector Type"; `VECTOR_MAX_DIM`
 * in src/vector.h). The adapter stores embeddings as `vector`.
 */
export const PGVECTOR_MAX_DIM = 16_000;

/**
 * Largest dimension an HNSW or IVFFlat index takes on a `vector` column: 2,000 (pgvector README
 * "Indexing" — vector up to 2,000 dimensions, halfvec 4,000; `HNSW_MAX_DIM` in src/hnsw.h,
 * `IVFFLAT_MAX_DIM` in src/ivfflat.h). Measured: PGlite 0.5 (pgvector 0.8.7) refuses an HNSW index
 * on a 2,048-d column with "hnsw indexes support at most 2000 dimensions for type vector".
 */
export const PGVECTOR_MAX_INDEX_DIM = 2_000;

/** What the pgvector adapter can do (the same against every PostgreSQL + pgvector ≥ 0.5). */
export const PGVECTOR_CAPABILITIES: Capabilities = vectorCapabilities({
  metrics: ['cosine', 'ip', 'l2'],
  exactScan: true,
  annIndexes: ['hnsw', 'ivfflat'],
  // Every operator of the filter language, compiled to SQL over jsonb (filter-sql.ts; README "Filters").
  filterOperators: [...PGVECTOR_FILTER_OPERATORS],
  // Nested objects and arrays round-trip exactly through jsonb (README "Nested and array metadata").
  metadataShapes: ['nested', 'array'],
  threshold: true,
  upsert: true,
  // deleteWhere: one statement / call the backend evaluates over the recall filter (collection.ts).
  deleteByFilter: true,
  quantized: false,
  maxBatch: MAX_BATCH,
  maxDim: PGVECTOR_MAX_DIM,
  maxIndexDim: PGVECTOR_MAX_INDEX_DIM,
  timeDecay: true,
  indexIntrospection: true,
  // Every write is one committed transaction before it resolves; any connection's next statement sees it (READ COMMITTED): C27.
  readYourWrites: 'strong',
});

/**
 * Open a pgvector store over `client` (a `fromPgPool` or `fromPGlite` wrapper). Runs
 * `CREATE EXTENSION IF NOT EXISTS vector` when the extension is missing and reads its version.
 * The store owns `client`: `close()` closes it. Throws INVALID_INPUT (bad prefix) or
 * BACKEND_ERROR (the server refused, e.g. the extension is not installed on it).
 */
export async function createPgvectorStore(client: SqlClient, opts: PgvectorStoreOptions = {}): Promise<PgvectorStore> {
  const prefix = validatePrefix(opts.tablePrefix ?? 'mm_');
  let version: string;
  try {
    const has = await client.query(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`);
    if (has.rows.length === 0 && opts.createExtension === false) {
      throw new MemoryMatrixError(
        'TARGET_UNAVAILABLE',
        'pgvector: the vector extension is not installed in this database (memory-matrix does not create it in a database it does not own; run CREATE EXTENSION vector as its owner)',
      );
    }
    if (has.rows.length === 0) await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    version = (await client.query(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`)).rows[0].extversion;
  } catch (err) {
    if (hasCode(err, 'TARGET_UNAVAILABLE')) throw err;
    throw wrapBackendError(err, 'CREATE EXTENSION vector');
  }
  return new PgvectorStore(new StoreContext(client, prefix, versionAtLeast(version, [0, 8, 0])));
}

/** `a.b.c` ≥ `min`, numerically. */
export function versionAtLeast(version: string, min: [number, number, number]): boolean {
  const v = version.split('.').map((p) => parseInt(p, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((v[i] ?? 0) !== min[i]) return (v[i] ?? 0) > min[i]!;
  }
  return true;
}

/** The pgvector `MemoryStore`. Collections are tables `<prefix><name>` (see ddl.ts). */
export class PgvectorStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = PGVECTOR_CAPABILITIES;

  constructor(private readonly ctx: StoreContext) {}

  /** `server`: `SELECT version()`; components: `postgres` (server_version's number), `pgvector` (extversion). */
  async serverInfo(): Promise<ServerInfo> {
    return this.ctx.run('serverInfo', undefined, async () => {
      const { rows } = await this.ctx.client.query(
        `SELECT version() AS server, current_setting('server_version') AS pg,
                (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS ext`,
      );
      const r = rows[0];
      return { server: r.server, components: { postgres: String(r.pg).split(' ')[0]!, pgvector: r.ext } };
    });
  }

  /** Create the table and its marker in one transaction. Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING. */
  async createCollection(spec: CollectionSpec): Promise<PgvectorCollection> {
    validateSpec(spec, this.capabilities.metrics);
    const { table, index } = namesOf(this.ctx.prefix, spec.name);
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    await this.ctx.run('create collection', table, async () => {
      const info = await this.tableInfo(table, index);
      if (info.exists) throw exists(table, info.marker !== null);
      try {
        await this.ctx.client.transaction(async (tx) => {
          await tx.query(createTableSql(table, spec.dim));
          await tx.query(commentSql(table, stored));
        });
      } catch (err) {
        if (sqlState(err) === '42P07') throw exists(table, true); // created concurrently by another client
        throw err;
      }
    });
    return new PgvectorCollection(this.ctx, stored, table, index, false);
  }

  /**
   * Reopen a collection from its marker (metric, dim, index config, model id — never a default).
   * Cross-checks the column's declared dimension and the ANN index's operator class against it.
   * Throws COLLECTION_MISSING (no table, or a table this adapter did not create), BACKEND_ERROR.
   */
  async openCollection(name: string): Promise<PgvectorCollection> {
    validateName(name);
    const { table, index } = namesOf(this.ctx.prefix, name);
    const info = await this.ctx.run('open collection', table, () => this.tableInfo(table, index));
    if (!info.exists) throw new MemoryMatrixError('COLLECTION_MISSING', `pgvector: collection ${name}: table ${table} does not exist`);
    const m = info.marker;
    if (m === null) {
      throw new MemoryMatrixError('COLLECTION_MISSING', `pgvector: collection ${name}: table ${table} exists but carries no memory-matrix marker; not opened`);
    }
    const bad = (what: string) => new MemoryMatrixError('BACKEND_ERROR', `pgvector: collection ${name}: table ${table}: ${what}`);
    if (m.name !== name) throw bad(`marker names collection ${m.name}`);
    if (info.dim !== m.dim) throw bad(`column embedding is vector(${info.dim}) but the marker says dim ${m.dim}`);
    const opclass = { cosine: 'vector_cosine_ops', ip: 'vector_ip_ops', l2: 'vector_l2_ops' }[m.metric];
    if (info.indexOpclass !== null && info.indexOpclass !== opclass) {
      throw bad(`index ${index} uses ${info.indexOpclass} but the marker says metric ${m.metric} (${opclass})`);
    }
    if (info.indexAm !== null && info.indexAm !== m.index.type) throw bad(`index ${index} is ${info.indexAm} but the marker says ${m.index.type}`);
    const spec: CollectionSpec = { name, dim: m.dim, metric: m.metric, index: m.index };
    if (m.embeddingModel !== undefined) spec.embeddingModel = m.embeddingModel;
    return new PgvectorCollection(this.ctx, spec, table, index, info.indexAm !== null);
  }

  /** Drop a collection's table (and its index). Missing is not an error; a table without our marker is refused (INVALID_INPUT). */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const { table, index } = namesOf(this.ctx.prefix, name);
    await this.ctx.run('drop collection', table, async () => {
      const info = await this.tableInfo(table, index);
      if (!info.exists) return;
      if (info.marker === null) {
        throw new MemoryMatrixError('INVALID_INPUT', `pgvector: refusing to drop table ${table}: it carries no memory-matrix marker, so this adapter did not create it`);
      }
      await this.ctx.client.query(`DROP TABLE ${ident(table)}`);
    });
  }

  /** Close the SQL client (idempotent). Later calls on this store or its collections throw BACKEND_ERROR. */
  async close(): Promise<void> {
    if (this.ctx.closed) return;
    this.ctx.closed = true;
    await this.ctx.client.close();
  }

  private async tableInfo(
    table: string,
    index: string,
  ): Promise<{
    exists: boolean;
    marker: CollectionMarker | null;
    dim: number | null;
    indexAm: string | null;
    indexOpclass: string | null;
  }> {
    const r = (await this.ctx.client.query(TABLE_INFO_SQL, [table, index])).rows[0];
    return {
      exists: r.exists === true,
      marker: r.exists ? parseMarker(r.comment ?? null, table) : null,
      dim: r.dim === null || r.dim === undefined ? null : Number(r.dim),
      indexAm: r.index_am ?? null,
      indexOpclass: r.index_opclass ?? null,
    };
  }
}

function exists(table: string, ours: boolean): MemoryMatrixError {
  return new MemoryMatrixError('COLLECTION_EXISTS', ours ? `pgvector: table ${table} already exists` : `pgvector: table ${table} already exists and was not created by memory-matrix; not touched`);
}
