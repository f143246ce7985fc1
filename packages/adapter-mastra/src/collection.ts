import { checkLayerQuery, LayerCollection, type CollectionSpec, type MemoryRecord, type RecallFilter, type RecallHit, type RecallQuery } from '@memory-matrix/spec';
import { ADAPTER, viaMastra } from './errors';
import { compileMastraFilter } from './filter-compile';
import { checkRecords, FIELD_KEYS, ID_RULES, metadataOf, plainFilter, recordOf, type MastraHit } from './records';
import { mastraScoreToCanonical } from './scores';

/**
 * The part of Mastra's `MastraVector` the driver calls (@mastra/core 0.24.9 vector/vector.d.ts;
 * implemented by @mastra/pg 0.17.10 `PgVector` and @mastra/libsql 0.16.4 `LibSQLVector`).
 */
export interface MastraVectorLike {
  createIndex(args: { indexName: string; dimension: number; metric?: 'cosine' | 'euclidean' | 'dotproduct'; indexConfig?: Record<string, unknown> }): Promise<void>;
  upsert(args: { indexName: string; vectors: number[][]; metadata?: Array<Record<string, unknown>>; ids?: string[] }): Promise<string[]>;
  query(args: { indexName: string; queryVector: number[]; topK?: number; filter?: Record<string, unknown>; includeVector?: boolean; minScore?: number }): Promise<MastraHit[]>;
  listIndexes(): Promise<string[]>;
  describeIndex(args: { indexName: string }): Promise<{ dimension: number; count: number; metric?: string }>;
  deleteIndex(args: { indexName: string }): Promise<void>;
  deleteVectors(args: { indexName: string; ids: string[] }): Promise<void>;
}

/**
 * One collection = one Mastra index (`mm_<name>`: Mastra's table `vector_id TEXT UNIQUE,
 * embedding, metadata`). Every call goes through Mastra's vector API:
 * - `upsert` → `upsert({ indexName, vectors, metadata, ids })` (one transaction, ON CONFLICT
 *   (vector_id) DO UPDATE: a true upsert);
 * - `recall` → `query({ queryVector, topK, filter, minScore })`;
 * - `get` → `query` with filter `{ mm_id: { $in: ids } }`, topK = the ids asked, includeVector
 *   (Mastra has no get by id; with no index the query scans every row, so every stored id comes
 *   back — except a vector whose score against the probe is −1 or NaN: README "What the driver does");
 * - `count` → `describeIndex().count` without a filter, else `query` under the filter with topK =
 *   that count (the rows a recall under the filter can see);
 * - `delete` → `deleteVectors({ ids })`, counted with `get` just before (not atomic with it).
 */
export class MastraCollection extends LayerCollection {
  constructor(
    private readonly vector: MastraVectorLike,
    readonly spec: CollectionSpec,
    readonly indexName: string,
  ) {
    super({ records: checkRecords, ids: ID_RULES });
  }

  /**
   * One Mastra `upsert` of all records. Throws INVALID_INPUT (records.ts checks), DIMENSION_MISMATCH /
   * INVALID_VECTOR as Mastra or the database refuses a vector, BACKEND_ERROR.
   */
  protected async writeRecords(records: MemoryRecord[]): Promise<void> {
    await viaMastra(`upsert of ${records.length} vectors on ${this.where}`, () =>
      this.vector.upsert({ indexName: this.indexName, vectors: records.map((r) => Array.from(r.embedding)), metadata: records.map(metadataOf), ids: records.map((r) => r.id) }),
    );
  }

  /** Records by id (Mastra `query` by `mm_id`, includeVector). */
  protected async readByIds(unique: string[]): Promise<Map<string, MemoryRecord>> {
    const hits = await this.byIds(unique, true);
    const byId = new Map<string, MemoryRecord>();
    for (const h of hits) byId.set(h.id, recordOf(h, this.where));
    return byId;
  }

  /** `deleteVectors({ ids })` of the stored ones; returns how many were stored (looked up just before). */
  protected async removeIds(unique: string[]): Promise<number> {
    const stored = (await this.byIds(unique, false)).map((h) => h.id);
    if (stored.length === 0) return 0;
    await viaMastra(`deleteVectors of ${stored.length} ids on ${this.where}`, () => this.vector.deleteVectors({ indexName: this.indexName, ids: stored }));
    return stored.length;
  }

  /** Rows under `filter`: `describeIndex().count` without one; else a Mastra `query` under it with topK = that count (see the class). */
  async count(filter?: RecallFilter): Promise<number> {
    const where = `${this.where}: count`;
    const compiled = filter?.where !== undefined ? compileMastraFilter(filter, where) : plainFilter(filter, where);
    const { count } = await viaMastra(`describeIndex of ${this.where}`, () => this.vector.describeIndex({ indexName: this.indexName }));
    if (compiled === undefined || count === 0) return count;
    const hits = await viaMastra(`query (count) on ${this.where}`, () => this.vector.query({ indexName: this.indexName, queryVector: this.probe(), topK: count, filter: compiled }));
    return hits.length;
  }

  /** A no-op: the driver's collections have no index (Mastra's `flat`): every query scans every row. */
  async buildIndex(): Promise<void> {}

  /**
   * Top-k through Mastra's `query({ queryVector, topK: k, filter, minScore })`, hits in Mastra's
   * order, scores as Mastra returns them (scores.ts). `minScore` goes to Mastra as it is (Mastra
   * keeps `score > minScore`, strictly); absent, Mastra's default −1 applies. Throws INVALID_INPUT
   * (k), CAPABILITY_MISSING (`decay`), DIMENSION_MISMATCH / INVALID_VECTOR, BACKEND_ERROR.
   */
  async recall(q: RecallQuery): Promise<RecallHit[]> {
    const where = `${this.where}: recall`;
    checkLayerQuery(q, `${ADAPTER}: ${where}`, "Mastra's vector query has no time decay");
    const filter = q.filter?.where !== undefined ? compileMastraFilter(q.filter, where) : plainFilter(q.filter, where);
    const hits = await viaMastra(`query (k ${q.k}) on ${this.where}`, () =>
      this.vector.query({ indexName: this.indexName, queryVector: Array.from(q.vector), topK: q.k, ...(filter ? { filter } : {}), ...(q.minScore !== undefined ? { minScore: q.minScore } : {}) }),
    );
    return hits.map((h) => ({ id: h.id, score: mastraScoreToCanonical(this.spec.metric, h.score) }));
  }

  protected get where(): string {
    return `collection ${this.spec.name} (index ${this.indexName})`;
  }

  /** The unit vector e1 of the collection's dimension: the query vector of the id look-ups (Mastra's query needs one). */
  private probe(): number[] {
    const v = new Array<number>(this.spec.dim).fill(0);
    v[0] = 1;
    return v;
  }

  private async byIds(ids: string[], includeVector: boolean): Promise<MastraHit[]> {
    return viaMastra(`query by id on ${this.where}`, () =>
      this.vector.query({ indexName: this.indexName, queryVector: this.probe(), topK: ids.length, filter: { [FIELD_KEYS.id]: { $in: ids } }, includeVector }),
    );
  }
}
