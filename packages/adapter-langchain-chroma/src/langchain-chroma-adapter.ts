import type { Chroma as ChromaClass } from '@langchain/community/vectorstores/chroma';
import { CHROMA_PLAIN_FILTER_OPERATORS, chromaClientTransport } from '@memory-matrix/adapter-chroma';
import { vectorCapabilities, MemoryMatrixError, type Capabilities, type CollectionSpec, type ConnectOptions, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import { chromadbClient, type ChromadbMajor } from './clients';
import { LangchainChromaCollection } from './collection';
import { ADAPTER, StoreContext } from './context';
import { PRECOMPUTED_ONLY } from './embeddings';
import { collectionMetadata, lcName, specOf, validateName, validateSpec, type StoredCollection } from './marker';

/**
 * What LangChain.js' `Chroma` can do (declared before connecting; the catalog's client targets).
 * - recall: `similaritySearchVectorWithScore(vector, k, filter)` — Chroma's HNSW (no exact path:
 *   `exactScan: false`); no score threshold (`threshold: false`, C09) and no time decay
 *   (`timeDecay: false`, C24): the client offers neither, and the driver adds neither.
 * - filters: the client's `filter` is Chroma's `where` (passed on unchanged), so namespace, kind,
 *   metadata equality and the filter language as adapter-chroma compiles it for Chroma
 *   (`filterOperators`: CHROMA_PLAIN_FILTER_OPERATORS; layout.ts DOCUMENT_LAYOUT).
 * - writes: `addVectors(…, { ids })` (a Chroma upsert), `delete({ ids })`.
 * - `reopen` (`Chroma.fromExistingCollection`), `indexIntrospection` (the collection's stored
 *   configuration, read through the chromadb client LangChain wraps), `readYourWrites: strong`
 *   (the client caches nothing; the server's promise, as the raw chroma adapter measured it).
 * - no `maxBatch`: the client sends one request per call whatever its size (C14 shows what happens).
 */
export const LANGCHAIN_CHROMA_CAPABILITIES: Capabilities = vectorCapabilities({
  metrics: ['cosine', 'ip', 'l2'],
  exactScan: false,
  annIndexes: ['hnsw'],
  filterOperators: [...CHROMA_PLAIN_FILTER_OPERATORS],
  threshold: false,
  upsert: true,
  timeDecay: false,
  indexIntrospection: true,
  readYourWrites: 'strong',
});

/**
 * LangChain.js' `Chroma` class, loaded on first use: @langchain/community is large and its CommonJS
 * build requires `uuid` 14 (ES modules only), so the registry (which lists every driver) must not
 * load it for runs and tests that never open a langchain-chroma store.
 */
function langchainChroma(): typeof ChromaClass {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred load, see above
  return (require('@langchain/community/vectorstores/chroma') as { Chroma: typeof ChromaClass }).Chroma;
}

/** Options of `connectLangchainChroma`. */
export interface LangchainChromaOptions {
  /** The server's HTTP root, e.g. `http://127.0.0.1:8000`. */
  url: string;
  /** The chromadb client major under LangChain (clients.ts). Default `3`. */
  chromadb?: ChromadbMajor;
  /** `timeouts` (connect ms, whole request ms) and `clientName` (the fault controls find the transport by it): `chromaClientTransport`. */
  connect?: ConnectOptions;
}

/**
 * A new store: one chromadb client of the chosen major, over a memory-matrix transport registered
 * for the fault controls, that every LangChain `Chroma` of the store is handed as `index`. Asks
 * the server's heartbeat first. Throws INVALID_INPUT (bad option), BACKEND_ERROR naming the URL
 * when the server does not answer.
 */
export async function connectLangchainChroma(o: LangchainChromaOptions): Promise<LangchainChromaStore> {
  const major = o.chromadb ?? '3';
  const transport = chromaClientTransport(o.url, o.connect);
  const ctx = new StoreContext(chromadbClient(major, o.url, transport), major, o.url, transport);
  try {
    await ctx.run(`connect to ${o.url}`, undefined, () => ctx.client.heartbeat());
  } catch (err) {
    await transport.close();
    throw err;
  }
  return new LangchainChromaStore(ctx);
}

/** The LangChain.js `Chroma` `MemoryStore`: one LangChain vector store per collection, all on one chromadb client. */
export class LangchainChromaStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = LANGCHAIN_CHROMA_CAPABILITIES;

  constructor(private readonly ctx: StoreContext) {}

  /** `server`: `Chroma (API <v>) via LangChain.js Chroma, chromadb <major>.x`; components: `chromaApi` (GET version through the client). */
  async serverInfo(): Promise<ServerInfo> {
    const version = await this.ctx.run('version', undefined, () => this.ctx.client.version());
    return { server: `Chroma (API ${version}) via LangChain.js Chroma, chromadb ${this.ctx.major}.x`, components: { chromaApi: version } };
  }

  /**
   * A collection created the way a LangChain user creates one: `new Chroma(embeddings, { index,
   * collectionName, collectionMetadata, numDimensions })` + `ensureCollection()` (Chroma's
   * getOrCreate). The metric and HNSW parameters go in `collectionMetadata` as Chroma's `hnsw:*`
   * keys — the client's documented way; without them Chroma's default is squared L2 (C10), and the
   * client's typed `collectionConfiguration` argument is not used by its code (README). The space
   * is read back from the server and must be the one asked for. COLLECTION_EXISTS is checked first
   * through the chromadb client (LangChain's getOrCreate would silently reuse it).
   * Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING, BACKEND_ERROR.
   */
  async createCollection(spec: CollectionSpec): Promise<LangchainChromaCollection> {
    validateSpec(spec, this.capabilities.metrics);
    const name = lcName(spec.name);
    if (await this.stored(name)) throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: collection ${name} already exists`);
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    const store = new (langchainChroma())(PRECOMPUTED_ONLY, { index: this.ctx.client, collectionName: name, collectionMetadata: collectionMetadata(stored), numDimensions: spec.dim });
    const handle = await this.ctx.run('create collection', name, () => store.ensureCollection());
    const read = await this.stored(name);
    const space = read ? specOf(spec.name, read).metric : undefined;
    if (space !== spec.metric) {
      await this.ctx.run('drop collection', name, () => this.ctx.client.deleteCollection({ name }));
      throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: collection ${name} was created for metric ${spec.metric} but the server reports ${JSON.stringify(space)}; dropped`);
    }
    return new LangchainChromaCollection(this.ctx, stored, store, handle, name);
  }

  /**
   * Reopen through `Chroma.fromExistingCollection` (no collectionMetadata: what a second process of
   * a LangChain app does). Chroma's getOrCreate would CREATE a missing collection with the default
   * space, so existence is read first through the chromadb client; the spec (metric from the
   * server's configuration or the `hnsw:space` metadata, dim from the marker) is read there too,
   * never assumed. Throws COLLECTION_MISSING, BACKEND_ERROR.
   */
  async openCollection(name: string): Promise<LangchainChromaCollection> {
    validateName(name);
    const cname = lcName(name);
    const read = await this.stored(cname);
    if (!read) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name}: Chroma collection ${cname} does not exist`);
    const spec = specOf(name, read);
    const store = await this.ctx.run('open collection', cname, () =>
      langchainChroma().fromExistingCollection(PRECOMPUTED_ONLY, { index: this.ctx.client, collectionName: cname, numDimensions: spec.dim }),
    );
    return new LangchainChromaCollection(this.ctx, spec, store, store.collection!, cname);
  }

  /** Delete the Chroma collection (through the chromadb client: LangChain has no drop). Missing is not an error; one without this driver's marker is refused (INVALID_INPUT). */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const cname = lcName(name);
    const read = await this.stored(cname);
    if (!read) return;
    specOf(name, read, { markerOnly: true });
    await this.ctx.run('drop collection', cname, () => this.ctx.client.deleteCollection({ name: cname }));
  }

  /** Idempotent; later calls on this store or its collections throw BACKEND_ERROR. Closes the transport. */
  async close(): Promise<void> {
    this.ctx.closed = true;
    await this.ctx.transport.close();
  }

  /** The collection as the server stores it, or undefined when there is none (chromadb `getCollection`). */
  private async stored(cname: string): Promise<StoredCollection | undefined> {
    return this.ctx.run('read collection', cname, async () => {
      try {
        return (await this.ctx.client.getCollection({ name: cname } as never)) as unknown as StoredCollection;
      } catch (err) {
        if (/not\s*found|does not exist/i.test(`${(err as Error)?.name} ${(err as Error)?.message}`)) return undefined;
        throw err;
      }
    });
  }
}
