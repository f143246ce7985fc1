import { inAskedOrder, keepMinScore, type CollectionSpec, type IndexInEffect, type MemoryCollection, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ScanOptions } from '@memory-matrix/spec';
import { ident, isoTimestampSql } from './codec';
import type { StoreContext } from './context';
import { createIndexSql } from './ddl';
import { readIndexInEffect } from './index-in-effect';
import { recallPlan } from './recall-sql';
import { whereClause } from './where-sql';
import { pgvectorToCanonical } from './scores';
import { validateDeleteWhere, validateFilter, validateIds, validateQuery } from './validate';
import { upsertRecords } from './upsert';
import { rowToRecord, scanTable } from './scan';

/**
 * One collection = one table created by this adapter (see ddl.ts). Implements the spec's
 * `MemoryCollection`; every method wraps backend errors as BACKEND_ERROR naming the table.
 * `explain` is an extra (not in the contract) so tests and the runner can see the plan a recall
 * actually uses.
 */
export class PgvectorCollection implements MemoryCollection {
  private indexBuilt: boolean;

  constructor(
    private readonly ctx: StoreContext,
    readonly spec: CollectionSpec,
    readonly table: string,
    readonly indexName: string,
    indexBuilt: boolean,
  ) {
    this.indexBuilt = indexBuilt;
  }

  /**
   * Insert or replace by id (C21: the newest content wins; within one call the LAST record with
   * an id wins). Validates every record first, then writes all chunks in ONE transaction, so the
   * call is atomic. Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, BACKEND_ERROR.
   */
  upsert(records: MemoryRecord[]): Promise<void> {
    return upsertRecords(this.ctx, this.table, this.spec, records);
  }

  /** Records by id in the order asked, each id once (first occurrence), missing ids left out (`inAskedOrder`). */
  async get(ids: string[]): Promise<MemoryRecord[]> {
    validateIds(ids, `table ${this.table}: get`);
    if (ids.length === 0) return [];
    const rows = await this.ctx.run('get', this.table, async () => {
      const sql = `SELECT id, namespace, kind, text, ${isoTimestampSql('created_at')} AS created_at, metadata, embedding::text AS embedding ` + `FROM ${ident(this.table)} WHERE id = ANY($1::text[])`;
      return (await this.ctx.client.query(sql, [ids])).rows as Array<Record<string, unknown>>;
    });
    const byId = new Map<string, MemoryRecord>();
    for (const row of rows) byId.set(row.id as string, rowToRecord(row, this.table));
    return inAskedOrder(ids, byId);
  }

  /** One keyset page of the table in UTF-8 byte order of id, rows as `get` reads them (scan.ts). */
  scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    return scanTable(this.ctx, this.table, opts);
  }

  /** Delete by id; returns how many rows existed (each id counted once). */
  async delete(ids: string[]): Promise<number> {
    validateIds(ids, `table ${this.table}: delete`);
    if (ids.length === 0) return 0;
    return this.ctx.run('delete', this.table, async () => {
      const sql = `WITH d AS (DELETE FROM ${ident(this.table)} WHERE id = ANY($1::text[]) RETURNING 1) SELECT count(*)::int AS n FROM d`;
      return Number((await this.ctx.client.query(sql, [ids])).rows[0].n);
    });
  }

  /**
   * Delete every memory matching `filter` in ONE statement the server evaluates:
   * `WITH d AS (DELETE FROM <table> WHERE <whereClause>) SELECT count(*)` (where-sql.ts, the
   * recall filter with `where` compiled by filter-sql.ts, values as bind parameters); returns the
   * server's count of deleted rows. Throws INVALID_INPUT (a filter with no part),
   * CAPABILITY_MISSING, BACKEND_ERROR.
   */
  async deleteWhere(filter: RecallFilter): Promise<number> {
    validateDeleteWhere(filter, `table ${this.table}`);
    return this.ctx.run('deleteWhere', this.table, async () => {
      const params: unknown[] = [];
      const sql = `WITH d AS (DELETE FROM ${ident(this.table)} ${whereClause(filter, params)} RETURNING 1) SELECT count(*)::int AS n FROM d`;
      return Number((await this.ctx.client.query(sql, params)).rows[0].n);
    });
  }

  /** Number of memories, optionally under a filter (same semantics as recall's filter). */
  async count(filter?: RecallFilter): Promise<number> {
    validateFilter(filter, `table ${this.table}: count`);
    return this.ctx.run('count', this.table, async () => {
      const params: unknown[] = [];
      const sql = `SELECT count(*)::int AS n FROM ${ident(this.table)} ${whereClause(filter, params)}`;
      return Number((await this.ctx.client.query(sql, params)).rows[0].n);
    });
  }

  /**
   * Build the ANN index (HNSW: m, ef_construction; IVFFlat: lists) with the metric's operator
   * class; if it already exists, REINDEX it (IVFFlat re-trains its lists on the current rows).
   * No-op for `type: 'none'`. Recall with `scan: 'index'` builds it lazily when still missing.
   */
  async buildIndex(): Promise<void> {
    const sql = createIndexSql(this.table, this.indexName, this.spec.metric, this.spec.index);
    if (sql === null) return;
    await this.ctx.run('build index', this.table, async () => {
      const { rows } = await this.ctx.client.query('SELECT to_regclass(quote_ident($1)) IS NOT NULL AS e', [this.indexName]);
      await this.ctx.client.query(rows[0].e ? `REINDEX INDEX ${ident(this.indexName)}` : sql);
    });
    this.indexBuilt = true;
  }

  /**
   * Top-k by canonical score (scores.ts), non-increasing, ties by id ascending in byte order;
   * `minScore` keeps hits with canonical score ≥ minScore (applied to the canonical float64
   * score, so every target cuts at the same value). `scan` as in recall-sql.ts. With `decay`
   * (and `now`) the score is similarity × decay factor, computed server-side by an exact scan
   * (decay-sql.ts; `minScore` then applies to it). Throws DIMENSION_MISMATCH, INVALID_VECTOR,
   * INVALID_INPUT, BACKEND_ERROR.
   */
  async recall(q: RecallQuery): Promise<RecallHit[]> {
    validateQuery(q, this.spec.dim, this.spec.metric, this.table);
    if (q.scan !== 'exact' && q.decay === undefined) await this.ensureIndex();
    const plan = recallPlan(this.table, this.spec.metric, this.spec.index, this.indexBuilt, q, this.ctx.iterativeScan);
    type Row = { id: string; d?: number | string; s?: number | string };
    const rows = await this.ctx.run(`recall (${plan.mode})`, this.table, async () =>
      plan.settings.length === 0
        ? ((await this.ctx.client.query(plan.sql, plan.params)).rows as Row[]) // one statement: nothing to scope to a transaction
        : this.ctx.client.transaction(async (tx) => {
            for (const s of plan.settings) await tx.query(s);
            return (await tx.query(plan.sql, plan.params)).rows as Row[];
          }),
    );
    const hits = rows.map((r) => ({ id: r.id, score: plan.decayed ? Number(r.s) : pgvectorToCanonical(this.spec.metric, Number(r.d)) }));
    return keepMinScore(hits, q.minScore);
  }

  /**
   * The plan PostgreSQL chooses for `q` under the same settings as `recall` (EXPLAIN, COSTS OFF),
   * one line per plan node. Builds a missing index first, like recall.
   */
  async explain(q: RecallQuery): Promise<string> {
    validateQuery(q, this.spec.dim, this.spec.metric, this.table);
    if (q.scan !== 'exact' && q.decay === undefined) await this.ensureIndex();
    const plan = recallPlan(this.table, this.spec.metric, this.spec.index, this.indexBuilt, q, this.ctx.iterativeScan);
    const rows = await this.ctx.run('explain recall', this.table, () =>
      this.ctx.client.transaction(async (tx) => {
        for (const s of plan.settings) await tx.query(s);
        return (await tx.query(`EXPLAIN (COSTS OFF) ${plan.sql}`, plan.params)).rows as Array<Record<string, string>>;
      }),
    );
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  /**
   * The index configuration PostgreSQL has in effect for `q` (index-in-effect.ts): the plan of
   * the recall under its own transaction-local settings, the index's catalog entry and `SHOW` of the search
   * setting, in one transaction. Builds a missing index first, like recall. Throws INVALID_INPUT,
   * BACKEND_ERROR.
   */
  async indexInEffect(q: RecallQuery): Promise<IndexInEffect> {
    validateQuery(q, this.spec.dim, this.spec.metric, this.table);
    if (q.scan !== 'exact' && q.decay === undefined) await this.ensureIndex();
    const plan = recallPlan(this.table, this.spec.metric, this.spec.index, this.indexBuilt, q, this.ctx.iterativeScan);
    return this.ctx.run('read index in effect', this.table, () => this.ctx.client.transaction((tx) => readIndexInEffect(tx, plan, this.indexName, this.ctx.iterativeScan)));
  }

  /** Build the ANN index if the config has one and it does not exist yet. */
  private async ensureIndex(): Promise<void> {
    if (this.indexBuilt || this.spec.index.type === 'none') return;
    const exists = await this.ctx.run('look up index', this.table, async () => {
      const { rows } = await this.ctx.client.query('SELECT to_regclass(quote_ident($1)) IS NOT NULL AS e', [this.indexName]);
      return rows[0].e as boolean;
    });
    if (exists) this.indexBuilt = true;
    else await this.buildIndex();
  }
}
