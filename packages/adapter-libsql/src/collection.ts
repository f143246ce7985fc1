import { checksFrom, keepMinScore, KitCollection, MemoryMatrixError, recordOfRow, recordValidators, TIE_MARGIN, tieCompleteTopKSync, validateScanOptions, type MemoryRow } from '@memory-matrix/spec';
import type { CollectionSpec, InputRules, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ScanOptions } from '@memory-matrix/spec';
import { ADAPTER, type LibsqlContext } from './context';
import { filterSql } from './filter-sql';
import { createIndexSql, diskannOf, ident, namesOf } from './schema';
import { DISTANCE, libsqlToCanonical } from './scores';

/** Records per chunk of an upsert (all chunks of a call in ONE transaction); declared as `maxBatch`. */
export const MAX_BATCH = 1000;

/** The contract's input rules under this adapter's name (spec record-validation.ts). */
const RULES: InputRules = { adapter: ADAPTER };

/** A row of the memory table (spec kit `MemoryRow`) with its F32_BLOB. */
interface Row extends MemoryRow {
  embedding: Buffer | ArrayBuffer;
}

/** The F32_BLOB bytes of a float32 vector (a copy; little-endian, as libSQL stores them). */
function blobOf(v: Float32Array): Buffer {
  return Buffer.from(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

/**
 * One collection = one table with an `F32_BLOB(dim)` column, and with index type `diskann` its
 * DiskANN index (schema.ts). Every parameter list is bound as ONE array (`stmt.all(params)`):
 * libsql 0.5.29 takes a single object argument as named parameters, and a lone Buffer makes its
 * native side panic and abort the process (README "libsql quirks").
 */
export class LibsqlCollection extends KitCollection {
  readonly table: string;
  readonly vidx: string;

  constructor(
    private readonly ctx: LibsqlContext,
    readonly spec: CollectionSpec,
  ) {
    const { table, vidx } = namesOf(spec.name);
    // every record of a call is written, in order: ON CONFLICT makes the last one with an id win
    super({ adapter: ADAPTER, scope: `table ${table}`, repeatedIds: 'none' }, checksFrom(recordValidators(RULES, 'table'), spec, table));
    this.table = table;
    this.vidx = vidx;
  }

  /**
   * Insert or replace by id (`INSERT … ON CONFLICT(id) DO UPDATE`, the DiskANN index follows the
   * row), all records of the call in one IMMEDIATE transaction: all or nothing; within one call the
   * last record with an id wins. Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, BACKEND_ERROR.
   */
  protected async writeBatch(records: MemoryRecord[]): Promise<void> {
    const rows = records.map((r) => [r.id, r.namespace, r.kind, r.text, r.createdAt, JSON.stringify(r.metadata), blobOf(r.embedding)]);
    const db = this.ctx.db;
    await this.ctx.run(`upsert of ${rows.length} records`, this.table, () => {
      const ins = db.prepare(
        `INSERT INTO ${ident(this.table)} (id, namespace, kind, text, created_at, metadata, embedding) VALUES (?, ?, ?, ?, ?, ?, ?) ` +
          `ON CONFLICT(id) DO UPDATE SET namespace = excluded.namespace, kind = excluded.kind, text = excluded.text, created_at = excluded.created_at, metadata = excluded.metadata, embedding = excluded.embedding`,
      );
      db.transaction(() => {
        for (const row of rows) ins.run(row);
      }).immediate();
    });
  }

  /** The rows of `ids` (the kit's `get` puts them in the order asked). */
  protected async readByIds(ids: string[]): Promise<MemoryRecord[]> {
    const rows = await this.ctx.run('get', this.table, () => this.ctx.db.prepare(`${this.selectRows()} WHERE r.id IN (SELECT value FROM json_each(?))`).all([JSON.stringify(ids)]) as Row[]);
    return rows.map((row) => this.toRecord(row));
  }

  /** One keyset page in id order (BINARY collation = spec `compareIdsBytes` order). */
  async scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    const { after, limit } = validateScanOptions(opts, `${ADAPTER}: table ${this.table}`);
    const rows = await this.ctx.run('scan', this.table, () => {
      const where = after === undefined ? '' : ' WHERE r.id > ?';
      return this.ctx.db.prepare(`${this.selectRows()}${where} ORDER BY r.id LIMIT ?`).all(after === undefined ? [limit] : [after, limit]) as Row[];
    });
    return rows.map((row) => this.toRecord(row));
  }

  /** Delete by id (one transaction); returns how many existed, each id counted once. */
  protected async removeIds(ids: string[]): Promise<number> {
    const db = this.ctx.db;
    return this.ctx.run('delete', this.table, () => {
      const del = db.prepare(`DELETE FROM ${ident(this.table)} WHERE id = ?`);
      return db.transaction(() => ids.reduce((n, id) => n + Number(del.run([id]).changes), 0)).immediate();
    });
  }

  /** Number of memories, optionally under a filter (recall's semantics). */
  protected async countWhere(filter: RecallFilter | undefined): Promise<number> {
    return this.ctx.run('count', this.table, () => {
      const params: unknown[] = [];
      const f = filterSql(filter, params);
      return Number((this.ctx.db.prepare(`SELECT count(*) AS n FROM ${ident(this.table)} r${f ? ` WHERE ${f}` : ''}`).get(params) as { n: number }).n);
    });
  }

  /** With index type `diskann`: CREATE INDEX … libsql_vector_idx (idempotent; later writes update it). `none`: nothing. */
  async buildIndex(): Promise<void> {
    const ix = diskannOf(this.spec);
    if (ix === undefined) return;
    await this.ctx.run('build index', this.table, () => this.ctx.db.exec(createIndexSql(this.spec.name, this.spec.metric, ix)));
  }

  /**
   * Top-k by canonical score (scores.ts), non-increasing, ties by id in byte order; `minScore`
   * keeps hits whose score ≥ it. `scan: 'exact'` (or index type `none`): every filtered row,
   * `ORDER BY <distance fn>(embedding, q), id LIMIT k`. `scan: 'index'` on a `diskann` collection:
   * `vector_top_k(<index>, q, n)` (n = k + TIE_MARGIN, spec kit `tieCompleteTopKSync`: doubled while the k-th distance ties the
   * last fetched one), joined on rowid and ordered by (distance, id); the filter applies AFTER the
   * n candidates (vector_top_k has no pre-filter), so a filtered query may return fewer than k —
   * measured, not compensated. Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT,
   * CAPABILITY_MISSING (decay), BACKEND_ERROR (an index scan before `buildIndex`: no such index).
   */
  protected async recallChecked(q: RecallQuery): Promise<RecallHit[]> {
    if (q.decay !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: table ${this.table}: time decay is not offered (timeDecay: false)`);
    const fn = DISTANCE[this.spec.metric as 'cosine' | 'l2'].fn;
    const useIndex = q.scan !== 'exact' && diskannOf(this.spec) !== undefined;
    const hits = await this.ctx.run(useIndex ? 'recall (vector_top_k)' : 'recall (exact)', this.table, () => {
      const v = blobOf(q.vector);
      if (!useIndex) {
        const params: unknown[] = [v];
        const f = filterSql(q.filter, params);
        params.push(q.k);
        const sql = `SELECT r.id AS id, ${fn}(r.embedding, ?) AS d FROM ${ident(this.table)} r${f ? ` WHERE ${f}` : ''} ORDER BY d, r.id LIMIT ?`;
        return this.ctx.db.prepare(sql).all(params) as Array<{ id: string; d: number }>;
      }
      // with a filter the candidates are filtered after vector_top_k, so a short answer says nothing about ties: no widening
      return tieCompleteTopKSync({ k: q.k, key: (r) => r.d, max: q.filter ? q.k + TIE_MARGIN : undefined }, (n: number) => {
        const params: unknown[] = [v, this.vidx, v, n];
        const f = filterSql(q.filter, params);
        const sql = `SELECT r.id AS id, ${fn}(r.embedding, ?) AS d FROM vector_top_k(?, ?, ?) AS t ` + `JOIN ${ident(this.table)} r ON r.rid = t.id${f ? ` WHERE ${f}` : ''} ORDER BY d, r.id`;
        return this.ctx.db.prepare(sql).all(params) as Array<{ id: string; d: number }>;
      });
    });
    const scored = hits.map((r) => ({ id: r.id, score: libsqlToCanonical(this.spec.metric, r.d) }));
    return keepMinScore(scored, q.minScore);
  }

  private selectRows(): string {
    return `SELECT r.id, r.namespace, r.kind, r.text, r.created_at, r.metadata, r.embedding FROM ${ident(this.table)} r`;
  }

  private toRecord(row: Row): MemoryRecord {
    const where = `${ADAPTER}: table ${this.table} id ${row.id}`;
    const bytes = Buffer.isBuffer(row.embedding) ? row.embedding : Buffer.from(row.embedding);
    if (bytes.length !== 4 * this.spec.dim)
      throw new MemoryMatrixError('BACKEND_ERROR', `${where}: stored embedding is ${bytes.length} bytes, expected ${4 * this.spec.dim} (F32_BLOB(${this.spec.dim}))`);
    const embedding = new Float32Array(this.spec.dim);
    new Uint8Array(embedding.buffer).set(bytes);
    return recordOfRow(row, embedding, where);
  }
}
