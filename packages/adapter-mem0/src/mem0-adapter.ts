import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MEM0_FILTER_OPERATORS } from './filter-compile';
import { vectorCapabilities, MemoryMatrixError, type Capabilities, type CollectionSpec, type MemoryStore, type ServerInfo } from '@memory-matrix/spec';
import { Mem0Collection, type Mem0Memory } from './collection';
import { HandedEmbeddings } from './embedder';
import { ADAPTER, invalid } from './errors';
import { sqliteKind } from './sqlite-kind';
import { mem0PackageVersions } from './versions';

/** What mem0's OSS `Memory` over its embedded `memory` vector store can do (README.md says why each flag is what it is). */
export const MEM0_CAPABILITIES: Capabilities = vectorCapabilities({
  // MemoryVectorStore ranks by cosineSimilarity only; it takes no metric.
  metrics: ['cosine'],
  // No index: every search scores every row (MemoryVectorStore.search), so every recall is exact.
  exactScan: true,
  // mem0's own filter, evaluated in JS on every row after `SELECT * FROM vectors` (filter-compile.ts; README "Filters").
  filterOperators: [...MEM0_FILTER_OPERATORS],
  // Memory.search takes a threshold (0..1) on the similarity.
  threshold: true,
  // add always creates a new memory with a new uuid; update merges metadata and cannot move a memory to another user.
  upsert: false,
  quantized: false,
  timeDecay: false,
  // better-sqlite3 statements run synchronously and autocommit before add / delete resolve; another handle reads the same file.
  readYourWrites: 'strong',
  // Layer behaviours of mem0's design (README "What mem0 does"): Memory has no drop (reset() empties the
  // table and keeps the file, and a Memory opened before keeps its SQLite handle) and no close().
  dropRemoves: false,
  closeReleases: false,
});

const NAME = /^[a-z0-9_]{1,48}$/;
const MARKER = 'collection.json';
const DB_FILE = 'vector_store.db';

/** mem0ai/oss loaded once, with mem0's telemetry off (`MEM0_TELEMETRY` is read when the module loads). */
export function mem0Module(): { Memory: new (config: Record<string, unknown>) => Mem0Memory } {
  if (process.env.MEM0_TELEMETRY === undefined) process.env.MEM0_TELEMETRY = 'false';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('mem0ai/oss') as { Memory: new (config: Record<string, unknown>) => Mem0Memory };
}

/**
 * mem0's OSS `Memory` as a memory store, over its embedded vector store (provider `memory`:
 * better-sqlite3). One collection = one directory `<root>/<name>/` holding mem0's store file
 * (`vector_store.db`) and the driver's marker (`collection.json`: metric, dim, embedding model;
 * mem0 records none of them). Each collection handle is a NEW `Memory` on that file, configured
 * with the driver's embedder (embedder.ts), an LLM that is never called (`infer: false`) and no
 * history. `Memory` has no `close()`: `close()` here only marks the store closed.
 */
export class Mem0Store implements MemoryStore {
  readonly adapter = ADAPTER;
  readonly capabilities = MEM0_CAPABILITIES;

  constructor(private readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  /** `server`: mem0ai and better-sqlite3 as installed (an embedded layer has no server to ask). */
  async serverInfo(): Promise<ServerInfo> {
    const v = mem0PackageVersions('mem0 serverInfo');
    return { server: `mem0ai ${v.mem0ai} (Memory, embedded memory vector store over better-sqlite3 ${v['better-sqlite3']})`, components: v };
  }

  /** Create the collection's directory and marker and open a `Memory` on it. Throws INVALID_INPUT (name, dim), CAPABILITY_MISSING (a metric other than cosine, an index), COLLECTION_EXISTS. */
  async createCollection(spec: CollectionSpec): Promise<Mem0Collection> {
    checkName(spec.name);
    const where = `collection ${spec.name}`;
    if (!Number.isInteger(spec.dim) || spec.dim < 1 || spec.dim > 16000) throw invalid(`${where}: dim must be an integer in 1..16000, got ${spec.dim}`);
    if (spec.metric !== 'cosine') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: mem0's embedded store ranks by cosine similarity only, not ${String(spec.metric)}`);
    if (spec.index?.type !== 'none') throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: ${where}: mem0's embedded store has no index (index type ${JSON.stringify(spec.index?.type)})`);
    const dir = this.dirOf(spec.name);
    if (existsSync(path.join(dir, MARKER))) throw new MemoryMatrixError('COLLECTION_EXISTS', `${ADAPTER}: ${where} already exists (${dir})`);
    mkdirSync(dir, { recursive: true });
    const stored: CollectionSpec = {
      name: spec.name,
      dim: spec.dim,
      metric: spec.metric,
      index: { type: 'none' },
      ...(spec.embeddingModel !== undefined ? { embeddingModel: spec.embeddingModel } : {}),
    };
    writeFileSync(path.join(dir, MARKER), JSON.stringify(stored));
    return this.open(stored);
  }

  /** Reopen a collection from its marker with a new `Memory`. Throws COLLECTION_MISSING, INVALID_INPUT (name). */
  async openCollection(name: string): Promise<Mem0Collection> {
    checkName(name);
    const file = path.join(this.dirOf(name), MARKER);
    if (!existsSync(file)) throw new MemoryMatrixError('COLLECTION_MISSING', `${ADAPTER}: collection ${name} does not exist (no ${file})`);
    return this.open(JSON.parse(readFileSync(file, 'utf8')) as CollectionSpec);
  }

  /** Remove the collection's directory (mem0 has no drop: `reset()` empties the table and keeps the file). Missing is not an error. */
  async dropCollection(name: string): Promise<void> {
    checkName(name);
    rmSync(this.dirOf(name), { recursive: true, force: true });
  }

  /** Idempotent; releases nothing: mem0's `Memory` has no close() (its store's SQLite handle stays open until the process ends). */
  async close(): Promise<void> {}

  private dirOf(name: string): string {
    return path.join(this.root, name);
  }

  private open(spec: CollectionSpec): Mem0Collection {
    const { Memory } = mem0Module();
    const embeddings = new HandedEmbeddings();
    const dbPath = path.join(this.dirOf(spec.name), DB_FILE);
    const memory = new Memory({
      embedder: { provider: 'langchain', config: { model: embeddings, embeddingDims: spec.dim } },
      vectorStore: { provider: 'memory', config: { dimension: spec.dim, dbPath } },
      // Never called: add with infer false stores each message as one memory without the LLM.
      llm: { provider: 'openai', config: { apiKey: 'unused-infer-false', model: 'unused' } },
      disableHistory: true,
    });
    return new Mem0Collection(memory, embeddings, spec, sqliteKind(dbPath));
  }
}

/** INVALID_INPUT unless `name` is a collection name the driver takes (`[a-z0-9_]{1,48}`). */
export function checkName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME.test(name)) throw invalid(`collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(name)}`);
}
