import { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import { ident, PGVECTOR_MAX_DIM, PGVECTOR_MAX_INDEX_DIM } from '@memory-matrix/adapter-pgvector';
import { LANGCHAIN_PGVECTOR_FILTER_OPERATORS } from './filter-compile';
import { vectorCapabilities, isHnsw, MemoryMatrixError, type Capabilities, type CollectionSpec, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import type { Pool } from 'pg';
import { LangchainPgvectorCollection } from './collection';
import { PrecomputedEmbeddings } from './embeddings';
import { ADAPTER, invalid, viaClient } from './errors';
import { markerSql, parseMarker, TABLE_INFO_SQL, tableOf, type ClientMarker } from './marker';
import { DISTANCE_STRATEGY } from './scores';

/** Rows per INSERT of `addVectors`: PGVectorStore's `chunkSize` default (PGVectorStoreArgs, "@default 500"). */
export const CLIENT_CHUNK_SIZE = 500;

/** pgvector's default `hnsw.ef_search` (pgvector README, "Query Options"): what the client's searches run with, since it sets none. */
export const SERVER_DEFAULT_EF_SEARCH = 40;

/** What LangChain.js's PGVectorStore can do over a PostgreSQL + pgvector server (README.md says why each flag is what it is). */
export const LANGCHAIN_PGVECTOR_CAPABILITIES: Capabilities = vectorCapabilities({
  metrics: ['cosine', 'ip', 'l2'],
  // No per-query planner setting: a table with an HNSW index is searched however the planner chooses.
  exactScan: false,
  annIndexes: ['hnsw'],
  // What PGVectorStore's filter object pushes into SQL (filter-compile.ts; README "Filters").
  filterOperators: [...LANGCHAIN_PGVECTOR_FILTER_OPERATORS],
  threshold: true,
  // addVectors is a plain INSERT: an id already stored is a duplicate-key error (measured; README).
  upsert: false,
  quantized: false,
  maxBatch: CLIENT_CHUNK_SIZE,
  // The client's table stores `embedding vector(dim)` and the adapter indexes it with pgvector's HNSW: pgvector's limits.
  maxDim: PGVECTOR_MAX_DIM,
  maxIndexDim: PGVECTOR_MAX_INDEX_DIM,
  timeDecay: false,
  // C28 reads the plan of the client's own search statement (collection.ts indexInEffect).
  indexIntrospection: true,
  // Every statement of the client is an autocommitted pool.query, committed before it resolves.
  readYourWrites: 'strong',
});

const NAME = /^[a-z0-9_]{1,48}$/;
/** pgvector's largest `vector` dimension, and the largest an HNSW index takes (pgvector README, "Vector Type" / "HNSW"). */
const MAX_DIM = 16000;
const MAX_INDEXED_DIM = 2000;

/**
 * A LangChain.js PGVectorStore client over `pool` (a node-postgres Pool on the server's URL; the
 * store owns it and ends it at `close()`). Each collection handle is one `PGVectorStore` on that
 * pool, constructed with the collection's table and `distanceStrategy` — not with
 * `PGVectorStore.initialize()`, which checks a connection out of the pool that no query uses and
 * only `end()` releases (README: on a pool of max 2 the second `initialize()` never resolved;
 * `end()` would also end the shared pool). The table is created by the client's own
 * `ensureTableInDatabase(dim)`, which is the rest of what `initialize()` does.
 */
export class LangchainPgvectorStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = LANGCHAIN_PGVECTOR_CAPABILITIES;
  private closed = false;

  constructor(private readonly pool: Pool) {}

  /** `server`: `SELECT version()`; components: `postgres`, `pgvector` (the extension's version, null before it exists). */
  async serverInfo(): Promise<ServerInfo> {
    const { rows } = await viaClient('serverInfo', () =>
      this.pool.query(`SELECT version() AS server, current_setting('server_version') AS pg, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS ext`),
    );
    const r = rows[0];
    return { server: r.server, components: { postgres: String(r.pg).split(' ')[0]!, ...(r.ext ? { pgvector: r.ext } : {}) } };
  }

  /**
   * Create the collection's table with the client's `ensureTableInDatabase(dim)` (which also runs
   * `CREATE EXTENSION IF NOT EXISTS vector`), then record the marker (marker.ts). Throws
   * INVALID_INPUT (name, dim, metric, index parameters), CAPABILITY_MISSING (an IVFFlat index: the
   * client builds HNSW only; an HNSW `efSearch` other than the server default 40: the client sets
   * none), COLLECTION_EXISTS, BACKEND_ERROR.
   */
  async createCollection(spec: CollectionSpec): Promise<LangchainPgvectorCollection> {
    checkSpec(spec);
    const table = tableOf(spec.name);
    if ((await this.tableInfo(table)).exists) throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: table ${table} already exists`);
    const lc = this.client(table, spec);
    await viaClient(`ensureTableInDatabase on table ${table}`, () => lc.ensureTableInDatabase(spec.dim));
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    await viaClient(`record the collection marker on table ${table}`, () => this.pool.query(markerSql(table, stored)));
    return new LangchainPgvectorCollection(this.pool, lc, stored, table);
  }

  /**
   * Reopen a collection: a new PGVectorStore with the metric the marker records (never the client's
   * default). Throws COLLECTION_MISSING (no table, or a table without this driver's marker),
   * BACKEND_ERROR (marker and column disagree on the dimension).
   */
  async openCollection(name: string): Promise<LangchainPgvectorCollection> {
    checkName(name);
    const table = tableOf(name);
    const info = await this.tableInfo(table);
    if (!info.exists) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name}: table ${table} does not exist`);
    const m = info.marker;
    if (!m) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name}: table ${table} carries no marker of this driver; not opened`);
    if (info.dim !== m.dim) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: collection ${name}: column embedding is vector(${String(info.dim)}) but the marker says dim ${m.dim}`);
    const spec: CollectionSpec = { name, dim: m.dim, metric: m.metric, index: m.index, ...(m.embeddingModel !== undefined ? { embeddingModel: m.embeddingModel } : {}) };
    return new LangchainPgvectorCollection(this.pool, this.client(table, spec), spec, table);
  }

  /** Drop a collection's table (SQL: the client has no drop). Missing is not an error; a table without the marker is refused (INVALID_INPUT). */
  async dropCollection(name: string): Promise<void> {
    checkName(name);
    const table = tableOf(name);
    const info = await this.tableInfo(table);
    if (!info.exists) return;
    if (!info.marker) throw invalid(`refusing to drop table ${table}: it carries no marker of this driver`);
    await viaClient(`drop table ${table}`, () => this.pool.query(`DROP TABLE ${ident(table)}`));
  }

  /** End the pool (idempotent). Later calls on this store and its collections reject (BACKEND_ERROR: the pool is ended). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /** A PGVectorStore on this store's pool for `table`, with the collection's metric as its distanceStrategy. */
  private client(table: string, spec: CollectionSpec): PGVectorStore {
    return new PGVectorStore(new PrecomputedEmbeddings(), { pool: this.pool, tableName: table, distanceStrategy: DISTANCE_STRATEGY[spec.metric] });
  }

  private async tableInfo(table: string): Promise<{ exists: boolean; marker: ClientMarker | null; dim: number | null }> {
    const { rows } = await viaClient(`look up table ${table}`, () => this.pool.query(TABLE_INFO_SQL, [table]));
    const r = rows[0];
    return { exists: r.exists === true, marker: r.exists ? parseMarker(r.comment ?? null, table) : null, dim: r.dim === null || r.dim === undefined ? null : Number(r.dim) };
  }
}

function checkName(name: unknown): void {
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid(`collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
}

/** A collection spec against what the client can create (see `createCollection`). */
function checkSpec(spec: CollectionSpec): void {
  checkName(spec.name);
  const where = `collection ${spec.name}`;
  if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > MAX_DIM) throw invalid(`${where}: dim must be an integer in 1..${MAX_DIM}, got ${spec.dim}`);
  if (!LANGCHAIN_PGVECTOR_CAPABILITIES.metrics.includes(spec.metric)) throw invalid(`${where}: metric must be one of cosine, ip, l2, got ${String(spec.metric)}`);
  const ix = spec.index;
  if (ix?.type === 'none') return;
  if (!isHnsw(ix))
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: index type ${JSON.stringify((ix as { type?: unknown })?.type)}: PGVectorStore builds HNSW indexes only (createHnswIndex)`);
  const int = (v: unknown, lo: number, hi: number, field: string): void => {
    if (!Number.isInteger(v) || (v as number) < lo || (v as number) > hi) throw invalid(`${where}: index.${field} must be an integer in ${lo}..${hi}, got ${String(v)}`);
  };
  // pgvector's reloption ranges: m 2..100, ef_construction 4..1000 and ≥ 2·m.
  int(ix.m, 2, 100, 'm');
  int(ix.efConstruction, Math.max(4, 2 * ix.m), 1000, 'efConstruction');
  if (ix.efSearch !== SERVER_DEFAULT_EF_SEARCH) {
    throw new MemoryMatrixError(
      'CAPABILITY_MISSING',
      `${ADAPTER}: ${where}: index.efSearch ${String(ix.efSearch)}: PGVectorStore sets no hnsw.ef_search, so its searches run with the server's default ${SERVER_DEFAULT_EF_SEARCH}; declare efSearch ${SERVER_DEFAULT_EF_SEARCH}`,
    );
  }
  if (spec.dim > MAX_INDEXED_DIM) throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: HNSW indexes take at most ${MAX_INDEXED_DIM} dimensions, dim is ${spec.dim}`);
}
