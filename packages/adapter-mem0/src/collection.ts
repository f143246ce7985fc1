import Database from 'better-sqlite3';
import {
  inAskedOrder,
  MAX_RECALL_K,
  MemoryMatrixError,
  validateIdList,
  type CollectionSpec,
  type MemoryCollection,
  type MemoryRecord,
  type RecallFilter,
  type RecallHit,
  type RecallQuery,
} from '@memory-matrix/spec';
import type { HandedEmbeddings } from './embedder';
import { ADAPTER, invalid, viaLayer, wrapLayerError } from './errors';
import { compileMem0Filter } from './filter-compile';
import { addMetadataOf, AGENT_ID, checkRecords, FIELD_KEYS, ID_RULES, mem0Filter, memoryIdOf, recordOf, type Mem0Item } from './records';
import { mem0ScoreToCanonical } from './scores';

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

/** The largest `topK` the driver asks `getAll` for when it needs every match (count, id look-ups). */
const ALL = 1_000_000_000;

/**
 * One collection = one mem0 `Memory` on its own embedded store file (`vectorStore: { provider:
 * 'memory', config: { dbPath } }`: better-sqlite3, table `vectors(id, vector BLOB, payload)`).
 * Every write and read of memories goes through `Memory`: `add(…, { infer: false })` (no LLM),
 * `getAll` with filters, `search`, `delete`. mem0 assigns its own uuid to each memory; the memory's
 * id travels in its metadata (records.ts) and is looked up with `getAll({ filters: { mm_id: { in } } })`.
 * The stored vector — which no mem0 API returns — is read from the store's file (`vectorsOf`).
 * Calls are serialised (one at a time per handle): the embedder hands out one vector per call.
 */
export class Mem0Collection implements MemoryCollection {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly memory: Mem0Memory,
    private readonly embeddings: HandedEmbeddings,
    readonly spec: CollectionSpec,
    private readonly dbPath: string,
  ) {}

  /**
   * One `Memory.add([{ role: 'user', content: text }], { userId: namespace, agentId, metadata,
   * infer: false })` per record, in order — not atomic: the records before a refused one stay.
   * Throws INVALID_INPUT (records.ts checks; mem0's refusals of an empty text or a namespace with
   * whitespace), CAPABILITY_MISSING for an id already stored (mem0's add always creates a new
   * memory: capability `upsert` false), DIMENSION_MISMATCH (mem0's dimension check), BACKEND_ERROR.
   */
  async upsert(records: MemoryRecord[]): Promise<void> {
    checkRecords(records, this.where);
    if (records.length === 0) return;
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

  /** Records by id (`getAll` by mm_id, the vectors from the store file), in the order asked, each once, missing ids left out. */
  async get(ids: string[]): Promise<MemoryRecord[]> {
    validateIdList(ids, `${this.where}: get`, ID_RULES);
    if (ids.length === 0) return [];
    return this.serial(async () => {
      const items = await this.itemsById(ids);
      const vectors = this.vectorsOf([...items.values()].map((i) => i.id));
      const byId = new Map<string, MemoryRecord>();
      for (const [id, item] of items) {
        const v = vectors.get(item.id);
        if (!v) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: ${this.where}: mem0 memory ${item.id} (id ${id}) has no stored vector`);
        byId.set(id, recordOf(item, v, this.where));
      }
      return inAskedOrder(ids, byId);
    });
  }

  /** `Memory.delete(mem0 id)` for each stored id; returns how many were stored (looked up just before). */
  async delete(ids: string[]): Promise<number> {
    validateIdList(ids, `${this.where}: delete`, ID_RULES);
    if (ids.length === 0) return 0;
    return this.serial(async () => {
      const items = await this.itemsById([...new Set(ids)]);
      for (const item of items.values()) await viaLayer(`delete of mem0 memory ${item.id} on ${this.where}`, () => this.memory.delete(item.id));
      return items.size;
    });
  }

  /** Memories under `filter` (`getAll` with mem0's filters, every match; a `where` compiled by filter-compile.ts). */
  async count(filter?: RecallFilter): Promise<number> {
    const filters = filter?.where !== undefined ? compileMem0Filter(filter, `${this.where}: count`) : mem0Filter(filter, `${this.where}: count`);
    return this.serial(async () => (await viaLayer(`getAll on ${this.where}`, () => this.memory.getAll({ filters, topK: ALL }))).results.length);
  }

  /** A no-op: mem0's embedded store has no index (every search scans every row). */
  async buildIndex(): Promise<void> {}

  /**
   * Top-k through `Memory.search(QUERY_TEXT, { filters, topK: k, threshold })`, the embedder handing
   * mem0 the query vector; hits in mem0's order, scores converted (scores.ts); a filter with `where`
   * compiled by filter-compile.ts (mem0 filters in JS after reading every row). `threshold` is
   * `minScore` when given (mem0 refuses one outside 0..1: INVALID_INPUT), else 0, the lowest mem0
   * takes (its default 0.1 drops hits). Throws INVALID_INPUT (k), CAPABILITY_MISSING (`decay`:
   * mem0's OSS Memory refuses its decay parameter), DIMENSION_MISMATCH, BACKEND_ERROR.
   */
  async recall(q: RecallQuery): Promise<RecallHit[]> {
    const where = `${this.where}: recall`;
    if (!Number.isInteger(q.k) || q.k < 1 || q.k > MAX_RECALL_K) throw invalid(`${where}: k must be an integer in 1..${MAX_RECALL_K}, got ${String(q.k)}`);
    if (q.decay !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: mem0's OSS Memory has no time-decayed search (capability timeDecay)`);
    const filters = q.filter?.where !== undefined ? compileMem0Filter(q.filter, where) : mem0Filter(q.filter, where);
    return this.serial(async () => {
      this.embeddings.expect(QUERY_TEXT, q.vector);
      const { results } = await viaLayer(`search (k ${q.k}) on ${this.where}`, () => this.memory.search(QUERY_TEXT, { filters, topK: q.k, threshold: q.minScore ?? 0 }));
      return results.map((item) => ({ id: memoryIdOf(item, where), score: mem0ScoreToCanonical(this.spec.metric, item.score) }));
    });
  }

  private get where(): string {
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

  /**
   * The float32 vectors mem0's embedded store keeps for these mem0 ids, read from its file
   * (`SELECT id, vector FROM vectors`, a read-only connection): mem0 returns no vector from
   * `get`, `getAll` or `search`, and the stored copy is what recall ranks.
   */
  private vectorsOf(mem0Ids: string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    if (mem0Ids.length === 0) return out;
    let db: Database.Database;
    try {
      db = new Database(this.dbPath, { readonly: true, fileMustExist: true });
    } catch (err) {
      throw wrapLayerError(err, `open mem0's store file ${this.dbPath} of ${this.where}`);
    }
    try {
      const stmt = db.prepare('SELECT id, vector FROM vectors WHERE id = ?');
      for (const id of mem0Ids) {
        const row = stmt.get(id) as { id: string; vector: Buffer } | undefined;
        if (row) out.set(row.id, new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)));
      }
    } finally {
      db.close();
    }
    return out;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
