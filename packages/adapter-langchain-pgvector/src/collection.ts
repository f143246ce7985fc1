import { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import { ident, readIndexInEffect, versionAtLeast } from '@memory-matrix/adapter-pgvector';
import {
  checkLayerQuery,
  isHnsw,
  keepMinScore,
  LayerCollection,
  MemoryMatrixError,
  type CollectionSpec,
  type IndexInEffect,
  type MemoryRecord,
  type RecallFilter,
  type RecallHit,
  type RecallQuery,
} from '@memory-matrix/spec';
import type { Pool, QueryResult } from 'pg';
import { PrecomputedEmbeddings } from './embeddings';
import { checkRecords, clientFilter, documentOf, FIELD_KEYS, ID_RULES, memoryIdOf, recordOfRow } from './documents';
import { ADAPTER, viaClient } from './errors';
import { compileLangchainFilter } from './filter-compile';
import { rowIdOf } from './ids';
import { DISTANCE_STRATEGY, langchainScoreToCanonical } from './scores';

/**
 * One collection = one PGVectorStore table (`mm_<name>`: `id uuid, text, metadata jsonb,
 * embedding vector(dim)`, created by the client's `ensureTableInDatabase`). Every write and every
 * recall goes through the client:
 * - `upsert` → `addVectors(vectors, documents, { ids })`: a plain INSERT in chunks of 500
 *   (`chunkSize`), each its own statement — so an id already stored is refused (duplicate key;
 *   the client does not upsert, capability `upsert` false) and a call of more than 500 records is
 *   not atomic;
 * - `recall` → `similaritySearchVectorWithScore(vector, k, filter)`;
 * - `delete` → `delete({ ids })`;
 * - `buildIndex` → `createHnswIndex({ dimensions, m, efConstruction, namespace })`.
 * The reads the client has no API for — `get` by id, `count` — are SQL on the client's own table
 * through the same pool (how a user verifies what the client wrote); `delete` counts the rows it is
 * about to delete that way first (the client's `delete` returns nothing), so its count is not
 * atomic with the delete.
 */
export class LangchainPgvectorCollection extends LayerCollection {
  constructor(
    private readonly pool: Pool,
    private readonly lc: PGVectorStore,
    readonly spec: CollectionSpec,
    readonly table: string,
  ) {
    super({ records: (records) => checkRecords(records, table), ids: ID_RULES });
  }

  /** What messages name: `table <table>`. */
  protected get where(): string {
    return `table ${this.table}`;
  }

  /**
   * Insert through `addVectors`; the memory id becomes the row's uuid (ids.ts) and travels in the
   * metadata with namespace, kind and createdAt (documents.ts). Throws INVALID_INPUT (not an array,
   * a bad id, a metadata key starting with `mm_`), DIMENSION_MISMATCH / INVALID_VECTOR when the
   * server refuses a vector, BACKEND_ERROR otherwise (e.g. a duplicate key).
   */
  protected async writeRecords(records: MemoryRecord[]): Promise<void> {
    const vectors = records.map((r) => Array.from(r.embedding));
    const ids = records.map((r) => rowIdOf(r.id));
    await viaClient(`addVectors of ${records.length} records on table ${this.table}`, () => this.lc.addVectors(vectors, records.map(documentOf), { ids }));
  }

  /** Records by id (SQL on the client's table, over the ids as asked). */
  protected async readByIds(_unique: string[], asked: string[]): Promise<Map<string, MemoryRecord>> {
    const { rows } = await viaClient(`get on table ${this.table}`, () =>
      this.pool.query(`SELECT id, text, metadata, embedding::text AS embedding FROM ${ident(this.table)} WHERE id = ANY($1::uuid[])`, [asked.map(rowIdOf)]),
    );
    const byId = new Map<string, MemoryRecord>();
    for (const row of rows) {
      const r = recordOfRow(row, this.table);
      byId.set(r.id, r);
    }
    return byId;
  }

  /** Delete by id through the client's `delete({ ids })`; returns how many of them were stored just before (SQL count). */
  protected async removeIds(unique: string[]): Promise<number> {
    const uuids = unique.map(rowIdOf);
    const { rows } = await viaClient(`count before delete on table ${this.table}`, () => this.pool.query(`SELECT count(*)::int AS n FROM ${ident(this.table)} WHERE id = ANY($1::uuid[])`, [uuids]));
    await viaClient(`delete of ${uuids.length} ids on table ${this.table}`, () => this.lc.delete({ ids: uuids }));
    return Number(rows[0].n);
  }

  /**
   * Rows of the client's table, optionally under a filter (SQL through the pool; the client has no
   * count). Without `where` the filter has the contract's meaning here — namespace / kind IN,
   * metadata by jsonb containment (type and value) — not the client's text comparison, so a count
   * is the server's account of what is stored. With `where`, the whole filter is compiled to the
   * client's filter object (filter-compile.ts) and its WHERE is the one the client builds for a
   * search (`buildFilterClauses`): the count of what a recall under that filter can see. Throws as
   * `compileLangchainFilter`; BACKEND_ERROR when the server refuses the statement.
   */
  async count(filter?: RecallFilter): Promise<number> {
    if (filter?.where !== undefined) {
      const lcFilter = compileLangchainFilter(filter, `table ${this.table}: count`);
      // buildFilterClauses is private in the client's typings but the very method its search calls.
      const lc = this.lc as unknown as { buildFilterClauses(f: object, offset: number): { whereClauses: string[]; parameters: unknown[] } };
      const { whereClauses, parameters } = lc.buildFilterClauses(lcFilter ?? {}, 0);
      const sql = `SELECT count(*)::int AS n FROM ${ident(this.table)}${whereClauses.length ? ` WHERE ${whereClauses.join(' AND ')}` : ''}`;
      const { rows } = await viaClient(`count under a filter on table ${this.table}`, () => this.pool.query(sql, parameters));
      return Number(rows[0].n);
    }
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter?.namespaces !== undefined) {
      params.push(filter.namespaces);
      where.push(`metadata->>'${FIELD_KEYS.namespace}' = ANY($${params.length}::text[])`);
    }
    if (filter?.kinds !== undefined) {
      params.push(filter.kinds);
      where.push(`metadata->>'${FIELD_KEYS.kind}' = ANY($${params.length}::text[])`);
    }
    if (filter?.metadata !== undefined && Object.keys(filter.metadata).length > 0) {
      params.push(JSON.stringify(filter.metadata));
      where.push(`metadata @> $${params.length}::jsonb`);
    }
    const sql = `SELECT count(*)::int AS n FROM ${ident(this.table)}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
    const { rows } = await viaClient(`count on table ${this.table}`, () => this.pool.query(sql, params));
    return Number(rows[0].n);
  }

  /**
   * `createHnswIndex` with the collection's m and ef_construction (a no-op for `type: 'none'`; an
   * index already there is kept: the client's CREATE INDEX IF NOT EXISTS). The client logs and
   * swallows a failed CREATE INDEX (`console.error`, then resolves), so the driver reads the
   * catalog afterwards: no HNSW index on the table → BACKEND_ERROR naming it.
   */
  async buildIndex(): Promise<void> {
    const ix = this.spec.index;
    if (!isHnsw(ix)) return;
    await viaClient(`createHnswIndex on table ${this.table}`, () => this.lc.createHnswIndex({ dimensions: this.spec.dim, m: ix.m, efConstruction: ix.efConstruction, namespace: this.table }));
    const { rows } = await viaClient(`look up the HNSW index of table ${this.table}`, () =>
      this.pool.query(
        `SELECT count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam WHERE i.indrelid = to_regclass(quote_ident($1)) AND am.amname = 'hnsw'`,
        [this.table],
      ),
    );
    if (Number(rows[0].n) === 0) {
      throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: createHnswIndex on table ${this.table} resolved but the table has no HNSW index (the client logs a failed CREATE INDEX and resolves)`);
    }
  }

  /**
   * Top-k through `similaritySearchVectorWithScore(vector, k, filter)`, in the order the client
   * returns them; scores converted from the client's distance (scores.ts); `minScore` keeps the hits
   * whose canonical score is ≥ it (the client takes no threshold; the raw pgvector adapter cuts its
   * hits the same way). A filter with `where` goes to the client compiled by filter-compile.ts.
   * Throws INVALID_INPUT (k not an integer 1..1000, a reserved filter key),
   * CAPABILITY_MISSING (a filter the client's syntax cannot hold, `decay`: the client has no time decay; `scan: 'exact'` on a collection with
   * an HNSW index: the client cannot force a scan), DIMENSION_MISMATCH / INVALID_VECTOR as the
   * server refuses the query vector, BACKEND_ERROR.
   */
  async recall(q: RecallQuery): Promise<RecallHit[]> {
    const filter = this.checkQuery(q, 'recall');
    const results = await viaClient(`similaritySearchVectorWithScore (k ${q.k}) on table ${this.table}`, () => this.lc.similaritySearchVectorWithScore(Array.from(q.vector), q.k, filter));
    const hits = results.map(([doc, distance]) => ({ id: memoryIdOf(doc.metadata, this.table, doc.id), score: langchainScoreToCanonical(this.spec.metric, distance) }));
    return keepMinScore(hits, q.minScore);
  }

  /**
   * The index the server uses for the client's own search statement for `q`: a PGVectorStore on a
   * recording pool runs `similaritySearchVectorWithScore` and hands back no rows, so the driver has
   * the exact SQL and parameters the client sends; the pgvector adapter's `readIndexInEffect` then
   * reads, on one pooled connection (the session settings the client's statements get),
   * `EXPLAIN (COSTS OFF)` of that statement, the table's HNSW index from the catalog (operator class,
   * m, ef_construction) and `SHOW hnsw.ef_search` / `hnsw.iterative_scan` (pgvector ≥ 0.8.0).
   * Throws as `recall` for the query; BACKEND_ERROR when a read fails.
   */
  async indexInEffect(q: RecallQuery): Promise<IndexInEffect> {
    const filter = this.checkQuery(q, 'indexInEffect');
    let sent: { sql: string; params: unknown[] } | undefined;
    const recorder = { query: async (sql: string, params: unknown[]) => ((sent = { sql, params }), { rows: [] } as unknown as QueryResult) } as unknown as Pool;
    const probe = new PGVectorStore(new PrecomputedEmbeddings(), { pool: recorder, tableName: this.table, distanceStrategy: DISTANCE_STRATEGY[this.spec.metric] });
    await viaClient(`record the search statement on table ${this.table}`, () => probe.similaritySearchVectorWithScore(Array.from(q.vector), q.k, filter));
    if (!sent) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: table ${this.table}: the client sent no search statement`);
    const statement = sent;
    return viaClient(`read the index in effect on table ${this.table}`, async () => {
      const c = await this.pool.connect();
      try {
        const { rows } = await c.query(
          `SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS ext,
                  (SELECT ic.relname FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam
                    WHERE i.indrelid = to_regclass(quote_ident($1)) AND am.amname = 'hnsw' ORDER BY ic.relname LIMIT 1) AS index`,
          [this.table],
        );
        const iterative = typeof rows[0].ext === 'string' && versionAtLeast(rows[0].ext, [0, 8, 0]);
        return await readIndexInEffect(c, { settings: [], sql: statement.sql, params: statement.params, mode: 'hnsw' }, rows[0].index ?? `${this.table}_no_hnsw_index`, iterative);
      } finally {
        c.release();
      }
    });
  }

  /** The checks `recall` and `indexInEffect` share; returns the query's filter in the client's language. */
  private checkQuery(q: RecallQuery, op: string): PGVectorStore['FilterType'] | undefined {
    const where = `table ${this.table}: ${op}`;
    checkLayerQuery(q, `${ADAPTER}: ${where}`, 'PGVectorStore has no time-decayed search');
    if (q.scan === 'exact' && this.spec.index.type !== 'none') {
      throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: PGVectorStore cannot force an exact scan on a table with an HNSW index (capability exactScan)`);
    }
    return q.filter?.where !== undefined ? compileLangchainFilter(q.filter, where) : clientFilter(q.filter, where);
  }
}
