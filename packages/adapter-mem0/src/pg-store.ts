import { ident, literalToVector } from '@memory-matrix/adapter-pgvector';
import { capabilities, MemoryMatrixError, type Capabilities, type CollectionSpec, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import type { Pool } from 'pg';
import { Mem0Collection, type Mem0Memory, type Mem0StoreKind } from './collection';
import { HandedEmbeddings } from './embedder';
import { ADAPTER, invalid, viaLayer } from './errors';
import { MEM0_CAPABILITIES, checkName, mem0Module } from './mem0-adapter';
import { compileMem0PgFilter, MEM0_PG_FILTER_OPERATORS } from './pg-filter-compile';
import { mem0PgScoreToCanonical } from './scores';
import { mem0PackageVersions, PGVECTOR_PACKAGES } from './versions';

/**
 * What mem0's `Memory` over its pgvector store can do (README "Over pgvector"): as over the
 * embedded store (same layer: no upsert, cosine, threshold 0..1), except the filter operators —
 * mem0's pgvector store pushes its filter into the SQL WHERE (pg-filter-compile.ts), which has an
 * existence test — and the storage: a table on the server, strong read-your-writes (each
 * statement autocommits before `add` / `delete` resolve).
 */
export const MEM0_PG_CAPABILITIES: Capabilities = capabilities({
  ...MEM0_CAPABILITIES,
  // PGVector.search: ORDER BY vector <=> $1 (cosine distance) only; no index unless config.hnsw (not set): every search is exact.
  metrics: ['cosine'],
  exactScan: true,
  filterOperators: [...MEM0_PG_FILTER_OPERATORS],
  readYourWrites: 'strong',
});

/** The driver's own table: one row per collection, the spec mem0 does not record (metric, dim, embedding model). */
const MARKERS = 'mm_mem0_collections';

/** mem0's table of collection `name` (`collectionName`); mem0 adds `<table>_entities` for its entity store. */
export const tableOf = (name: string): string => `mm_mem0_${name}`;

/** A mem0 vector store handle as `Memory` keeps it after initialising (PGVector: `client`, its pg Client; `close()` ends it). */
interface ClosableStore {
  client?: { on?(event: 'error', listener: (err: Error) => void): unknown };
  close?(): Promise<void>;
}

/** The stores (`vectorStore`, the entity store) a `Memory` has opened so far. */
const storesOf = (m: Mem0Memory): ClosableStore[] => {
  const held = m as unknown as { vectorStore?: ClosableStore; _entityStore?: ClosableStore };
  return [held.vectorStore, held._entityStore].filter((s): s is ClosableStore => s !== undefined);
};

/**
 * mem0's PGVector opens a pg Client and attaches no 'error' listener: when the server ends an idle
 * session (a restart, pg_terminate_backend, shutdown: FATAL 57P01), node-postgres emits 'error' on
 * the Client and the process dies with an unhandled 'error' event (measured: README "Over
 * pgvector"). The driver owns the process, so it listens, as node-postgres requires of a client's
 * owner; the error then surfaces on the Client's next query ("Client was closed and is not
 * queryable" → BACKEND_ERROR), never hidden.
 */
const guarded = new WeakSet<object>();
function guardClients(m: Mem0Memory): void {
  for (const s of storesOf(m)) {
    const c = s.client;
    if (c && typeof c.on === 'function' && !guarded.has(c)) {
      c.on('error', () => undefined);
      guarded.add(c);
    }
  }
}

/**
 * mem0's OSS `Memory` as a memory store over a pgvector server (`vectorStore: { provider:
 * 'pgvector', config: { connectionString } }`): one collection = one mem0 table `mm_mem0_<name>`
 * (`id uuid, vector vector(dim), payload jsonb`, made by mem0's PGVector on first use) and a row
 * in the driver's `mm_mem0_collections`; each collection handle is a NEW `Memory` (its PGVector
 * opens one pg Client of its own). `pool` is the driver's own connection, for what mem0 has no API
 * for: the markers, the stored vectors, the drop. `close()` ends every Memory's client through
 * mem0's `PGVector.close()` (`Memory` has no close) and the pool.
 */
export class Mem0PgStore implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = MEM0_PG_CAPABILITIES;
  private readonly memories: Mem0Memory[] = [];
  private ready: Promise<unknown> | undefined;

  constructor(
    private readonly url: string,
    private readonly pool: Pool,
  ) {}

  /** `server`: PostgreSQL and pgvector as the server reports them, under mem0ai and pg as installed. */
  async serverInfo(): Promise<ServerInfo> {
    const v = mem0PackageVersions('mem0 serverInfo', PGVECTOR_PACKAGES);
    const { rows } = await viaLayer('server version query', () =>
      this.pool.query<{ pg: string; vec: string | null }>("SELECT current_setting('server_version') AS pg, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vec"),
    );
    const r = rows[0]!;
    return {
      server: `mem0ai ${v.mem0ai} (Memory, pgvector store over pg ${v.pg}) on PostgreSQL ${r.pg}, pgvector ${r.vec ?? 'not installed'}`,
      components: { ...v, postgres: r.pg, ...(r.vec ? { pgvector: r.vec } : {}) },
    };
  }

  /** Record the spec and open a `Memory` on table `mm_mem0_<name>`. Throws INVALID_INPUT (name, dim), CAPABILITY_MISSING (metric other than cosine, an index), COLLECTION_EXISTS, BACKEND_ERROR. */
  async createCollection(spec: CollectionSpec): Promise<Mem0Collection> {
    checkName(spec.name);
    const where = `collection ${spec.name}`;
    if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > 16000) throw invalid(`${where}: dim must be an integer in 1..16000, got ${spec.dim}`);
    if (spec.metric !== 'cosine') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: mem0's pgvector store ranks by cosine distance only, not ${String(spec.metric)}`);
    if (spec.index?.type !== 'none')
      throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: the driver builds no index on mem0's pgvector table (index type ${JSON.stringify(spec.index?.type)})`);
    const stored: CollectionSpec = {
      name: spec.name,
      dim: spec.dim,
      metric: spec.metric,
      index: { type: 'none' },
      ...(spec.embeddingModel !== undefined ? { embeddingModel: spec.embeddingModel } : {}),
    };
    await this.markers();
    const { rowCount } = await viaLayer(`create ${where}`, () =>
      this.pool.query(`INSERT INTO ${MARKERS} (name, spec) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [spec.name, JSON.stringify(stored)]),
    );
    if (rowCount === 0) throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: ${where} already exists (${MARKERS})`);
    return this.open(stored);
  }

  /** Reopen a collection from its marker row with a new `Memory`. Throws COLLECTION_MISSING, INVALID_INPUT (name), BACKEND_ERROR. */
  async openCollection(name: string): Promise<Mem0Collection> {
    checkName(name);
    await this.markers();
    const { rows } = await viaLayer(`open collection ${name}`, () => this.pool.query<{ spec: CollectionSpec }>(`SELECT spec FROM ${MARKERS} WHERE name = $1`, [name]));
    if (rows.length === 0) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name} does not exist (no row in ${MARKERS})`);
    return this.open(rows[0]!.spec);
  }

  /** Drop mem0's tables of the collection and its marker (mem0 has no drop: `reset()` drops and recreates the table). Missing is not an error. */
  async dropCollection(name: string): Promise<void> {
    checkName(name);
    await this.markers();
    await viaLayer(`drop collection ${name}`, async () => {
      await this.pool.query(`DROP TABLE IF EXISTS ${ident(tableOf(name))}, ${ident(`${tableOf(name)}_entities`)}`);
      await this.pool.query(`DELETE FROM ${MARKERS} WHERE name = $1`, [name]);
    });
  }

  /** Idempotent: ends each Memory's pg client (mem0's `PGVector.close()`, its entity store's too) and the driver's pool. */
  async close(): Promise<void> {
    const memories = this.memories.splice(0);
    for (const m of memories) for (const s of storesOf(m)) await s.close?.().catch(() => undefined); // a client the server already dropped
    if (!(this.pool as Pool & { ended?: boolean }).ended) await this.pool.end();
  }

  /** The driver's marker table, created once per store. */
  private markers(): Promise<unknown> {
    this.ready ??= viaLayer(`create ${MARKERS}`, () => this.pool.query(`CREATE TABLE IF NOT EXISTS ${MARKERS} (name text PRIMARY KEY, spec jsonb NOT NULL)`)).catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private open(spec: CollectionSpec): Mem0Collection {
    const { Memory } = mem0Module();
    const embeddings = new HandedEmbeddings();
    const table = tableOf(spec.name);
    const memory = new Memory({
      embedder: { provider: 'langchain', config: { model: embeddings, embeddingDims: spec.dim } },
      // PGVector reads embeddingModelDims (the table's vector(n)); Memory reads dimension.
      vectorStore: { provider: 'pgvector', config: { connectionString: this.url, collectionName: table, embeddingModelDims: spec.dim, dimension: spec.dim } },
      llm: { provider: 'openai', config: { apiKey: 'unused-infer-false', model: 'unused' } },
      disableHistory: true,
    });
    this.memories.push(memory);
    return new Mem0Collection(memory, embeddings, spec, this.kind(table, memory));
  }

  /** The pgvector store kind: vectors read from mem0's table through the pool (pgvector's text output, bit-exact float32); mem0's clients guarded after each call. */
  private kind(table: string, memory: Mem0Memory): Mem0StoreKind {
    return {
      afterCall: () => guardClients(memory),
      compileWhere: compileMem0PgFilter,
      toCanonical: mem0PgScoreToCanonical,
      vectorsOf: async (mem0Ids, where) => {
        const out = new Map<string, Float32Array>();
        if (mem0Ids.length === 0) return out;
        const { rows } = await viaLayer(`read vectors of ${where}`, () =>
          this.pool.query<{ id: string; v: string }>(`SELECT id::text AS id, vector::text AS v FROM ${ident(table)} WHERE id = ANY($1::uuid[])`, [mem0Ids]),
        );
        for (const r of rows) out.set(r.id, literalToVector(r.v, `${where} (${table}, mem0 id ${r.id})`));
        return out;
      },
    };
  }
}
