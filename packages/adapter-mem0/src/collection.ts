import { checkLayerQuery, LayerCollection, MemoryMatrixError, type CollectionSpec, type MemoryRecord, type RecallFilter, type RecallHit, type RecallQuery } from '@memory-matrix/spec';
import type { HandedEmbeddings } from './embedder';
import { ADAPTER, viaLayer } from './errors';
import { addMetadataOf, AGENT_ID, checkRecords, FIELD_KEYS, ID_RULES, mem0Filter, memoryIdOf, recordOf, type Mem0Item } from './records';

/**
 * The query text `search` is given. The contract's recall carries a vector, not a text; mem0
 * embeds the text (the driver's embedder hands back the query vector) and also scores it with BM25
 * on the lemmatised text and entity boosts. "the" is a stop word: `lemmatizeForBm25("the")` is
 * empty, so `keywordSearch` returns nothing, and it names no entity, so the score is the vector
 * store's similarity alone (scores.ts). Measured with `explain: true` in test/mem0.test.ts.
 */
export const QUERY_TEXT = 'the';

/** The part of mem0's `Memory` the driver calls (mem0ai 3.3.1 `mem0ai/oss`). */
export interface Mem0Memory {
  add(messages: Array<{ role: string; content: string }>, config: Record<string, unknown>): Promise<{ results: Array<{ id: string }> }>;
  getAll(config: Record<string, unknown>): Promise<{ results: Mem0Item[] }>;
  search(query: string, config: Record<string, unknown>): Promise<{ results: Mem0Item[] }>;
  delete(memoryId: string): Promise<unknown>;
}

/**
 * What differs between mem0's vector stores under one `Memory` (the store kind a collection runs
 * on): `vectorsOf` reads the stored float32 vectors of mem0 ids (no mem0 API returns them) from the
 * store's own storage, keyed by mem0 id, leaving out ids not stored; `compileWhere` writes a filter
 * with `where` in that store's filter syntax (CAPABILITY_MISSING for what it cannot hold);
 * `toCanonical` converts a `Memory.search` score.
 */
export interface Mem0StoreKind {
  vectorsOf(mem0Ids: string[], where: string): Promise<Map<string, Float32Array>>;
  compileWhere(filter: RecallFilter, where: string): Record<string, unknown>;
  toCanonical(metric: CollectionSpec['metric'], score: number | null | undefined): number;
  /** Called after every call on the collection settles (pg-store.ts: guards the pg clients mem0 opened during it). */
  afterCall?(): void;
}

/** The largest `topK` the driver asks `getAll` for when it needs every match (count, id look-ups). */
const ALL = 1_000_000_000;

/**
 * One collection = one mem0 `Memory` on its own vector store: the embedded store's file
 * (`provider: 'memory'`, better-sqlite3, table `vectors(id, vector BLOB, payload)`) or a pgvector
 * table (`provider: 'pgvector'`); `kind` holds what differs between them (Mem0StoreKind).
 * Every write and read of memories goes through `Memory`: `add(…, { infer: false })` (no LLM),
 * `getAll` with filters, `search`, `delete`. mem0 assigns its own uuid to each memory; the memory's
 * id travels in its metadata (records.ts) and is looked up with `getAll({ filters: { mm_id: { in } } })`.
 * The stored vector — which no mem0 API returns — is read from the store's storage (`kind.vectorsOf`).
 * Calls are serialised (one at a time per handle): the embedder hands out one vector per call.
 */
export class Mem0Collection extends LayerCollection {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly memory: Mem0Memory,
    private readonly embeddings: HandedEmbeddings,
    readonly spec: CollectionSpec,
    private readonly kind: Mem0StoreKind,
  ) {
    super({ records: checkRecords, ids: ID_RULES });
  }

  /**
   * One `Memory.add([{ role: 'user', content: text }], { userId: namespace, agentId, metadata,
   * infer: false })` per record, in order — not atomic: the records before a refused one stay.
   * Throws INVALID_INPUT (records.ts checks; mem0's refusals of an empty text or a namespace with
   * whitespace), CAPABILITY_MISSING for an id already stored (mem0's add always creates a new
   * memory: capability `upsert` false), DIMENSION_MISMATCH (mem0's dimension check), BACKEND_ERROR.
   */
  protected async writeRecords(records: MemoryRecord[]): Promise<void> {
    await this.serial(async () => {
      const stored = await this.itemsById(records.map((r) => r.id));
      const again = records.find((r) => stored.has(r.id));
      if (again) throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${this.where}: id ${again.id} is already stored; mem0's add creates a new memory every time (capability upsert)`);
      for (const r of records) {
        this.embeddings.expect(r.text, r.embedding);
        await viaLayer(`add of memory ${r.id} on ${this.where}`, () =>
          this.memory.add([{ role: 'user', content: r.text }], { userId: r.namespace, agentId: AGENT_ID, metadata: addMetadataOf(r), infer: false }),
        );
      }
    });
  }

  /** Records by id (`getAll` by mm_id over the ids as asked, the vectors from the store's storage). */
  protected async readByIds(_unique: string[], asked: string[]): Promise<Map<string, MemoryRecord>> {
    return this.serial(async () => {
      const items = await this.itemsById(asked);
      const vectors = await this.kind.vectorsOf(
        [...items.values()].map((i) => i.id),
        this.where,
      );
      const byId = new Map<string, MemoryRecord>();
      for (const [id, item] of items) {
        const v = vectors.get(item.id);
        if (!v) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${this.where}: mem0 memory ${item.id} (id ${id}) has no stored vector`);
        byId.set(id, recordOf(item, v, this.where));
      }
      return byId;
    });
  }

  /** `Memory.delete(mem0 id)` for each stored id; returns how many were stored (looked up just before). */
  protected async removeIds(unique: string[]): Promise<number> {
    return this.serial(async () => {
      const items = await this.itemsById(unique);
      for (const item of items.values()) await viaLayer(`delete of mem0 memory ${item.id} on ${this.where}`, () => this.memory.delete(item.id));
      return items.size;
    });
  }

  /** Memories under `filter` (`getAll` with mem0's filters, every match; a `where` compiled by filter-compile.ts). */
  async count(filter?: RecallFilter): Promise<number> {
    const filters = filter?.where !== undefined ? this.kind.compileWhere(filter, `${this.where}: count`) : mem0Filter(filter, `${this.where}: count`);
    return this.serial(async () => (await viaLayer(`getAll on ${this.where}`, () => this.memory.getAll({ filters, topK: ALL }))).results.length);
  }

  /** A no-op: the driver builds no index on either store (every search scans every row). */
  async buildIndex(): Promise<void> {}

  /**
   * Top-k through `Memory.search(QUERY_TEXT, { filters, topK: k, threshold })`, the embedder handing
   * mem0 the query vector; hits in mem0's order, scores converted (scores.ts); a filter with `where`
   * compiled by the store kind's compiler. `threshold` is
   * `minScore` when given (mem0 refuses one outside 0..1: INVALID_INPUT), else 0, the lowest mem0
   * takes (its default 0.1 drops hits). Throws INVALID_INPUT (k), CAPABILITY_MISSING (`decay`:
   * mem0's OSS Memory refuses its decay parameter), DIMENSION_MISMATCH, BACKEND_ERROR.
   */
  async recall(q: RecallQuery): Promise<RecallHit[]> {
    const where = `${this.where}: recall`;
    checkLayerQuery(q, `${ADAPTER}: ${where}`, "mem0's OSS Memory has no time-decayed search");
    const filters = q.filter?.where !== undefined ? this.kind.compileWhere(q.filter, where) : mem0Filter(q.filter, where);
    return this.serial(async () => {
      this.embeddings.expect(QUERY_TEXT, q.vector);
      const { results } = await viaLayer(`search (k ${q.k}) on ${this.where}`, () => this.memory.search(QUERY_TEXT, { filters, topK: q.k, threshold: q.minScore ?? 0 }));
      return results.map((item) => ({ id: memoryIdOf(item, where), score: this.kind.toCanonical(this.spec.metric, item.score) }));
    });
  }

  protected get where(): string {
    return `collection ${this.spec.name}`;
  }

  /** mem0 items by memory id (`getAll` with `mm_id: { in: ids }`); BACKEND_ERROR when one memory id is stored twice. */
  private async itemsById(ids: string[]): Promise<Map<string, Mem0Item>> {
    const { results } = await viaLayer(`getAll by id on ${this.where}`, () => this.memory.getAll({ filters: { agent_id: AGENT_ID, [FIELD_KEYS.id]: { in: ids } }, topK: ALL }));
    const out = new Map<string, Mem0Item>();
    for (const item of results) {
      const id = memoryIdOf(item, this.where);
      if (out.has(id)) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${this.where}: id ${id} is stored as two mem0 memories (${out.get(id)!.id}, ${item.id})`);
      out.set(id, item);
    }
    return out;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const call = () => fn().finally(() => this.kind.afterCall?.());
    const run = this.queue.then(call, call);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
