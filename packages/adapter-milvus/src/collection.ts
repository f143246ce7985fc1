import { byScoreThenId, checksFrom, isHnsw, keysetPage, KitCollection, MemoryMatrixError, TIE_MARGIN, validateScanOptions } from '@memory-matrix/spec';
import type { CollectionSpec, IndexInEffect, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ScanOptions } from '@memory-matrix/spec';
import { chunkBy, decodeRow, encodeRow, rowBytes, type Row } from './codec';
import { CONSISTENCY, type StoreContext } from './context';
import { idsExpr, UNQUOTABLE } from './expr';
import { filterExpr } from './filter-expr';
import { FIELD, metricOfMilvus, OUTPUT_FIELDS } from './schema';
import { milvusToCanonical } from './scores';
import { validateFilter, validateIds, validateQuery, validateRecord } from './validate';

/**
 * Byte budget of one insert/upsert request (rows are also capped by the store's maxBatch).
 * Measured on kylin-ai-vector-engine 1.2: a 72 MB insert was accepted (13 s); 32 MB stays well
 * under anything measured and under gRPC-level limits of other Milvus deployments (64 MB).
 */
export const MAX_BATCH_BYTES = 32 * 1024 * 1024;

/** Largest `limit` of one search (Milvus's topk maximum, 16,384). */
const MAX_TOPK = 16_384;

/** One memory-matrix collection = one Milvus collection `mm_<name>` (schema.ts). */
export class MilvusMemoryCollection extends KitCollection {
  constructor(
    private readonly ctx: StoreContext,
    readonly spec: CollectionSpec,
    /** The Milvus collection's name. */
    readonly milvusName: string,
    /** Index type the server reports for the vector field (HNSW or FLAT). */
    private readonly indexType: string,
  ) {
    super({ adapter: 'milvus', scope: `collection ${spec.name}`, arrayVerb: 'needs' }, checksFrom({ validateRecord, validateIds, validateFilter, validateQuery }, spec, spec.name));
  }

  private get c() {
    return this.ctx.client;
  }

  /**
   * Insert or replace by id (Milvus `upsert`: the whole row is replaced, measured — no metadata
   * merge); within one call the LAST record with an id wins (C21). Every record is validated
   * before anything is sent (the kit's `upsert`). Requests of at most maxBatch rows and MAX_BATCH_BYTES; then `flush`
   * (seals the rows into the server's storage) BEFORE the call resolves, so an acknowledged
   * upsert is read back by any later Strong read from this or a new client (C27) and survives a
   * restart. Not atomic across requests: a failing request leaves the earlier ones written and
   * throws BACKEND_ERROR saying how many records landed (README "Batches").
   */
  protected async writeBatch(list: MemoryRecord[]): Promise<void> {
    let done = 0;
    for (const part of chunkBy(list, this.ctx.maxBatch, MAX_BATCH_BYTES, rowBytes)) {
      try {
        const res = await this.ctx.run('upsert', this.milvusName, () => this.c.upsert({ collection_name: this.milvusName, data: part.map(encodeRow) as never }));
        const n = Number((res as { upsert_cnt?: unknown }).upsert_cnt);
        if (n !== part.length)
          throw new MemoryMatrixError(
            'BACKEND_ERROR',
            `milvus: upsert on collection ${this.milvusName}: the server acknowledged ${String((res as { upsert_cnt?: unknown }).upsert_cnt)} of ${part.length} rows`,
          );
      } catch (err) {
        throw new MemoryMatrixError('BACKEND_ERROR', `${(err as Error).message} (after ${done} of ${list.length} records of this call were written)`, { cause: err });
      }
      done += part.length;
    }
    await this.flush();
  }

  /** The records of `ids` (the kit's `get` puts them in the order asked). */
  protected async readByIds(ids: string[]): Promise<MemoryRecord[]> {
    return (await this.fetch(ids, OUTPUT_FIELDS)).map((row) => decodeRow(this.milvusName, row));
  }

  /** Delete by id; returns how many existed (each id once). Milvus's delete count is not per id, so existence is read first; flushed before it resolves. */
  protected async removeIds(ids: string[]): Promise<number> {
    const existing = (await this.fetch(ids, [FIELD.id])).map((r) => r[FIELD.id] as string);
    for (let i = 0; i < existing.length; i += this.ctx.maxBatch) {
      const part = existing.slice(i, i + this.ctx.maxBatch);
      await this.ctx.run('delete', this.milvusName, () => this.c.delete({ collection_name: this.milvusName, filter: idsExpr(part) }));
    }
    if (existing.length) await this.flush();
    return existing.length;
  }

  /** Number of memories, optionally under a filter (recall's semantics): `count(*)` under the filter's expression, Strong. */
  protected async countWhere(filter: RecallFilter | undefined): Promise<number> {
    const expr = filterExpr(filter);
    if (expr === null) return 0;
    return this.countExpr(expr);
  }

  /** Flush (the index is declared at creation; the server indexes what it holds). */
  async buildIndex(): Promise<void> {
    await this.flush();
  }

  /**
   * Top-k by canonical score (scores.ts), non-increasing, equal scores by id ascending. Milvus
   * `search` with limit k + TIE_MARGIN under the filter's expression, `ef` = max(efSearch, limit)
   * (Milvus requires ef ≥ limit for HNSW), consistency Strong; converted, re-sorted, cut at k.
   * `minScore` is a post-filter on the canonical score. `scan: 'exact'` runs on a FLAT collection
   * (`index: none`: brute force) and is CAPABILITY_MISSING on HNSW (Milvus has no per-query exact
   * path). With `decay`: spec `rerankWithDecay` over Milvus candidates with their stored createdAt.
   * Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, CAPABILITY_MISSING, BACKEND_ERROR.
   */
  protected async recallChecked(q: RecallQuery): Promise<RecallHit[]> {
    if (q.scan === 'exact' && this.indexType !== 'FLAT') {
      throw new MemoryMatrixError('CAPABILITY_MISSING', `milvus: collection ${this.spec.name}: no exact scan on an ${this.indexType} collection (Milvus searches through the field's one index)`);
    }
    const expr = filterExpr(q.filter);
    if (expr === null) return [];
    return this.rankOrDecay(q, this.decayOf(q), { total: () => this.countExpr(''), where: `milvus: collection ${this.milvusName}`, nearest: (n, withAt) => this.similar(q.vector, n, expr, withAt) });
  }

  /**
   * One keyset page in UTF-8 byte order of id: lists every id (`query` with `id > ""`, all ids are
   * non-empty), checks the listing against `count(*)`, takes the page with spec `keysetPage`, reads
   * those rows. O(n) per page. Throws INVALID_INPUT, BACKEND_ERROR, PAYLOAD_UNSUPPORTED.
   */
  async scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    const { after, limit } = validateScanOptions(opts, `milvus: collection ${this.spec.name}`);
    const res = await this.ctx.run('scan (list ids)', this.milvusName, () =>
      this.c.query({ collection_name: this.milvusName, filter: `${FIELD.id} > ""`, output_fields: [FIELD.id], consistency_level: CONSISTENCY as never }),
    );
    const listed = ((res as { data: Row[] }).data ?? []).map((r) => r[FIELD.id] as string);
    const count = await this.countExpr('');
    const unique = new Set(listed);
    if (unique.size !== count || listed.length !== count) {
      throw new MemoryMatrixError('BACKEND_ERROR', `milvus: scan of collection ${this.milvusName}: listing gave ${listed.length} ids (${unique.size} distinct) but count(*) is ${count}`);
    }
    const page = keysetPage(unique, after, limit);
    if (page.length === 0) return [];
    const rows = new Map((await this.fetch(page, OUTPUT_FIELDS)).map((r) => [r[FIELD.id] as string, r]));
    return page.flatMap((id) => (rows.has(id) ? [decodeRow(this.milvusName, rows.get(id)!)] : []));
  }

  /**
   * The vector index as the server reports it now (`describeIndex`): index_type → type (HNSW →
   * hnsw, FLAT → none), metric_type → metric, M → m, efConstruction. The search `ef` is an argument
   * of each search, not server state, so efSearch is not reported (extra names the ef this query
   * is sent with). Throws INVALID_INPUT (bad query), COLLECTION_MISSING, BACKEND_ERROR.
   */
  async indexInEffect(q: RecallQuery): Promise<IndexInEffect> {
    this.checks.query(q);
    const res = await this.ctx.run('describe index', this.milvusName, () => this.c.describeIndex({ collection_name: this.milvusName, field_name: FIELD.embedding }));
    const d = (res as { index_descriptions?: Array<{ params: Array<{ key: string; value: string }>; field_name: string }> }).index_descriptions?.find((x) => x.field_name === FIELD.embedding);
    if (!d) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: collection ${this.milvusName}: the server reports no index on ${FIELD.embedding}`);
    const p = Object.fromEntries(d.params.map((x) => [x.key, x.value]));
    const type = p.index_type === 'HNSW' ? 'hnsw' : p.index_type === 'FLAT' ? 'none' : String(p.index_type).toLowerCase();
    const params: IndexInEffect['params'] = {};
    if (p.M !== undefined) params.m = Number(p.M);
    if (p.efConstruction !== undefined) params.efConstruction = Number(p.efConstruction);
    const extra: Record<string, string> = {};
    if (this.spec.index.type === 'hnsw') extra['ef (search argument)'] = String(this.efFor(q.k + TIE_MARGIN));
    return { type, metric: metricOfMilvus(p.metric_type) ?? null, params, extra, source: `describeIndex ${this.milvusName}.${FIELD.embedding}: ${JSON.stringify(p)}` };
  }

  /** HNSW `ef` for a search of `limit` results: the declared efSearch, raised to `limit` (Milvus requires ef ≥ limit). */
  private efFor(limit: number): number {
    return isHnsw(this.spec.index) ? Math.max(this.spec.index.efSearch, limit) : 0;
  }

  /** Milvus's `n` nearest under `expr`, canonical scores sorted by score then id; with `withCreatedAt` each hit's stored createdAt. */
  private async similar(vector: Float32Array, n: number, expr: string, withCreatedAt: boolean): Promise<Array<RecallHit & { createdAt: string }>> {
    const limit = Math.min(n, MAX_TOPK);
    const params: Record<string, number> = this.spec.index.type === 'hnsw' ? { ef: this.efFor(limit) } : {};
    const res = await this.ctx.run('search', this.milvusName, () =>
      this.c.search({
        collection_name: this.milvusName,
        anns_field: FIELD.embedding,
        data: [Array.from(vector)],
        limit,
        filter: expr,
        params,
        output_fields: withCreatedAt ? [FIELD.id, FIELD.createdAt] : [FIELD.id],
        consistency_level: CONSISTENCY as never,
      }),
    );
    const results = ((res as { results?: Array<Record<string, unknown>> }).results ?? []) as Array<Record<string, unknown>>;
    const hits = results.map((r, i) => {
      const id = r[FIELD.id] ?? r.id;
      if (typeof id !== 'string' || typeof r.score !== 'number')
        throw new MemoryMatrixError('BACKEND_ERROR', `milvus: search on collection ${this.milvusName}: result ${i + 1} has no id/score (${JSON.stringify(r).slice(0, 200)})`);
      const at = withCreatedAt ? r[FIELD.createdAt] : '';
      if (typeof at !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `milvus: search on collection ${this.milvusName}: id ${id} has no ${FIELD.createdAt}`);
      return { id, score: milvusToCanonical(this.spec.metric, r.score), createdAt: at };
    });
    hits.sort(byScoreThenId);
    return hits;
  }

  /** `count(*)` under an expression ('' = all), Strong. */
  private async countExpr(expr: string): Promise<number> {
    const res = await this.ctx.run('count', this.milvusName, () =>
      this.c.query({ collection_name: this.milvusName, filter: expr, output_fields: ['count(*)'], consistency_level: CONSISTENCY as never }),
    );
    const v = (res as { data?: Row[] }).data?.[0]?.['count(*)'];
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: count on collection ${this.milvusName}: the server answered ${JSON.stringify(v)}`);
    return n;
  }

  /**
   * Rows of the ids that exist (unordered), `id in [...]` in chunks of maxBatch, Strong. An id with
   * LF/CR cannot be stored (validateRecord refuses it), so it is left out as missing rather than
   * sent in an expression no literal can carry.
   */
  private async fetch(all: string[], fields: string[]): Promise<Row[]> {
    const ids = all.filter((id) => !UNQUOTABLE.test(id));
    const out: Row[] = [];
    for (let i = 0; i < ids.length; i += this.ctx.maxBatch) {
      const part = ids.slice(i, i + this.ctx.maxBatch);
      const filter = idsExpr(part);
      const res = await this.ctx.run('get', this.milvusName, () => this.c.query({ collection_name: this.milvusName, filter, output_fields: fields, consistency_level: CONSISTENCY as never }));
      out.push(...((res as { data?: Row[] }).data ?? []));
    }
    return out;
  }

  private async flush(): Promise<void> {
    await this.ctx.run('flush', this.milvusName, () => this.c.flush({ collection_names: [this.milvusName] }));
  }
}
