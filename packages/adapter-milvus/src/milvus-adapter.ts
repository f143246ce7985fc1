import { vectorCapabilities, MemoryMatrixError, type Capabilities, type CollectionSpec, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import { DataType, MilvusClient } from '@zilliz/milvus2-sdk-node';
import { MILVUS_FILTER_OPERATORS } from './filter-expr';
import { MilvusMemoryCollection } from './collection';
import { ADAPTER, CONSISTENCY, StoreContext, type CrashProbe } from './context';
import { FIELD, indexParams, markerDescription, MARKER, MAX_LENGTH, MILVUS_METRIC, milvusName, specFromStored } from './schema';
import { validateName, validateSpec } from './validate';

/**
 * Rows per insert/upsert request and per `id in [...]` list. The cost that grows with the request
 * is the client's, not the server's: @zilliz/milvus2-sdk-node 2.4.9 builds a request's float
 * vector column with `field.data = field.data.concat(row)` per row (dist/milvus/grpc/Data.js,
 * `insert`), which copies the whole column each time — quadratic in the rows of one request.
 * Measured in one run (that loop alone, 5,000 rows × 384, CPU time on this 2-core machine): 100
 * rows per request 3.5 s, 200 7.7 s, 500 19.6 s, 1,000 36.5 s; a golden load at 1,000 rows per
 * request under load average ~10 outran C02's 300 s limit. At 100 rows the per-request round
 * trips (the SDK also sends a DescribeCollection before each insert) are a few ms each.
 * Bytes are capped separately (collection.ts MAX_BATCH_BYTES).
 */
export const MAX_BATCH_ROWS = 100;

/** Client-side deadline of every request, ms (the SDK's `timeout`): a server that stops answering fails the call instead of hanging it. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Options of `createMilvusStore`. */
export interface MilvusStoreOptions {
  /** Server host; default `127.0.0.1`. */
  host?: string;
  /** Server gRPC port; default 19530. */
  port?: number;
  /** Per-request deadline in ms; default DEFAULT_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Asked after a failed call whether the server is gone (context.ts CrashProbe); the container driver supplies it. */
  crashProbe?: CrashProbe;
}

/**
 * What the Milvus adapter can do. `exactScan` false: a collection has one vector index and Milvus
 * has no per-query brute-force path on an HNSW index (C03 is skipped; an `index: none` collection
 * is FLAT, where every search is exact). `annIndexes`: `hnsw`. `maxBatch` MAX_BATCH_ROWS. `maxDim`
 * 32,768: Milvus docs "Milvus Limits" (https://milvus.io/docs/limitations.md), "Dimensions of a
 * vector: 32,768" (`proxy.maxDimension`); its HNSW takes any dimension a field can have (no `maxIndexDim`).
 */
export const MILVUS_CAPABILITIES: Capabilities = vectorCapabilities({
  // Strong consistency on every search/query and a flush before an upsert or delete returns (C27).
  readYourWrites: 'strong',
  metrics: ['cosine', 'ip', 'l2'],
  exactScan: false,
  annIndexes: ['hnsw'],
  // filter-expr.ts: every operator but $contains (flat scalar metadata, no metadataShapes)
  filterOperators: [...MILVUS_FILTER_OPERATORS],
  threshold: true,
  upsert: true,
  quantized: false,
  maxBatch: MAX_BATCH_ROWS,
  maxDim: 32_768,
  timeDecay: true,
  indexIntrospection: true,
});

/**
 * Open a Milvus store: a `@zilliz/milvus2-sdk-node` 2.4.9 `MilvusClient` with the SDK's retries
 * off (`maxRetries: 0`, `grpc.enable_retries: 0`: a failed request is reported, never repeated)
 * and a per-request deadline. Waits for the gRPC connection and makes one real request
 * (describeCollection of an absent name, which answers status code 100). Throws BACKEND_ERROR
 * naming host:port when the server does not answer.
 */
export async function createMilvusStore(opts: MilvusStoreOptions = {}): Promise<MilvusStore> {
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? 19530;
  const where = `${host}:${port}`;
  const timeout = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  let client: MilvusClient;
  try {
    client = new MilvusClient({ address: where, maxRetries: 0, timeout, logLevel: 'error', channelOptions: { 'grpc.enable_retries': 0 } });
  } catch (err) {
    throw new MemoryMatrixError('BACKEND_ERROR', `milvus: cannot create a client for ${where}: ${(err as Error).message}`, { cause: err });
  }
  const ctx = new StoreContext(client, where, MAX_BATCH_ROWS, opts.crashProbe);
  try {
    await ctx.run(
      `connect to ${where}`,
      undefined,
      async () => {
        await client.connectPromise;
        const r = await client.describeCollection({ collection_name: 'mm_connect_probe' });
        const code = r.status?.code;
        if (code !== 0 && code !== 100) throw new Error(`describeCollection answered code ${code}: ${r.status?.reason}`);
      },
      false,
    );
  } catch (err) {
    await client.closeConnection().catch(() => undefined);
    throw err;
  }
  return new MilvusStore(ctx);
}

/** The Milvus `MemoryStore`. Collections are Milvus collections `mm_<name>` whose description is the marker. */
export class MilvusStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities: Capabilities = MILVUS_CAPABILITIES;

  constructor(private readonly ctx: StoreContext) {}

  /**
   * kylin-ai-vector-engine answers GetVersion with an empty reply (`{}`, measured), so the server
   * names no version; `server` says so and `components` is empty. The container driver adds the
   * installed package version (driver/container.ts).
   */
  async serverInfo(): Promise<ServerInfo> {
    const v = await this.ctx.run('version', undefined, () => this.ctx.client.getVersion(), false);
    const version = (v as { version?: unknown }).version;
    return typeof version === 'string' && version ? { server: `Milvus ${version}`, components: { milvus: version } } : { server: 'Milvus gRPC API (GetVersion reports no version)', components: {} };
  }

  /**
   * Create `mm_<name>`: fields id (VarChar PK), namespace, kind, created_at, text (VarChar), metadata
   * and meta_types (JSON), created_ms and created_us (Int64), embedding (FloatVector dim); consistency Strong; the marker as
   * description. Then the vector index with the metric set explicitly (COSINE/IP/L2) — HNSW with M
   * and efConstruction, or FLAT for `index: none` — load, and read the index back: its
   * metric_type must be the spec's (C10), else the collection is dropped and BACKEND_ERROR thrown.
   * Throws COLLECTION_EXISTS, INVALID_INPUT, CAPABILITY_MISSING (ivfflat), BACKEND_ERROR.
   */
  async createCollection(spec: CollectionSpec): Promise<MilvusMemoryCollection> {
    validateSpec(spec, this.capabilities.metrics);
    const ix = indexParams(spec);
    const name = milvusName(spec.name);
    const c = this.ctx.client;
    if (await this.exists(name)) throw new MemoryMatrixError('COLLECTION_EXISTS', `milvus: collection ${name} already exists`);
    await this.ctx.run('create collection', name, () =>
      c.createCollection({
        collection_name: name,
        description: markerDescription(spec),
        consistency_level: CONSISTENCY as never,
        fields: [
          { name: FIELD.id, data_type: DataType.VarChar, is_primary_key: true, max_length: MAX_LENGTH.id },
          { name: FIELD.namespace, data_type: DataType.VarChar, max_length: MAX_LENGTH.namespace },
          { name: FIELD.kind, data_type: DataType.VarChar, max_length: MAX_LENGTH.kind },
          { name: FIELD.createdAt, data_type: DataType.VarChar, max_length: MAX_LENGTH.createdAt },
          { name: FIELD.text, data_type: DataType.VarChar, max_length: MAX_LENGTH.text },
          { name: FIELD.metadata, data_type: DataType.JSON },
          { name: FIELD.metaTypes, data_type: DataType.JSON },
          { name: FIELD.createdMs, data_type: DataType.Int64 },
          { name: FIELD.createdUs, data_type: DataType.Int64 },
          { name: FIELD.embedding, data_type: DataType.FloatVector, dim: spec.dim },
        ],
      }),
    );
    try {
      await this.ctx.run('create index', name, () =>
        c.createIndex({ collection_name: name, field_name: FIELD.embedding, index_type: ix.index_type, metric_type: MILVUS_METRIC[spec.metric], params: ix.params }),
      );
      const stored = await this.load(name, spec.name);
      if (stored.metric !== spec.metric) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: collection ${name} was created with metric ${spec.metric} but the server reports ${stored.metric}`);
    } catch (err) {
      await this.ctx.run('drop collection', name, () => c.dropCollection({ collection_name: name })).catch(() => undefined);
      throw err;
    }
    return new MilvusMemoryCollection(this.ctx, { ...spec, index: { ...spec.index } }, name, ix.index_type);
  }

  /** Reopen from the server's own description and index (metric from the index's metric_type, never a default); loads it. Throws COLLECTION_MISSING, BACKEND_ERROR. */
  async openCollection(name: string): Promise<MilvusMemoryCollection> {
    validateName(name);
    const mname = milvusName(name);
    const spec = await this.load(mname, name);
    return new MilvusMemoryCollection(this.ctx, spec, mname, spec.index.type === 'hnsw' ? 'HNSW' : 'FLAT');
  }

  /** Drop `mm_<name>`. Missing is not an error; one without the marker is refused (INVALID_INPUT). */
  async dropCollection(name: string): Promise<void> {
    validateName(name);
    const mname = milvusName(name);
    const d = await this.describe(mname);
    if (!d) return;
    let ours = false;
    try {
      ours = (JSON.parse(d.description) as { marker?: unknown })?.marker === MARKER;
    } catch {
      ours = false;
    }
    if (!ours) throw new MemoryMatrixError('INVALID_INPUT', `milvus: refusing to drop collection ${mname}: its description carries no memory-matrix marker, so this adapter did not create it`);
    await this.ctx.run('drop collection', mname, () => this.ctx.client.dropCollection({ collection_name: mname }));
  }

  /** Idempotent; later calls throw BACKEND_ERROR. Closes the gRPC channel. */
  async close(): Promise<void> {
    if (this.ctx.closed) return;
    this.ctx.closed = true;
    await this.ctx.client.closeConnection().catch(() => undefined);
  }

  /**
   * `describeCollection`: the schema and description, or undefined when the server answers
   * "collection not found" (status code 100). `hasCollection` is NOT used: kylin-ai-vector-engine
   * answers `value: true` for any name, even one never created (measured), and `ShowCollections`
   * crashes it.
   */
  private async describe(name: string): Promise<{ description: string; dim: number | undefined } | undefined> {
    const r = await this.ctx.run('describe collection', name, () => this.ctx.client.describeCollection({ collection_name: name }), false);
    if (r.status?.code === 100) return undefined;
    if (r.status?.code !== 0 || !r.schema) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: describe collection ${name} failed: ${r.status?.reason || 'no schema'} (code ${r.status?.code})`);
    const vec = r.schema.fields.find((f) => f.name === FIELD.embedding);
    const dimParam = (vec?.type_params as Array<{ key: string; value: unknown }> | undefined)?.find((p) => p.key === 'dim')?.value;
    return { description: r.schema.description ?? '', dim: dimParam === undefined ? undefined : Number(dimParam) };
  }

  private async exists(name: string): Promise<boolean> {
    return (await this.describe(name)) !== undefined;
  }

  /**
   * Loads collection `mname` (`loadCollectionAsync`, then `getLoadState` must say LoadStateLoaded:
   * `loadCollectionSync` throws a TypeError on this server's null status, measured) and returns its
   * spec as the server reports it (schema.ts specFromStored). COLLECTION_MISSING when absent.
   */
  private async load(mname: string, name: string): Promise<CollectionSpec> {
    const d = await this.describe(mname);
    if (!d) throw new MemoryMatrixError('COLLECTION_MISSING', `milvus: collection ${name}: Milvus collection ${mname} does not exist`);
    const ix = await this.ctx.run('describe index', mname, () => this.ctx.client.describeIndex({ collection_name: mname, field_name: FIELD.embedding }));
    const desc = ix.index_descriptions?.find((x) => x.field_name === FIELD.embedding);
    if (!desc) throw new MemoryMatrixError('BACKEND_ERROR', `milvus: collection ${mname} has no index on ${FIELD.embedding}`);
    const p = Object.fromEntries(desc.params.map((x) => [x.key, String(x.value)]));
    const spec = specFromStored(name, { description: d.description, dim: d.dim, metricType: p.metric_type, indexType: p.index_type, indexParams: p });
    await this.ctx.run('load collection', mname, () => this.ctx.client.loadCollectionAsync({ collection_name: mname }));
    const st = await this.ctx.run('load state', mname, () => this.ctx.client.getLoadState({ collection_name: mname }));
    if (String(st.state) !== 'LoadStateLoaded') throw new MemoryMatrixError('BACKEND_ERROR', `milvus: collection ${mname} is not loaded after load (state ${String(st.state)})`);
    return spec;
  }
}
