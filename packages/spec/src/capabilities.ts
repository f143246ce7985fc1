import { z } from 'zod';
import { FILTER_OPERATORS } from './filter-lang/types';

/**
 * What a target can do, as ONE strict zod schema; the `Capabilities` type is inferred from it.
 * Checks that need a capability the target lacks are registered as skipped with the
 * capability's name in the title (never dropped, never passed). A driver declares its defaults
 * (`BackendDriver.capabilities`, driver.ts); a catalog target may override flags
 * (`capabilities:` in matrix/targets.yaml, validated with `capabilityOverridesSchema`: an unknown
 * key is an error naming the file, line and key). Each flag's default is in `DEFAULT_CAPABILITIES`.
 */
export const capabilitiesSchema = z
  .object({
    /** Stores embeddings and answers top-k recall. Default false. */
    vectors: z.boolean(),
    /** Metrics the adapter can create a collection with. Default []. */
    metrics: z.array(z.enum(['cosine', 'ip', 'l2'])),
    /** Can force an exact (brute-force) scan per query (`scan: 'exact'`). Default false. */
    exactScan: z.boolean(),
    /**
     * ANN index types it can build, named by the driver (e.g. `hnsw`, `ivfflat`); any non-empty
     * string, so a new driver names its own without editing spec. Default [].
     */
    annIndexes: z.array(z.string().min(1)),
    /** Filter by namespace. Default false. */
    filterNamespace: z.boolean(),
    /** Filter by kind. Default false. */
    filterKind: z.boolean(),
    /** Filter by metadata equality. Default false. */
    filterMetadata: z.boolean(),
    /**
     * Filter-language operators (`RecallFilter.where`, docs/filters.md) the adapter pushes down with
     * the reference semantics (filter-lang/evaluate.ts); any other is never sent to it and its case
     * is reported unsupported, never emulated after the query. Default [] (refuses any `where`).
     */
    filterOperators: z.array(z.enum(FILTER_OPERATORS)),
    /**
     * Metadata shapes beyond flat scalars the target stores and filters on (filter-set/file.ts
     * `filterShapes`): `nested` (an object, read by a 2+ key path), `array` (read by `$contains`).
     * C31 loads a derived key of such a shape only when declared. Default []: the adapter refuses a
     * record holding the shape with CAPABILITY_MISSING (record-validation.ts `InputRules.metadataShapes`,
     * rules in metadata-value.ts), never flattens or stringifies it.
     */
    metadataShapes: z.array(z.enum(['nested', 'array'])),
    /** `minScore` threshold in recall. Default false. */
    threshold: z.boolean(),
    /** upsert replaces a memory with the same id (C21). Default false. */
    upsert: z.boolean(),
    /** delete by ids. Default false. */
    delete: z.boolean(),
    /**
     * `MemoryCollection.deleteWhere(filter)`: one delete the backend evaluates over a recall
     * filter (namespace, kind, metadata, and `where` with the operators of `filterOperators`),
     * as memory layers delete one user's memories (C25). Never a list-then-delete-by-id in the
     * adapter. Default false.
     */
    deleteByFilter: z.boolean(),
    /** A new client can reopen an existing collection (C01, C10). Default false. */
    reopen: z.boolean(),
    /** Scores are quantized (e.g. int8); tolerances come from the target. Default false. */
    quantized: z.boolean(),
    /** Largest batch one write may carry, in records (integer ≥ 1); the adapter chunks above it. Default none. */
    maxBatch: z.number().int().min(1).optional(),
    /**
     * Largest vector dimension a collection can have at all (integer ≥ 1); absent = no limit known.
     * A golden dataset wider than it cannot be stored: every check that stores the dataset's
     * memories is skipped with `capability: maxDim <maxDim> < dim <dim>` (conformance/fit.ts).
     * Declared by the driver from the backend's documented limit, e.g. pgvector's `vector` type
     * stores at most 16,000 dimensions (pgvector README "Vector Type"), sqlite-vec's vec0 8,192
     * (`SQLITE_VEC_VEC0_MAX_DIMENSIONS`). A catalog target may narrow it, never raise it (a
     * declared value above the connected store's is a missing capability).
     */
    maxDim: z.number().int().min(1).optional(),
    /**
     * Largest vector dimension the target's ANN index accepts (integer ≥ 1); absent = no limit known.
     * On a wider dataset the cell builds no index and runs the exact path only; the index-path checks
     * and replay parts skip with `capability: maxIndexDim <n> < dim <dim>` (conformance/fit.ts).
     * E.g. pgvector HNSW / IVFFlat: 2,000 (pgvector README "Indexing", `HNSW_MAX_DIM`). Narrowed
     * and compared like `maxDim`.
     */
    maxIndexDim: z.number().int().min(1).optional(),
    /** Chat-history memory (lists + TTL). Default false. */
    history: z.boolean(),
    /** Per-key TTL on history. Default false. */
    ttl: z.boolean(),
    /**
     * History windows: `HistoryOptions.window` applied with every append and `ChatHistory.trim`
     * (C17's window part, C18's trim part). A client library that keeps a plain list (LangChain.js
     * `RedisChatMessageHistory`) has none. Default false.
     */
    historyWindow: z.boolean(),
    /**
     * (with `ttl`) `refreshTtlOnWrite: false` is honoured: a write leaves the session's remaining
     * TTL alone (C18's fixed part). A client that re-sets the TTL on every write (sliding only)
     * lacks it. Default false.
     */
    ttlFixed: z.boolean(),
    /**
     * (with `ttl`) TTLs of any whole number of milliseconds (`ttlMs` 300 expires after 300 ms).
     * Without it the target takes whole seconds only (a client that sets TTLs with Redis `EXPIRE`
     * seconds): `ttlMs` must be a multiple of 1000, and C18's expiry part uses a 1 s TTL instead of
     * 300 ms. Default false.
     */
    ttlMillis: z.boolean(),
    /**
     * The provider can start the target afresh on its own storage and kill -9, restart, pause it
     * and drop its connections (`FaultControl`, durability.ts): C15, C23. Set by the catalog for
     * targets that declare `durability:` configurations and whose driver offers fault controls
     * for that provider. Default false.
     */
    faults: z.boolean(),
    /** The catalog names an older target (`upgradeFrom`) whose data this one must read (C16). Default false. */
    upgrade: z.boolean(),
    /**
     * Recall ranked by similarity × time decay (`RecallQuery.decay` with `now`, decay.ts): computed
     * server-side or as the exact re-rank of decay-rerank.ts (C24). Default false.
     */
    timeDecay: z.boolean(),
    /**
     * The adapter reads and sets the server's memory limit and eviction policy
     * (`MemoryStore.memoryPolicy` / `setMemoryPolicy`, eviction.ts): C19 runs it on a fresh instance
     * the run starts (`CellConfig.spawn`), never on a user's server. Default false.
     */
    evictionPolicy: z.boolean(),
    /** Chat sessions save, list and roll back to snapshots (snapshots.ts `SessionSnapshots`), reachable from another process (C26). Default false. */
    snapshots: z.boolean(),
    /**
     * The adapter reads back from the server the ANN index configuration in effect for a recall
     * (`MemoryCollection.indexInEffect`, adapter.ts): C28. Default false.
     */
    indexIntrospection: z.boolean(),
    /**
     * What an ACKNOWLEDGED write (an `upsert` or `delete` that resolved) promises to the very next
     * `get`, `count` and `recall` (C27), with no sleep or retry in between:
     * - `strong`: every client sees it — the one that wrote and any other connection to the same
     *   store (the adapter does whatever flush, load or refresh the backend needs BEFORE it resolves);
     * - `session`: only the client that wrote (the same `MemoryStore`) sees it; other clients may
     *   lag (C27 holds the writer to it and reports what the others saw, without failing them);
     * - `eventual`: no promise (e.g. an index refreshed on a timer); C27 is skipped with
     *   `capability: readYourWrites (eventual)`.
     * Levels in `READ_YOUR_WRITES_LEVELS` order (weakest first). Default `eventual`: no promise until a driver declares one.
     */
    readYourWrites: z.enum(['eventual', 'session', 'strong']),
    /**
     * Layer behaviours (default TRUE, unlike the flags above: every store has them unless its driver
     * declares otherwise). A memory layer whose design lacks one declares it `false`, and the checks
     * that would test it skip that part visibly, naming the flag (`capability: <flag>`), instead of
     * the adapter reading the layer's private tables or a known failure standing for a design choice.
     *
     * `embeddingReadBack`: `get` returns each stored vector. `false`: the layer returns no vector
     * (e.g. mem0's `Memory.get`/`getAll`); `get` then returns `embedding` as an EMPTY Float32Array
     * and the checks that compare read-back records (C01, C21, C22, C23, delete-verified) compare
     * id, text, namespace, kind, createdAt and metadata only, and say so.
     */
    embeddingReadBack: z.boolean(),
    /**
     * `dropCollection` removes the collection: a handle opened before the drop fails with a coded
     * error (C29 parts `dropped`, `recreated`). `false`: drop is a reset (the layer empties the
     * store and keeps it; stale handles keep working on it): those parts skip naming the flag.
     */
    dropRemoves: z.boolean(),
    /**
     * `close()` ends the client: calls through it afterwards fail with a coded error (C29 part
     * `closed`). `false`: the layer has no close (close() is a no-op): that part skips naming the flag.
     */
    closeReleases: z.boolean(),
    /**
     * Several clients (`MemoryStore`s of one store) may each have a call in flight at the same
     * time, and each call completes without waiting on another client's open transaction (C22's
     * concurrent writers). `false`: the target serves one client's call at a time and a call can
     * wait on another client until a server limit ends it: declared up front, C22 skips naming
     * the flag instead of waiting out its time limit. A catalog entry declares it for a
     * combination (e.g. Mastra 0.x PgVector over the one-session PGlite server:
     * packages/adapter-mastra/README.md finding 5); a store that loses or refuses concurrent
     * writes keeps it true, and C22 fails.
     */
    concurrentClients: z.boolean(),
  })
  .strict();

/** The `readYourWrites` levels, weakest first: a catalog may declare a level at most as strong as the connected store reports. */
export const READ_YOUR_WRITES_LEVELS = ['eventual', 'session', 'strong'] as const;

/** A `readYourWrites` level (capabilities.ts `capabilitiesSchema`). */
export type ReadYourWrites = (typeof READ_YOUR_WRITES_LEVELS)[number];

/**
 * Whether the value `v` of capability `name` offers something: true for a flag that is true, a
 * non-empty list or string, a number (`maxBatch`), and a `readYourWrites` level above `eventual`. The one
 * rule behind `needs` (checks/check.ts) and the report's capability matrix.
 */
export function offersCapability(name: string, v: unknown): boolean {
  if (name === 'readYourWrites') return typeof v === 'string' && v !== 'eventual';
  if (Array.isArray(v) || typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return true;
  return v === true;
}

/** What a target can do (inferred from `capabilitiesSchema`; see there for each flag). */
export type Capabilities = z.infer<typeof capabilitiesSchema>;

/** A catalog target's overrides of its driver's capabilities: any subset of the flags, no other key (strict). */
export const capabilityOverridesSchema = capabilitiesSchema.partial().strict();

/** Capabilities a provider decides (not the adapter): a connected store does not report them. */
export const PROVIDER_CAPABILITIES: ReadonlyArray<keyof Capabilities> = ['faults', 'upgrade'];

/** Flags read only by checks that also need `vectors` (C01–C14, C21, C24, C25, C27). */
export const VECTOR_CAPABILITIES: ReadonlyArray<keyof Capabilities> = [
  'metrics',
  'exactScan',
  'annIndexes',
  'filterNamespace',
  'filterKind',
  'filterMetadata',
  'filterOperators',
  'metadataShapes',
  'threshold',
  'upsert',
  'delete',
  'deleteByFilter',
  'reopen',
  'quantized',
  'maxBatch',
  'maxDim',
  'maxIndexDim',
  'timeDecay',
  'indexIntrospection',
  'readYourWrites',
  'embeddingReadBack',
  'dropRemoves',
];

/** Every flag at its default: no capability, and every layer behaviour present (`embeddingReadBack`, `dropRemoves`, `closeReleases`, `concurrentClients`). Drivers spread it (through `capabilities()`) and override. */
export const DEFAULT_CAPABILITIES: Capabilities = {
  vectors: false,
  metrics: [],
  exactScan: false,
  annIndexes: [],
  filterNamespace: false,
  filterKind: false,
  filterMetadata: false,
  filterOperators: [],
  metadataShapes: [],
  threshold: false,
  upsert: false,
  delete: false,
  deleteByFilter: false,
  reopen: false,
  quantized: false,
  history: false,
  ttl: false,
  historyWindow: false,
  ttlFixed: false,
  ttlMillis: false,
  faults: false,
  upgrade: false,
  timeDecay: false,
  evictionPolicy: false,
  snapshots: false,
  indexIntrospection: false,
  readYourWrites: 'eventual',
  // Layer behaviours: present unless a driver declares otherwise (see the schema).
  embeddingReadBack: true,
  dropRemoves: true,
  closeReleases: true,
  concurrentClients: true,
};

/** Build a full capabilities object from the defaults and a partial override. */
export function capabilities(partial: Partial<Capabilities>): Capabilities {
  return { ...DEFAULT_CAPABILITIES, ...partial };
}

// Per-target tolerances (`Tolerances`, `DEFAULT_TOLERANCES`) live in target-tolerances.ts.
export { DEFAULT_TOLERANCES, type Tolerances } from './target-tolerances';
