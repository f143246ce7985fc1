import { checksFrom, keepMinScore, KitCollection, recordOfRow, tieCompleteTopKSync, validateScanOptions, type MemoryRow } from '@memory-matrix/spec';
import type { CollectionSpec, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ScanOptions } from '@memory-matrix/spec';
import { blobToVector, instantColumns, vectorToBlob } from './codec';
import { ADAPTER, type StoreContext } from './context';
import { ident, namesOf } from './ddl';
import { decaySql, filterSql, knnSql, VEC0_K_MAX } from './recall-sql';
import { sqliteVecToCanonical } from './scores';
import { validateDeleteWhere, validateFilter, validateIds, validateQuery, validateRecord } from './validate';

/**
 * Records per chunk of an upsert. All chunks of one call run in ONE transaction, so the chunking
 * only bounds the work between two checks of the store being closed; declared as `maxBatch`.
 */
export const MAX_BATCH = 1000;

/** A row of the memory table (spec kit `MemoryRow`) with its vec0 rowid and embedding. */
interface Row extends MemoryRow {
  rid: number;
  embedding: Buffer;
}

/**
 * One collection = a records table + a vec0 table (ddl.ts). Implements the spec's
 * `MemoryCollection` on the kit's `KitCollection` (input checks, last write wins, asked order);
 * every method wraps backend errors as BACKEND_ERROR naming the table.
 */
export class SqliteCollection extends KitCollection {
  readonly table: string;
  readonly vec: string;

  constructor(
    private readonly ctx: StoreContext,
    readonly spec: CollectionSpec,
  ) {
    const { table, vec } = namesOf(spec.name);
    super({ adapter: ADAPTER, scope: `table ${table}`, repeatedIds: 'last' }, checksFrom({ validateRecord, validateIds, validateFilter, validateQuery }, spec, table));
    this.table = table;
    this.vec = vec;
  }

  /**
   * Insert or replace by id: vec0 has no native upsert, so each record is `DELETE … RETURNING`
   * from the records table (and its vec0 row), then INSERTed into both, all records of the call
   * in ONE transaction (`db.transaction`, BEGIN IMMEDIATE): all or nothing. Within one call the
   * LAST record with an id wins (the kit's `upsert` checks and dedupes first). Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT,
   * BACKEND_ERROR (SQLITE_BUSY after `busy_timeout` included).
   */
  protected async writeBatch(records: MemoryRecord[], positions: number[]): Promise<void> {
    const rows = records.map((r, j) => {
      const t = instantColumns(r.createdAt, `table ${this.table}: record ${JSON.stringify(r.id)} (index ${positions[j]}): createdAt`);
      return { r, t, metadata: JSON.stringify(r.metadata), blob: vectorToBlob(r.embedding) };
    });
    const db = this.ctx.db;
    await this.ctx.run(`upsert of ${rows.length} records`, this.table, () => {
      const del = db.prepare(`DELETE FROM ${ident(this.table)} WHERE id = ? RETURNING rid`);
      const delVec = db.prepare(`DELETE FROM ${ident(this.vec)} WHERE rowid = ?`);
      const ins = db.prepare(`INSERT INTO ${ident(this.table)} (id, namespace, kind, text, created_at, created_ms, created_us, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
      const insVec = db.prepare(`INSERT INTO ${ident(this.vec)} (rowid, namespace, embedding) VALUES (?, ?, ?)`);
      db.transaction(() => {
        for (const { r, t, metadata, blob } of rows) {
          const old = del.get(r.id) as { rid: number } | undefined;
          if (old) delVec.run(BigInt(old.rid));
          const rid = ins.run(r.id, r.namespace, r.kind, r.text, r.createdAt, t.ms, t.us, metadata).lastInsertRowid;
          insVec.run(BigInt(rid), r.namespace, blob);
        }
      }).immediate();
    });
  }

  /** The rows of `ids` (the kit's `get` puts them in the order asked). */
  protected async readByIds(ids: string[]): Promise<MemoryRecord[]> {
    const rows = await this.ctx.run('get', this.table, () => this.ctx.db.prepare(`${this.selectRows()} WHERE r.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as Row[]);
    return rows.map((row) => this.toRecord(row));
  }

  /**
   * One keyset page in id order: `WHERE r.id > ? ORDER BY r.id LIMIT ?` — `id` has SQLite's BINARY
   * collation (memcmp of the UTF-8 bytes), which is spec `compareIdsBytes` order. Rows as `get`.
   */
  async scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    const { after, limit } = validateScanOptions(opts, `${ADAPTER}: table ${this.table}`);
    const rows = await this.ctx.run('scan', this.table, () => {
      const where = after === undefined ? '' : ' WHERE r.id > ?';
      const stmt = this.ctx.db.prepare(`${this.selectRows()}${where} ORDER BY r.id LIMIT ?`);
      return (after === undefined ? stmt.all(limit) : stmt.all(after, limit)) as Row[];
    });
    return rows.map((row) => this.toRecord(row));
  }

  /** Delete by id (both tables, one transaction); returns how many existed (each id counted once). */
  protected async removeIds(ids: string[]): Promise<number> {
    const db = this.ctx.db;
    return this.ctx.run('delete', this.table, () => {
      const del = db.prepare(`DELETE FROM ${ident(this.table)} WHERE id = ? RETURNING rid`);
      const delVec = db.prepare(`DELETE FROM ${ident(this.vec)} WHERE rowid = ?`);
      return db
        .transaction(() => {
          let n = 0;
          for (const id of ids) {
            const old = del.get(id) as { rid: number } | undefined;
            if (old) {
              delVec.run(BigInt(old.rid));
              n++;
            }
          }
          return n;
        })
        .immediate();
    });
  }

  /**
   * Delete every memory matching `filter` (recall's `filterSql`, `where` included) in one
   * IMMEDIATE transaction of two statements SQLite evaluates: the vec0 rows whose rowid a
   * subquery under the filter selects, then `DELETE FROM <table> AS r WHERE <filter>`; returns
   * that statement's `changes` (SQLite's count, not the adapter's). Throws INVALID_INPUT (a
   * filter with no part), CAPABILITY_MISSING, BACKEND_ERROR.
   */
  async deleteWhere(filter: RecallFilter): Promise<number> {
    validateDeleteWhere(filter, `table ${this.table}`);
    const db = this.ctx.db;
    return this.ctx.run('deleteWhere', this.table, () => {
      const params: unknown[] = [];
      const f = filterSql(filter, params);
      const delVec = db.prepare(`DELETE FROM ${ident(this.vec)} WHERE rowid IN (SELECT r.rid FROM ${ident(this.table)} r WHERE ${f})`);
      const del = db.prepare(`DELETE FROM ${ident(this.table)} AS r WHERE ${f}`);
      return db
        .transaction(() => {
          delVec.run(...params);
          return del.run(...params).changes;
        })
        .immediate();
    });
  }

  /** Number of memories, optionally under a filter (same semantics as recall's filter). */
  protected async countWhere(filter: RecallFilter | undefined): Promise<number> {
    return this.ctx.run('count', this.table, () => {
      const params: unknown[] = [];
      const f = filterSql(filter, params);
      const row = this.ctx.db.prepare(`SELECT count(*) AS n FROM ${ident(this.table)} r${f ? ` WHERE ${f}` : ''}`).get(...params) as { n: number };
      return Number(row.n);
    });
  }

  /** A no-op: the collection's index type is `none` (vec0 KNN scans every vector of the partition). */
  async buildIndex(): Promise<void> {}

  /**
   * Top-k by canonical score (scores.ts), non-increasing, ties by id in byte order. vec0 KNN is
   * exhaustive, so `scan: 'exact'` and `'index'` run the same query (recall-sql.ts `knnSql`):
   * k + TIE_MARGIN rows (spec kit `tieCompleteTopKSync`) are fetched and ordered by (distance, id); while the fetched rows end
   * inside the tie group at rank k, the fetch doubles (up to vec0's k limit, 4096), so the group
   * is complete before it is cut. `minScore` keeps hits whose canonical float64 score ≥ it.
   * With `decay` (and `now`) the scores are similarity × decay factor computed in SQL
   * (`decaySql`). Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, BACKEND_ERROR.
   */
  protected async recallChecked(q: RecallQuery): Promise<RecallHit[]> {
    const hits = await this.ctx.run(q.decay ? 'recall (decay)' : 'recall (vec0 knn)', this.table, () => {
      if (q.decay !== undefined) {
        const { sql, params } = decaySql(this.table, this.vec, this.spec.metric, q);
        return (this.ctx.db.prepare(sql).all(...params) as Array<{ id: string; s: number }>).map((r) => ({ id: r.id, score: r.s }));
      }
      const rows = tieCompleteTopKSync({ k: q.k, key: (r) => r.d, max: VEC0_K_MAX }, (n: number) => {
        const { sql, params } = knnSql(this.table, this.vec, q, n);
        return this.ctx.db.prepare(sql).all(...params) as Array<{ id: string; d: number }>;
      });
      return rows.map((r) => ({ id: r.id, score: sqliteVecToCanonical(this.spec.metric, r.d) }));
    });
    return keepMinScore(hits, q.minScore);
  }

  private selectRows(): string {
    return `SELECT r.rid, r.id, r.namespace, r.kind, r.text, r.created_at, r.metadata, v.embedding ` + `FROM ${ident(this.table)} r JOIN ${ident(this.vec)} v ON v.rowid = r.rid`;
  }

  private toRecord(row: Row): MemoryRecord {
    return recordOfRow(row, () => blobToVector(row.embedding, this.spec.dim, `table ${this.table} id ${row.id}`), `${ADAPTER}: table ${this.table} id ${row.id}`);
  }
}
