import type { Metric } from './types';

/**
 * What a target can do. Checks that need a capability the target lacks are registered as
 * skipped with the capability's name in the title (never dropped, never passed).
 * Each flag's default is in `DEFAULT_CAPABILITIES`; adapters spread it and override.
 */
export interface Capabilities {
  /** Stores embeddings and answers top-k recall. Default false. */
  vectors: boolean;
  /** Metrics the adapter can create a collection with. Default []. */
  metrics: Metric[];
  /** Can force an exact (brute-force) scan per query (`scan: 'exact'`). Default false. */
  exactScan: boolean;
  /** ANN index types it can build. Default []. */
  annIndexes: Array<'hnsw' | 'ivfflat' | 'vset-hnsw' | 'chroma-hnsw'>;
  /** Filters: by namespace, by kind, by metadata equality. Default all false. */
  filterNamespace: boolean;
  filterKind: boolean;
  filterMetadata: boolean;
  /** `minScore` threshold in recall. Default false. */
  threshold: boolean;
  /** upsert replaces a memory with the same id (C21). Default false. */
  upsert: boolean;
  /** delete by ids. Default false. */
  delete: boolean;
  /** A new client can reopen an existing collection (C01, C10). Default false. */
  reopen: boolean;
  /** Scores are quantized (e.g. int8); tolerances come from the target. Default false. */
  quantized: boolean;
  /** Largest batch one write may carry, in records; the adapter chunks above it. Default none. */
  maxBatch?: number;
  /** Chat-history memory (lists + TTL). Default false. */
  history: boolean;
  /** Per-key TTL on history. Default false. */
  ttl: boolean;
  /**
   * The provider can start the target afresh on its own storage and kill -9, restart, pause it
   * and drop its connections (`FaultControl`, durability.ts): C15, C23. Set by the catalog for
   * container targets that declare `durability:` configurations. Default false.
   */
  faults: boolean;
  /** The catalog names an older target (`upgradeFrom`) whose data this one must read (C16). Default false. */
  upgrade: boolean;
  /**
   * Recall ranked by similarity × time decay (`RecallQuery.decay` with `now`, decay.ts): computed
   * server-side (pgvector SQL) or as the exact re-rank of decay-rerank.ts (C24). Default false.
   */
  timeDecay: boolean;
  /**
   * The adapter reads and sets the server's memory limit and eviction policy
   * (`MemoryStore.memoryPolicy` / `setMemoryPolicy`, eviction.ts): C19 runs it on a fresh instance
   * the run starts (`CellConfig.spawn`), never on a user's server. Default false.
   */
  evictionPolicy: boolean;
  /** Chat sessions save, list and roll back to snapshots (snapshots.ts `SessionSnapshots`), reachable from another process (C26). Default false. */
  snapshots: boolean;
}

export const DEFAULT_CAPABILITIES: Capabilities = {
  vectors: false,
  metrics: [],
  exactScan: false,
  annIndexes: [],
  filterNamespace: false,
  filterKind: false,
  filterMetadata: false,
  threshold: false,
  upsert: false,
  delete: false,
  reopen: false,
  quantized: false,
  history: false,
  ttl: false,
  faults: false,
  upgrade: false,
  timeDecay: false,
  evictionPolicy: false,
  snapshots: false,
};

/** Build a full capabilities object from the defaults and a partial override. */
export function capabilities(partial: Partial<Capabilities>): Capabilities {
  return { ...DEFAULT_CAPABILITIES, ...partial };
}

/**
 * Per-target tolerances, declared in the matrix catalog.
 * - `scoreTolerance`: max |canonical − oracle| allowed (absolute). float32 storage: 1e-5
 *   (float32 has a 2^-24 ≈ 6e-8 relative epsilon; pgvector accumulates a 384-term dot product
 *   in float, so the error grows to ~1e-6; 1e-5 leaves a margin of 10).
 * - `tieEpsilon`: neighbouring scores within this are one tie group (same reasoning as above).
 * - `annRecallFloor`: minimum recall@k of an ANN scan against the oracle, per cell average.
 * - `annRecallFloorPerQuery`: minimum recall@k for any single query.
 * - `annShortfallMax`: on the ANN index path under a filter, the largest fraction of the min(k, M)
 *   rows that may be missing (per selectivity × k point of C04). 0 by default: a target that
 *   post-filters its index declares its measured margin in matrix/targets.yaml, with the reason.
 *   The exact path never has a margin.
 * - `faultClientTimeoutMs` (optional): the client-side request/query timeout, in ms, of the
 *   faulted client in C23, for a target whose ordinary requests take longer than C23's default
 *   (1.5 s): it must exceed the slowest unfaulted request of the check, so that only the fault
 *   ends a call. Absent = C23's default.
 */
export interface Tolerances {
  scoreTolerance: number;
  tieEpsilon: number;
  annRecallFloor: number;
  annRecallFloorPerQuery: number;
  annShortfallMax: number;
  faultClientTimeoutMs?: number;
}

export const DEFAULT_TOLERANCES: Tolerances = {
  scoreTolerance: 1e-5,
  tieEpsilon: 1e-5,
  annRecallFloor: 0.95,
  annRecallFloorPerQuery: 0.5,
  annShortfallMax: 0,
};
