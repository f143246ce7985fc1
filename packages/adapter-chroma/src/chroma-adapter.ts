import { vectorCapabilities, MemoryMatrixError, type Capabilities, type CollectionSpec, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import { ChromaClient } from 'chromadb';
import { chromaName } from './codec';
import { ChromaMemoryCollection } from './collection';
import { ADAPTER, chromaErrorName, StoreContext } from './context';
import { createConfiguration, isOurs, markerMetadata, specFromStored } from './marker';
import { metricOfSpace } from './scores';
import { ChromaTransport, type ChromaTimeouts } from './transport';
import { validateName, validateSpec } from './validate';
import { CHROMA_FILTER_OPERATORS } from './where';

/** Options of `createChromaStore`. */
export interface ChromaStoreOptions {
  /** Server host; default `127.0.0.1`. */
  host?: string;
  /** Server port; default 8000. */
  port?: number;
  /** HTTPS; default false. */
  ssl?: boolean;
  /** Chroma tenant / database; default the server's (`default_tenant` / `default_database`). */
  tenant?: string;
  database?: string;
  /** Client-side limits (connect, whole request); see `ChromaTransport`. Ignored when `transport` is given. */
  timeouts?: ChromaTimeouts;
  /** The HTTP transport to use (e.g. one a fault injector watches); the store closes it. Default: a new one with `timeouts`. */
  transport?: ChromaTransport;
}

/**
 * What the Chroma adapter can do. No exact scan (Chroma only answers through its HNSW, so C03 is
 * skipped); `maxBatch` is the server's and is filled in by `createChromaStore` from the server.
 */
export const CHROMA_CAPABILITIES: Capabilities = vectorCapabilities({
  metrics: ['cosine', 'ip', 'l2'],
  exactScan: false,
  annIndexes: ['hnsw'],
  // where.ts, the same on Chroma 1.0.0 and 1.4.4 (README "Filters"): all but $contains ($exists / $not on the type tags t.<key>)
  filterOperators: [...CHROMA_FILTER_OPERATORS],
  threshold: true,
  upsert: true,
  quantized: false,
  timeDecay: true,
  indexIntrospection: true,
  // add/upsert/delete resolve once the server has logged them, and a query reads the log not yet compacted into the index: C27.
  readYourWrites: 'strong',
});

/**
 * Open a Chroma store: a chromadb 3.x `ChromaClient` (no embedding function: embeddings are
 * always passed in). Asks the server for its heartbeat and max batch size (`getMaxBatchSize`,
 * the pre-flight checks), so writes are chunked by what THIS server accepts.
 * Throws BACKEND_ERROR naming host:port when the server does not answer.
 */
export async function createChromaStore(opts: ChromaStoreOptions = {}): Promise<ChromaStore> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 8000;
  const where = `${host}:${port}`;
  const transport = opts.transport ?? new ChromaTransport(opts.timeouts);
  // chromadb spreads fetchOptions into every Request; undici keeps its `dispatcher` (transport.ts).
  const client = new ChromaClient({ host, port, ssl: opts.ssl ?? false, tenant: opts.tenant, database: opts.database, fetchOptions: { dispatcher: transport } as unknown as RequestInit });
  const ctx = new StoreContext(client, 0, where, transport);
  let maxBatch: number;
  try {
    maxBatch = await ctx.run(`connect to ${where}`, undefined, async () => {
      await client.heartbeat();
      return client.getMaxBatchSize();
    });
  } catch (err) {
    await transport.close();
    throw err;
  }
  if (!Number.isInteger(maxBatch) || maxBatch < 1) {
    await transport.close();
    throw new MemoryMatrixError('BACKEND_ERROR', `chroma: ${where} reports max batch size ${maxBatch}`);
  }
  return new ChromaStore(new StoreContext(client, maxBatch, where, transport));
}

/** The Chroma `MemoryStore`. Collections are Chroma collections `mm_<name>` carrying a marker. */
export class ChromaStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities: Capabilities;

  constructor(private readonly ctx: StoreContext) {
    this.capabilities = { ...CHROMA_CAPABILITIES, maxBatch: ctx.maxBatch };
  }

  /** The server's max records per write request (what upsert chunks by). */
  get maxBatch(): number {
    return this.ctx.maxBatch;
  }

  /**
   * `server`: `Chroma (API <v>)`; components: `chromaApi` = GET /api/v2/version. That is the HTTP
   * API's version, not the release: the servers of chromadb-js-bindings 1.0.1 (`chroma --version`
   * 1.0.0) and 1.3.4 (`chroma --version` 1.4.4) both answer "1.0.0". The providers add the
   * release (`chroma`) from the CLI.
   */
  async serverInfo(): Promise<ServerInfo> {
    const version = await this.ctx.run('version', undefined, () => this.ctx.client.version());
    return { server: `Chroma (API ${version})`, components: { chromaApi: version } };
  }

  /**
   * Create the Chroma collection with the metric set explicitly and the HNSW parameters mapped
   * (marker.ts), then read the configuration back and require the same space (C10).
   * Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING, BACKEND_ERROR.
   */
  async createCollection(spec: CollectionSpec): Promise<ChromaMemoryCollection> {
    validateSpec(spec, this.capabilities.metrics);
    const cname = chromaName(spec.name);
    const stored: CollectionSpec = { ...spec, index: { ...spec.index } };
    const handle = await this.ctx.run('create collection', cname, async () => {
      try {
        return await this.ctx.client.createCollection({ name: cname, embeddingFunction: null, configuration: createConfiguration(spec) as never, metadata: markerMetadata(stored) });
      } catch (err) {
        if (chromaErrorName(err) === 'ChromaUniqueError') throw new MemoryMatrixError('COLLECTION_EXISTS', `chroma: collection ${cname} already exists`, { cause: err });
        throw err;
      }
    });
    const space = (handle.configuration as { hnsw?: { space?: unknown } } | undefined)?.hnsw?.space;
    if (metricOfSpace(space) !== spec.metric) {
      await this.ctx.run('drop collection', cname, () => this.ctx.client.deleteCollection({ name: cname }));
      throw new MemoryMatrixError('BACKEND_ERROR', `chroma: collection ${cname} was created with space ${spec.metric} but the server reports ${JSON.stringify(space)}; dropped`);
    }
    return new ChromaMemoryCollection(this.ctx, stored, handle, cname);
  }

  /** Reopen from the server's own record of the collection (metric from its configuration, never a default). Throws COLLECTION_MISSING, BACKEND_ERROR. */
  async openCollection(name: string): Promise<ChromaMemoryCollection> {
    validateName(name);
    const cname = chromaName(name);
    const handle = await this.ctx.run('open collection', cname, async () => {
      try {
        return await this.ctx.client.getCollection({ name: cname });
      } catch (err) {
        if (chromaErrorName(err) === 'ChromaNotFoundError') throw new MemoryMatrixError('COLLECTION_MISSING', `chroma: collection ${name}: Chroma collection ${cname} does not exist`, { cause: err });
        throw err;
      }
    });
    return new ChromaMemoryCollection(this.ctx, specFromStored(name, handle), handle, cname);
  }

  /** Delete the Chroma collection. Missing is not an error; one without our marker is refused (INVALID_INPUT). */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const cname = chromaName(name);
    await this.ctx.run('drop collection', cname, async () => {
      let handle;
      try {
        handle = await this.ctx.client.getCollection({ name: cname });
      } catch (err) {
        if (chromaErrorName(err) === 'ChromaNotFoundError') return;
        throw err;
      }
      if (!isOurs(handle)) throw new MemoryMatrixError('INVALID_INPUT', `chroma: refusing to drop collection ${cname}: it carries no memory-matrix marker, so this adapter did not create it`);
      await this.ctx.client.deleteCollection({ name: cname });
    });
  }

  /** Idempotent; later calls on this store or its collections throw BACKEND_ERROR. Closes the store's HTTP transport (its connection pool). */
  async close(): Promise<void> {
    this.ctx.closed = true;
    await this.ctx.transport?.close();
  }
}
