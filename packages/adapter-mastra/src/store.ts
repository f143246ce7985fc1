import { MemoryMatrixError, type Capabilities, type CollectionSpec, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import { MastraCollection, type MastraVectorLike } from './collection';
import { ADAPTER, invalid, viaMastra } from './errors';

const NAME = /^[a-z0-9_]{1,48}$/;

/** The Mastra index (and table) of collection `name`: `mm_<name>`, the name the pgvector server's dump and restore (C16) take a collection's table by. */
export function indexNameOf(name: string): string {
  return `mm_${name}`;
}

/** What differs between the Mastra stores the drivers run (PgVector over a server, LibSQLVector on a file). */
export interface MastraStoreParts {
  /** `MemoryStore.adapter`: the driver's name, e.g. `mastra-pgvector`. */
  adapter: string;
  capabilities: Capabilities;
  /** The Mastra vector store (one client: one pool or one libSQL connection). */
  vector: MastraVectorLike;
  /** The largest dimension the store's column takes. */
  maxDim: number;
  serverInfo(): Promise<ServerInfo>;
  /** Release the vector store's connections (PgVector `disconnect()`, the libSQL client's `close()`). */
  close(): Promise<void>;
}

/**
 * A Mastra vector store as a memory store. Collections are Mastra indexes created with metric
 * cosine and `indexConfig: { type: 'flat' }` (no ANN index: every query scans every row); a
 * collection is reopened from Mastra's own `listIndexes` / `describeIndex` (dimension), with metric
 * cosine and index none, the only ones the driver creates.
 */
export class MastraStore implements MemoryStore {
  readonly adapter: string;
  readonly capabilities: Capabilities;
  private closed = false;

  constructor(private readonly parts: MastraStoreParts) {
    this.adapter = parts.adapter;
    this.capabilities = parts.capabilities;
  }

  /** The server (or engine) and Mastra versions (the parts' `serverInfo`). */
  serverInfo(): Promise<ServerInfo> {
    return this.parts.serverInfo();
  }

  /**
   * `createIndex({ indexName, dimension, metric: 'cosine', indexConfig: { type: 'flat' } })`.
   * Throws INVALID_INPUT (name, dim), CAPABILITY_MISSING (a metric other than cosine, an index),
   * COLLECTION_EXISTS (Mastra lists the index already), BACKEND_ERROR.
   */
  async createCollection(spec: CollectionSpec): Promise<MastraCollection> {
    checkName(spec.name);
    const where = `collection ${spec.name}`;
    if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > this.parts.maxDim) throw invalid(`${where}: dim must be an integer in 1..${this.parts.maxDim}, got ${spec.dim}`);
    if (spec.metric !== 'cosine') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: Mastra's query scores by cosine similarity only, not ${String(spec.metric)}`);
    if (spec.index?.type !== 'none')
      throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: the driver creates Mastra indexes without an ANN index (flat) only, not ${JSON.stringify(spec.index?.type)}`);
    const indexName = indexNameOf(spec.name);
    if (await this.exists(indexName)) throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: ${where} already exists (Mastra index ${indexName})`);
    await viaMastra(`createIndex ${indexName}`, () => this.parts.vector.createIndex({ indexName, dimension: spec.dim, metric: 'cosine', indexConfig: { type: 'flat' } }));
    const stored: CollectionSpec = { name: spec.name, dim: spec.dim, metric: 'cosine', index: { type: 'none' }, ...(spec.embeddingModel !== undefined ? { embeddingModel: spec.embeddingModel } : {}) };
    return new MastraCollection(this.parts.vector, stored, indexName);
  }

  /** Reopen from Mastra's `describeIndex` (dimension). Throws COLLECTION_MISSING, INVALID_INPUT (name), BACKEND_ERROR. */
  async openCollection(name: string): Promise<MastraCollection> {
    checkName(name);
    const indexName = indexNameOf(name);
    if (!(await this.exists(indexName))) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name} does not exist (no Mastra index ${indexName})`);
    const { dimension } = await viaMastra(`describeIndex ${indexName}`, () => this.parts.vector.describeIndex({ indexName }));
    return new MastraCollection(this.parts.vector, { name, dim: dimension, metric: 'cosine', index: { type: 'none' } }, indexName);
  }

  /** `deleteIndex` (Mastra drops the table). Missing is not an error. */
  async dropCollection(name: string): Promise<void> {
    checkName(name);
    const indexName = indexNameOf(name);
    if (!(await this.exists(indexName))) return;
    await viaMastra(`deleteIndex ${indexName}`, () => this.parts.vector.deleteIndex({ indexName }));
  }

  /** Release the connections (idempotent); later calls reject. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.parts.close();
  }

  private async exists(indexName: string): Promise<boolean> {
    return (await viaMastra('listIndexes', () => this.parts.vector.listIndexes())).includes(indexName);
  }
}

function checkName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid(`collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
}
