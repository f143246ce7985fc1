import type { FilterExpr } from './filter-lang/types';

/** Similarity metric of a collection. See `scores.ts` for the canonical score of each. */
export type Metric = 'cosine' | 'ip' | 'l2';
export const METRICS: readonly Metric[] = ['cosine', 'ip', 'l2'];

/** The kinds of agent memory in golden data. */
export type MemoryKind = 'fact' | 'preference' | 'episode' | 'summary';
export const MEMORY_KINDS: readonly MemoryKind[] = ['fact', 'preference', 'episode', 'summary'];

/** A flat metadata value: a JSON scalar; falsy values (0, "", false) must round-trip. */
export type MetadataScalar = string | number | boolean | null;
/**
 * A metadata value: a JSON scalar, or (only on a target whose capability `metadataShapes` declares
 * the shape; any other refuses it with CAPABILITY_MISSING) an array (`array`) or a plain object
 * (`nested`) of metadata values. Rules (key order, −0, numbers, depth): metadata-value.ts.
 */
export type MetadataValue = MetadataScalar | MetadataValue[] | { [key: string]: MetadataValue };
export type Metadata = Record<string, MetadataValue>;
/** Metadata of JSON scalars only: the equality filter `RecallFilter.metadata` and golden queries. */
export type FlatMetadata = Record<string, MetadataScalar>;

/**
 * One agent memory.
 * - `id`: unique within a collection, 1..256 chars.
 * - `createdAt`: canonical UTC instant (time.ts): milliseconds, e.g. `2024-05-01T09:30:00.123Z`,
 *   or microseconds when they are not zero, e.g. `2024-05-01T09:30:00.123456Z`; every adapter
 *   returns it byte for byte. Offsets (`+02:00`) are rejected with INVALID_INPUT, never normalized.
 * - `embedding`: `Float32Array` of length `dim` of the collection.
 */
export interface MemoryRecord {
  id: string;
  namespace: string;
  text: string;
  kind: MemoryKind;
  createdAt: string;
  metadata: Metadata;
  embedding: Float32Array;
}

/**
 * Recall filter. All given parts must hold (AND).
 * - `namespaces`: the memory's namespace is one of these (IN).
 * - `kinds`: the memory's kind is one of these.
 * - `metadata`: each key equals the given scalar exactly (type and value; `0` ≠ `false` ≠ `""`);
 *   scalars only (a nested or array value is matched with `where`).
 * - `where`: an expression of the filter language (filter-lang/, docs/filters.md), built with
 *   `parseFilter`. An optional part rather than a replacement of the three above, so that every
 *   existing adapter, golden query and expectation keeps its exact shape and meaning; a compiler
 *   that wants one tree takes `recallFilterExpr(filter)`. Sent only to a target whose capability
 *   `filterOperators` lists every operator it uses (`unsupportedFilterOperators`); an adapter
 *   that declares none refuses it in `validateRecallFilter` (CAPABILITY_MISSING), never ignores it.
 */
export interface RecallFilter {
  namespaces?: string[];
  kinds?: MemoryKind[];
  metadata?: FlatMetadata;
  where?: FilterExpr;
}

/** The largest `k` a recall may ask for (`RecallQuery.k`; record-validation.ts refuses more with INVALID_INPUT). */
export const MAX_RECALL_K = 1000;

/**
 * One recall (top-k) request.
 * - `vector`: `Float32Array` of length `dim`.
 * - `k`: 1..MAX_RECALL_K (1000), the number of results wanted.
 * - `minScore`: keep only hits whose canonical score ≥ this (C09).
 * - `scan`: `'exact'` forces a brute-force scan even when an ANN index exists;
 *   `'index'` (default) lets the backend use its index.
 * - `now`: canonical instant (time.ts) for time-aware recall (C24); never the wall clock inside checks.
 * - `decay`: rank by canonical similarity × decay factor of the memory's age at `now` (decay.ts:
 *   exponential 0.5^(age/h), hyperbolic 1/(1 + age/h), age = max(0, now − createdAt) in ms); needs
 *   `now`; the hits' scores are then the decayed scores. Adapters with the `timeDecay` capability.
 */
export interface RecallQuery {
  vector: Float32Array;
  k: number;
  filter?: RecallFilter;
  minScore?: number;
  scan?: 'exact' | 'index';
  now?: string;
  decay?: TimeDecay;
}

/** Time decay of a recall (decay.ts): `fn` and `halfLifeMs` (> 0, milliseconds). */
export interface TimeDecay {
  fn: 'exponential' | 'hyperbolic';
  halfLifeMs: number;
}

/** One recall result: `score` is canonical (see `scores.ts`), higher is more similar. */
export interface RecallHit {
  id: string;
  score: number;
}

/**
 * Index configuration of a collection: `{ type: 'none' }` = no index, every recall is an exact
 * scan; otherwise an index type the target's driver declares (`BackendDriver.indexes`, e.g.
 * `hnsw` with m, efConstruction, efSearch) and its parameters, as that driver's schema parsed
 * them from the catalog. Open: read parameters after narrowing with `isHnsw` / `isIvfflat`
 * (index-config.ts) or the driver's own guard.
 */
export type IndexConfig = { type: 'none' } | { type: string; [param: string]: number | string | boolean };

/** What to create: a collection (table, key prefix, Chroma collection) for one run. */
export interface CollectionSpec {
  /** Name unique to the run, `[a-z0-9_]{1,48}`; adapters may prefix it. */
  name: string;
  /** Vector dimension, 1..16000. */
  dim: number;
  metric: Metric;
  index: IndexConfig;
  /** Embedding model id from the golden manifest; stored with the collection (fingerprint guard). */
  embeddingModel?: string;
}

/** What the server says about itself, recorded per cell. */
export interface ServerInfo {
  /** e.g. `PostgreSQL 17.12 …` as the server reports it. */
  server: string;
  /** Extension/engine versions, e.g. `{ postgres: '17.12' }`. */
  components: Record<string, string>;
}
