import { byScoreThenId, checksFrom, KitCollection, MemoryMatrixError } from '@memory-matrix/spec';
import type { CollectionSpec, IndexInEffect, MemoryRecord, RecallFilter, RecallHit, RecallQuery, ScanOptions } from '@memory-matrix/spec';
import type { Collection } from 'chromadb';
import { chunks, decodeRecord, encodeMetadata, filterToWhere, RESERVED } from './codec';
import type { StoreContext } from './context';
import { chromaToCanonical, metricOfSpace } from './scores';
import { scanCollection } from './scan';
import { validateFilter, validateIds, validateQuery, validateRecord } from './validate';

/** One memory-matrix collection = one Chroma collection (see codec.ts for the record layout). */
export class ChromaMemoryCollection extends KitCollection {
  constructor(
    private readonly ctx: StoreContext,
    readonly spec: CollectionSpec,
    private readonly handle: Collection,
    /** The Chroma collection's name (`mm_<name>`). */
    readonly chromaName: string,
  ) {
    super({ adapter: 'chroma', scope: `collection ${spec.name}`, arrayVerb: 'needs' }, checksFrom({ validateRecord, validateIds, validateFilter, validateQuery }, spec, spec.name));
  }

  /**
   * Insert or replace by id; within one call the LAST record with an id wins (C21). Every record
   * is validated before anything is sent (DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT).
   * Chroma's own `upsert` MERGES metadata into an existing record (keys the new memory no longer
   * has would survive: measured on 1.0.0), so existing ids are deleted first and every record is
   * then written whole, in requests of at most the server's max batch size (C14). Not atomic
   * across requests: when a request fails, the records this call wrote are deleted and the
   * previous versions it replaced are written back, then BACKEND_ERROR is thrown (its message
   * says whether that rollback succeeded). A request the transport cut (client request timeout,
   * connection cut; README "Timeouts and faults") rejects the same way; Chroma 1.4.4 was measured
   * to abandon an add whose connection dropped, but one add is applied in pieces that concurrent
   * readers can see.
   */
  protected async writeBatch(list: MemoryRecord[]): Promise<void> {
    const previous = await this.fetch(list.map((r) => r.id));
    const written: string[] = [];
    try {
      await this.deleteIds(previous.map((r) => r.id));
      for (const part of chunks(list, this.ctx.maxBatch)) {
        await this.write(part);
        written.push(...part.map((r) => r.id));
      }
    } catch (err) {
      const first = err instanceof MemoryMatrixError ? err : new MemoryMatrixError('BACKEND_ERROR', String(err), { cause: err });
      let rollback = 'rolled back: the records written by this call were deleted and the previous versions restored';
      try {
        await this.deleteIds(written);
        for (const part of chunks(previous, this.ctx.maxBatch)) await this.write(part);
      } catch (e) {
        rollback = `ROLLBACK FAILED (${(e as Error).message}): up to ${written.length} of ${list.length} records may have landed and ${previous.length} replaced records may be missing`;
      }
      throw new MemoryMatrixError('BACKEND_ERROR', `${first.message} (after ${written.length} of ${list.length} records; ${rollback})`, { cause: err });
    }
  }

  /** The records of `ids` (the kit's `get` puts them in the order asked). */
  protected readByIds(ids: string[]): Promise<MemoryRecord[]> {
    return this.fetch(ids);
  }

  /** One keyset page in UTF-8 byte order of id (scan.ts); records decoded as `get` decodes them. */
  scan(opts: ScanOptions): Promise<MemoryRecord[]> {
    return scanCollection(this.ctx, this.handle, this.chromaName, this.spec.name, opts);
  }

  /** Delete by id; returns how many existed (each id once). Chroma's delete reports no count, so existence is read first. */
  protected async removeIds(ids: string[]): Promise<number> {
    const existing = await this.existingIds(ids);
    await this.deleteIds(existing);
    return existing.length;
  }

  /** Number of memories, optionally under a filter (same semantics as recall's filter). */
  protected async countWhere(filter: RecallFilter | undefined): Promise<number> {
    const where = filterToWhere(filter);
    if (where === null) return 0;
    return this.ctx.run('count', this.chromaName, async () => {
      if (where === undefined) return this.handle.count();
      return (await this.handle.get({ where: where as never, include: [] })).ids.length;
    });
  }

  /** No-op: Chroma indexes on write (its HNSW is built incrementally as records arrive). */
  async buildIndex(): Promise<void> {}

  /**
   * Top-k by canonical score (scores.ts), non-increasing, equal scores by id ascending (UTF-16
   * code units). Chroma's HNSW is asked for k + TIE_MARGIN neighbours under the filter's `where`;
   * the adapter converts, re-sorts and cuts at k. `minScore` is a post-filter on the canonical
   * float64 score (so every target cuts at the same value). `scan: 'exact'` → CAPABILITY_MISSING
   * (Chroma has no exact path). With `decay` (and `now`): the decayed top-k by spec
   * `rerankWithDecay` over HNSW candidates with their stored createdAt (`mm.at`); Chroma cannot
   * compute it server-side. Throws DIMENSION_MISMATCH, INVALID_VECTOR, INVALID_INPUT, BACKEND_ERROR.
   */
  protected async recallChecked(q: RecallQuery): Promise<RecallHit[]> {
    if (q.scan === 'exact') throw new MemoryMatrixError('CAPABILITY_MISSING', `chroma: collection ${this.spec.name}: Chroma has no exact scan (recall goes through its HNSW index)`);
    const where = filterToWhere(q.filter);
    if (where === null) return [];
    const total = () => this.ctx.run('count', this.chromaName, () => this.handle.count());
    return this.rankOrDecay(q, this.decayOf(q), { total, where: `chroma: collection ${this.chromaName}`, nearest: (n, withAt) => this.similar(q.vector, n, where, withAt) });
  }

  /**
   * The collection's HNSW configuration as the server stores it, read back now (`getCollection`,
   * not the handle's copy from creation): `hnsw.space` → metric, `max_neighbors` → m,
   * `ef_construction` → efConstruction, `ef_search` → efSearch. Chroma answers every query from
   * that index (it has no exact path). `q` is validated as recall validates it. Throws
   * INVALID_INPUT, COLLECTION_MISSING (gone, or replaced by another collection of the same name),
   * BACKEND_ERROR (no HNSW configuration reported).
   */
  async indexInEffect(q: RecallQuery): Promise<IndexInEffect> {
    this.checks.query(q);
    return this.ctx.run('read configuration', this.chromaName, async () => {
      let stored;
      try {
        stored = await this.ctx.client.getCollection({ name: this.chromaName });
      } catch (err) {
        if ((err as { name?: unknown })?.name === 'ChromaNotFoundError') throw new MemoryMatrixError('COLLECTION_MISSING', `chroma: collection ${this.chromaName} does not exist`, { cause: err });
        throw err;
      }
      if (stored.id !== this.handle.id) throw new MemoryMatrixError('COLLECTION_MISSING', `chroma: collection ${this.chromaName} was replaced (id ${stored.id}, this handle's ${this.handle.id})`);
      const hnsw = (stored.configuration as { hnsw?: Record<string, unknown> | null } | undefined)?.hnsw;
      if (!hnsw)
        throw new MemoryMatrixError('BACKEND_ERROR', `chroma: collection ${this.chromaName}: the server reports no HNSW configuration (${JSON.stringify(stored.configuration)?.slice(0, 200)})`);
      const params: IndexInEffect['params'] = {};
      for (const [from, to] of [
        ['max_neighbors', 'm'],
        ['ef_construction', 'efConstruction'],
        ['ef_search', 'efSearch'],
      ] as const) {
        if (typeof hnsw[from] === 'number') params[to] = hnsw[from] as number;
      }
      return {
        type: 'hnsw',
        metric: metricOfSpace(hnsw.space) ?? null,
        params,
        source: `collection ${this.chromaName} configuration.hnsw ${JSON.stringify(hnsw)}`,
      };
    });
  }

  /** Chroma's `n` nearest under `where`, canonical scores, sorted by score then id; with `withCreatedAt` each hit's stored createdAt. */
  private async similar(vector: Float32Array, n: number, where: unknown, withCreatedAt: boolean): Promise<Array<RecallHit & { createdAt: string }>> {
    const include = withCreatedAt ? ['distances', 'metadatas'] : ['distances'];
    const res = await this.ctx.run('query', this.chromaName, () => this.handle.query({ queryEmbeddings: [Array.from(vector)], nResults: n, where: where as never, include: include as never }));
    const ids = res.ids[0] ?? [];
    const dists = (res.distances?.[0] ?? []) as Array<number | null>;
    const metas = (res.metadatas?.[0] ?? []) as Array<Record<string, unknown> | null>;
    const hits = ids.map((id, i) => {
      const d = dists[i];
      if (typeof d !== 'number') throw new MemoryMatrixError('BACKEND_ERROR', `chroma: query on collection ${this.chromaName}: no distance for id ${id} at rank ${i + 1}`);
      const at = withCreatedAt ? metas[i]?.[RESERVED.createdAt] : '';
      if (typeof at !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `chroma: query on collection ${this.chromaName}: id ${id} has no ${RESERVED.createdAt} metadata`);
      return { id, score: chromaToCanonical(this.spec.metric, d), createdAt: at };
    });
    hits.sort(byScoreThenId);
    return hits;
  }

  /** Full records of the ids that exist (unordered), fetched in chunks of the max batch. */
  private async fetch(ids: string[]): Promise<MemoryRecord[]> {
    const out: MemoryRecord[] = [];
    for (const part of chunks(ids, this.ctx.maxBatch)) {
      const r = await this.ctx.run('get', this.chromaName, () => this.handle.get({ ids: part, include: ['documents', 'metadatas', 'embeddings'] as never }));
      r.ids.forEach((id, i) => out.push(decodeRecord(this.chromaName, id, { document: r.documents[i], meta: r.metadatas[i] as Record<string, unknown> | null, embedding: r.embeddings[i] })));
    }
    return out;
  }

  private async existingIds(ids: string[]): Promise<string[]> {
    const out: string[] = [];
    for (const part of chunks(ids, this.ctx.maxBatch)) {
      out.push(...(await this.ctx.run('get', this.chromaName, () => this.handle.get({ ids: part, include: [] }))).ids);
    }
    return out;
  }

  private async deleteIds(ids: string[]): Promise<void> {
    for (const part of chunks(ids, this.ctx.maxBatch)) await this.ctx.run('delete', this.chromaName, () => this.handle.delete({ ids: part }));
  }

  /** One request: at most maxBatch records, each written whole (vector, text, metadata). */
  private write(part: MemoryRecord[]): Promise<void> {
    return this.ctx.run('upsert', this.chromaName, () =>
      this.handle.upsert({
        ids: part.map((r) => r.id),
        embeddings: part.map((r) => Array.from(r.embedding)),
        documents: part.map((r) => r.text),
        metadatas: part.map((r) => encodeMetadata(r)),
      }),
    );
  }
}
