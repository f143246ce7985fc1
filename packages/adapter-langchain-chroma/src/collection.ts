import type { Chroma } from '@langchain/community/vectorstores/chroma';
import { LayerCollection, MemoryMatrixError, type CollectionSpec, type IndexInEffect, type MemoryRecord, type RecallFilter, type RecallHit, type RecallQuery } from '@memory-matrix/spec';
import type { Collection } from 'chromadb';
import { metricOfSpace } from '@memory-matrix/adapter-chroma';
import { ADAPTER, type StoreContext } from './context';
import { decodeRecord, documentMetadata, filterToWhere } from './layout';
import { hnswOf, type StoredCollection } from './marker';
import { LANGCHAIN_CHROMA_SCORES } from './scores';

/**
 * One memory-matrix collection = one LangChain `Chroma` vector store on one Chroma collection.
 * Writes, deletes and recall go through LangChain's API; reads LangChain has no API for (get by
 * id, count, which ids exist, the stored configuration) go through the chromadb `Collection`
 * LangChain itself holds (`Chroma.collection`), as a LangChain user checking what was written would.
 * Inputs are handed to the client as they are (no vector validation of the driver's own: C11, C12
 * and C13 measure what LangChain and Chroma do); client errors get a code only where their text
 * says what they are (context.ts).
 */
export class LangchainChromaCollection extends LayerCollection {
  constructor(
    private readonly ctx: StoreContext,
    readonly spec: CollectionSpec,
    /** The LangChain vector store of this collection. */
    readonly store: Chroma,
    /** The chromadb collection LangChain wraps (raw reads). */
    private readonly handle: Collection,
    /** The Chroma collection's name (`lc_<name>`). */
    readonly chromaName: string,
  ) {
    super({
      // An array, nothing more (the records go to the client as they are).
      records: (records, where) => {
        if (!Array.isArray(records)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${where}: upsert needs an array of records`);
      },
      ids: (ids, op) => {
        if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string')) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection ${spec.name}: ${op} needs an array of string ids`);
      },
    });
  }

  /** What messages name: `collection <name>`. */
  protected get where(): string {
    return `collection ${this.spec.name}`;
  }

  /**
   * `Chroma.addVectors(vectors, documents, { ids })`: ONE Chroma `upsert` of the whole call (the
   * client does not chunk). Chroma's upsert merges metadata into an existing record (the raw
   * adapter measured it), and the client does nothing about it: C21 shows what a LangChain user gets.
   */
  protected async writeRecords(records: MemoryRecord[]): Promise<void> {
    const where = `${ADAPTER}: collection ${this.spec.name}: upsert`;
    const docs = records.map((r) => ({ pageContent: r.text, metadata: documentMetadata(r, where), id: r.id }));
    const vectors = records.map((r) => Array.from(r.embedding ?? []));
    await this.ctx.run('upsert (addVectors)', this.chromaName, () => this.store.addVectors(vectors, docs, { ids: records.map((r) => r.id) }));
  }

  /** Records by id: chromadb `get` (LangChain has none). Embeddings as Chroma returns them. */
  protected async readByIds(unique: string[]): Promise<Map<string, MemoryRecord>> {
    const r = await this.ctx.run('get', this.chromaName, () => this.handle.get({ ids: unique, include: ['documents', 'metadatas', 'embeddings'] as never }));
    const found = new Map<string, MemoryRecord>();
    r.ids.forEach((id, i) => found.set(id, decodeRecord(this.chromaName, id, { document: r.documents[i], meta: r.metadatas[i] as Record<string, unknown> | null, embedding: r.embeddings?.[i] })));
    return found;
  }

  /** `Chroma.delete({ ids })` (it reports no count: which ids exist is read first through chromadb `get`); returns how many existed. */
  protected async removeIds(unique: string[]): Promise<number> {
    const existing = (await this.ctx.run('get', this.chromaName, () => this.handle.get({ ids: unique, include: [] as never }))).ids;
    if (existing.length) await this.ctx.run('delete', this.chromaName, () => this.store.delete({ ids: existing }));
    return existing.length;
  }

  /** chromadb `count()`, or the ids `get({ where })` lists under a filter (same `where` as recall). */
  async count(filter?: RecallFilter): Promise<number> {
    const where = filterToWhere(filter);
    if (where === null) return 0;
    return this.ctx.run('count', this.chromaName, async () => {
      if (where === undefined) return this.handle.count();
      return (await this.handle.get({ where: where as never, include: [] as never })).ids.length;
    });
  }

  /** No-op: Chroma indexes on write. */
  async buildIndex(): Promise<void> {}

  /**
   * `Chroma.similaritySearchVectorWithScore(vector, k, filter)`: Chroma's HNSW top-k, each distance
   * converted to the canonical score (scores.ts), in the order the client returns them (no re-sort,
   * no tie window: C06 and C07 see the client's order). `scan: 'exact'`, `minScore` and `decay`
   * are CAPABILITY_MISSING: the client has no exact path, threshold or decay. Throws
   * DIMENSION_MISMATCH (as the server words it), CAPABILITY_MISSING, BACKEND_ERROR.
   */
  async recall(q: RecallQuery): Promise<RecallHit[]> {
    const at = `${ADAPTER}: collection ${this.spec.name}: recall`;
    if (typeof q !== 'object' || q === null || !(q.vector instanceof Float32Array) || !Number.isInteger(q.k) || q.k < 1)
      throw new MemoryMatrixError('INVALID_INPUT', `${at}: needs a Float32Array vector and an integer k ≥ 1`);
    if (q.scan === 'exact') throw new MemoryMatrixError('CAPABILITY_MISSING', `${at}: LangChain's Chroma has no exact scan (recall goes through Chroma's HNSW)`);
    if (q.minScore !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${at}: LangChain's Chroma has no score threshold`);
    if (q.decay !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${at}: LangChain's Chroma has no time decay`);
    const where = filterToWhere(q.filter);
    if (where === null) return [];
    const pairs = await this.ctx.run('query (similaritySearchVectorWithScore)', this.chromaName, () => this.store.similaritySearchVectorWithScore(Array.from(q.vector), q.k, where as never));
    return pairs.map(([doc, d], i) => {
      if (typeof doc.id !== 'string') throw new MemoryMatrixError('BACKEND_ERROR', `${at}: the client returned a document without id at rank ${i + 1}`);
      return { id: doc.id, score: LANGCHAIN_CHROMA_SCORES.toCanonical(this.spec.metric, d) };
    });
  }

  /**
   * The HNSW settings the server stores for the collection, read now through the chromadb client
   * (`getCollection`): space → metric, m, efConstruction, efSearch (marker.ts `hnswOf`). Chroma
   * answers every query from that index. Throws COLLECTION_MISSING (gone or replaced), BACKEND_ERROR.
   */
  async indexInEffect(q: RecallQuery): Promise<IndexInEffect> {
    if (!(q?.vector instanceof Float32Array)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection ${this.spec.name}: indexInEffect needs a recall query`);
    const c = (await this.ctx.run('read configuration', this.chromaName, () => this.ctx.client.getCollection({ name: this.chromaName } as never))) as unknown as StoredCollection & { id: string };
    if (c.id !== this.handle.id) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${this.chromaName} was replaced (id ${c.id}, this handle's ${this.handle.id})`);
    const h = hnswOf(c);
    const params: IndexInEffect['params'] = {};
    for (const [k, v] of [
      ['m', h.m],
      ['efConstruction', h.efConstruction],
      ['efSearch', h.efSearch],
    ] as const)
      if (typeof v === 'number') params[k] = v;
    return { type: 'hnsw', metric: metricOfSpace(h.space) ?? null, params, source: `collection ${this.chromaName} ${h.source}` };
  }
}
