import type { Table, VectorQuery } from '@lancedb/lancedb';
import { isHnsw, isIvfflat, keepMinScore, KitCollection, tieCompleteTopK, validateScanOptions } from '@memory-matrix/spec';
import type { CollectionSpec, IndexInEffect, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ScanOptions } from '@memory-matrix/spec';
import { fromRow, toArrowTable } from './codec';
import { ADAPTER, type StoreContext } from './context';
import { buildVectorIndex, readIndexInEffect, type LancedbIndexOptions } from './vector-index';
import { lancedbToCanonical, LANCE_DISTANCE } from './scores';
import { filterPredicate, inList, quoteString } from './sql';
import { validateDeleteWhere, validateFilter, validateIds, validateQuery, validateRecord } from './validate';

/** Ids in the oracle's order (spec oracle.ts `compareIds`: UTF-16 code units, JavaScript `<`). */
const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Ids per `IN (…)` predicate of get/delete (bounds the SQL text of one statement). */
export const IDS_PER_STATEMENT = 500;

/** The columns a record is read back from. */
const RECORD_COLUMNS = ['id', 'namespace', 'kind', 'text', 'created_at', 'metadata', 'embedding'];

/**
 * One collection = one LanceDB table `mm_<name>` (codec.ts `tableSchema`). Implements the spec's
 * `MemoryCollection`; every method wraps LanceDB errors as BACKEND_ERROR naming the table. Each
 * write is ONE LanceDB commit (a new table version), visible to every connection once it
 * returns: connections are opened with `readConsistencyInterval: 0` (store.ts), so every read
 * checks for the latest version first.
 */
export class LancedbCollection extends KitCollection {
  constructor(
    private readonly ctx: StoreContext,
    readonly spec: CollectionSpec,
    readonly table: string,
    private readonly tbl: Table,
    private readonly options: LancedbIndexOptions,
  ) {
    super(
      { adapter: ADAPTER, scope: `table ${table}`, repeatedIds: 'last' },
      {
        record: (r, i) => validateRecord(r, i, spec.dim, spec.metric, table),
        ids: validateIds,
        filter: validateFilter,
        query: (q) => validateQuery(q, spec.dim, spec.metric, table),
      },
    );
  }

  /**
   * Insert or replace by id: ONE `mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll()`
   * of every record of the call (one commit: all or nothing); within one call the LAST record
   * with an id wins (earlier ones are dropped before the merge, which refuses duplicate source
   * keys; the kit's `upsert` checks and dedupes first). Concurrent writers conflict in Lance's commit and are retried by LanceDB itself.
   * Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, BACKEND_ERROR.
   */
  protected async writeBatch(rows: MemoryRecord[]): Promise<void> {
    const data = toArrowTable(rows, this.spec.dim);
    await this.ctx.run(`upsert of ${rows.length} records`, this.table, async () => {
      await this.tbl.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
    });
  }

  /** The records of `unique` ids, IDS_PER_STATEMENT per query (the kit's `get` puts them in the order asked). */
  protected async readByIds(unique: string[]): Promise<MemoryRecord[]> {
    const byId = new Map<string, MemoryRecord>();
    await this.ctx.run('get', this.table, async () => {
      for (let i = 0; i < unique.length; i += IDS_PER_STATEMENT) {
        const chunk = unique.slice(i, i + IDS_PER_STATEMENT);
        const rows = (await this.tbl.query().where(inList('id', chunk)).select(RECORD_COLUMNS).limit(chunk.length).toArray()) as Record<string, unknown>[];
        for (const row of rows) byId.set(String(row.id), fromRow(row, this.spec.dim, this.table));
      }
    });
    return [...byId.values()];
  }

  /**
   * One keyset page in id order: `where id > '<after>'`, `orderBy id ascending`, `limit`. DataFusion
   * compares Utf8 by bytes, which is spec `compareIdsBytes` order. Rows as `get`.
   */
  async scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    const { after, limit } = validateScanOptions(opts, `${ADAPTER}: table ${this.table}`);
    const rows = await this.ctx.run('scan', this.table, async () => {
      let q = this.tbl.query();
      if (after !== undefined) q = q.where(`id > ${quoteString(after)}`);
      return (await q.select(RECORD_COLUMNS).orderBy({ columnName: 'id', ascending: true }).limit(limit).toArray()) as Record<string, unknown>[];
    });
    return rows.map((row) => fromRow(row, this.spec.dim, this.table));
  }

  /** Delete by id (one `delete` commit per IDS_PER_STATEMENT ids); returns how many existed, LanceDB's `numDeletedRows`. */
  protected async removeIds(unique: string[]): Promise<number> {
    return this.ctx.run('delete', this.table, async () => {
      let n = 0;
      for (let i = 0; i < unique.length; i += IDS_PER_STATEMENT) n += (await this.tbl.delete(inList('id', unique.slice(i, i + IDS_PER_STATEMENT)))).numDeletedRows;
      return n;
    });
  }

  /**
   * Delete every memory matching `filter` in ONE `table.delete(predicate)` commit LanceDB
   * evaluates (sql.ts `filterPredicate`, `where` compiled by filter-sql.ts); returns LanceDB's
   * `numDeletedRows`. Throws INVALID_INPUT (a filter with no part), CAPABILITY_MISSING, BACKEND_ERROR.
   */
  async deleteWhere(filter: RecallFilter): Promise<number> {
    validateDeleteWhere(filter, `table ${this.table}`);
    const where = filterPredicate(filter)!;
    return this.ctx.run('deleteWhere', this.table, async () => (await this.tbl.delete(where)).numDeletedRows);
  }

  /** Number of memories, optionally under a filter (`countRows(predicate)`, same semantics as recall's filter). */
  protected async countWhere(filter: RecallFilter | undefined): Promise<number> {
    const where = filterPredicate(filter);
    return this.ctx.run('count', this.table, async () => Number(await this.tbl.countRows(where)));
  }

  /**
   * Build (replace) the collection's vector index on `embedding` (vector-index.ts): `hnsw` →
   * IVF_HNSW_SQ, `ivfflat` → IVF_FLAT, with the collection's distance type. A no-op for index
   * `none`, and on an empty table (nothing to train on: recalls are then flat scans).
   */
  async buildIndex(): Promise<void> {
    if (this.spec.index.type === 'none') return;
    await this.ctx.run(`build ${this.spec.index.type} index`, this.table, () => buildVectorIndex(this.tbl, this.spec, this.options));
  }

  /** The vector index LanceDB reports for `embedding` (`listIndices`, `indexStats`), and whether the recall's plan reads it (vector-index.ts). */
  async indexInEffect(query: RecallQuery): Promise<IndexInEffect> {
    validateQuery(query, this.spec.dim, this.spec.metric, this.table);
    return this.ctx.run('index in effect', this.table, () => readIndexInEffect(this.tbl, this.spec, this.vectorQuery(query, query.k)));
  }

  /**
   * Top-k by canonical score (scores.ts), non-increasing, ties by id (spec `compareIds`).
   * `scan: 'exact'`: `bypassVectorIndex()` (a flat scan computing the collection's distance);
   * `'index'` (default): the vector index when one was built, with efSearch (`ef`) / probes
   * (`nprobes`) from the spec. Filters are LanceDB prefilters (`where`, sql.ts). k + TIE_MARGIN (spec kit `tieCompleteTopK`)
   * rows are fetched and ordered by (_distance, id); while the fetched rows end inside the tie
   * group at rank k, the fetch doubles, so the group is complete before it is cut. `minScore`
   * keeps hits whose canonical score ≥ it. With `decay` (and `now`): spec `rerankWithDecay` over
   * exact-path candidates (LanceDB has no decay function). Throws DIMENSION_MISMATCH,
   * INVALID_VECTOR, INVALID_INPUT, BACKEND_ERROR.
   */
  protected async recallChecked(q: RecallQuery): Promise<RecallHit[]> {
    const decay = this.decayOf(q);
    if (decay) {
      const where = filterPredicate(q.filter);
      return this.rankOrDecay(q, decay, {
        total: () => this.ctx.run('count', this.table, async () => Number(await this.tbl.countRows(where))),
        nearest: (n) =>
          this.ctx.run('recall (decay candidates)', this.table, async () => {
            const rows = (await this.vectorQuery({ ...q, scan: 'exact' }, n)
              .select(['id', 'created_at', '_distance'])
              .toArray()) as Array<{ id: string; created_at: string; _distance: number }>;
            return rows.map((row) => ({ id: row.id, score: lancedbToCanonical(this.spec.metric, row._distance), createdAt: row.created_at }));
          }),
      });
    }
    const hits = await this.ctx.run(q.scan === 'exact' ? 'recall (flat)' : 'recall (index)', this.table, async () => {
      const rows = await tieCompleteTopK({ k: q.k, key: (r) => r._distance }, async (n: number) => {
        const rows = (await this.vectorQuery(q, n).select(['id', '_distance']).toArray()) as Array<{ id: string; _distance: number }>;
        return rows.sort((a, b) => a._distance - b._distance || compareIds(a.id, b.id));
      });
      return rows.map((r) => ({ id: r.id, score: lancedbToCanonical(this.spec.metric, r._distance) }));
    });
    return keepMinScore(hits, q.minScore);
  }

  /** The LanceDB vector query of a recall: distance type, prefilter, limit, and the flat or index path. */
  private vectorQuery(q: RecallQuery, limit: number): VectorQuery {
    let vq = this.tbl.vectorSearch(q.vector).column('embedding').distanceType(LANCE_DISTANCE[this.spec.metric]).limit(limit);
    const where = filterPredicate(q.filter);
    if (where !== undefined) vq = vq.where(where);
    const idx = this.spec.index;
    if (q.scan === 'exact' || idx.type === 'none') return vq.bypassVectorIndex();
    if (isHnsw(idx)) vq = vq.ef(Math.max(idx.efSearch, limit));
    if (isIvfflat(idx)) vq = vq.nprobes(idx.probes);
    return vq;
  }
}
