import type { MemoryStore } from '../adapter';
import type { Capabilities, Tolerances } from '../capabilities';
import type { Expectation } from '../expectation';
import type { GoldenDataset } from '../golden/types';
import type { FaultControl } from '../durability';
import type { IndexConfig } from '../types';
import type { ProgressPhase, ReleaseBaseline } from './types';

/**
 * Everything a cell (one target × one dataset) needs, known before the backend starts except
 * `connect`, which is called lazily inside the suite's `beforeAll`.
 */
export interface CellConfig {
  /** `backend@version`, e.g. `backend@version`. */
  target: string;
  capabilities: Capabilities;
  tolerances: Tolerances;
  /** The ANN index the cell builds on its shared golden collection. */
  index: IndexConfig;
  dataset: GoldenDataset;
  /** The recorded expectation (committed oracle results) the checks compare against. */
  expectation: Expectation;
  /** Opens a NEW client to the backend on every call. */
  connect(): Promise<MemoryStore>;
  /** Progress of the long phases (bulk load, index build, query replay); `done` of `total` units. */
  progress?(phase: ProgressPhase, done: number, total: number): void;
  /**
   * Fault control of the target (durability.ts), when its provider has one (container targets
   * with `durability:` in the catalog). C15, C16 and C23 use it; they skip with `capability:
   * faults` when the target's capabilities say it has none.
   */
  faults?: FaultControl;
  /**
   * Start a NEW instance of this target (same provider, image and settings, its own storage) that
   * the caller owns and stops: for checks that change server-wide settings (C19 sets maxmemory),
   * so the cell's own server and its golden collection are never touched. Absent where the
   * provider cannot start one (url targets: a user's server). Throws TARGET_UNAVAILABLE.
   */
  spawn?(): Promise<SpawnedInstance>;
  /**
   * How many times C05 replays the golden queries on the index path, each after a fresh index
   * build (`--repeat n`, c05-repeat.ts); integer ≥ 1, default 1.
   */
  repeat?: number;
  /**
   * The release baseline C05 also judges the index path against (c05-baseline.ts): set by the
   * runner for profiles with `baselines:` in matrix/targets.yaml. Absent: floors only.
   */
  baseline?: ReleaseBaseline;
  /**
   * Seed of the order the golden memories are written in (load-order.ts `seededShuffle`; uint32,
   * `--load-seed`). Default `DEFAULT_LOAD_SEED`: never id order, so a store that breaks exact ties
   * by insertion order shows in C07.
   */
  loadSeed?: number;
}

/** An instance started by `CellConfig.spawn` (structurally a targets `StartedBackend`). */
export interface SpawnedInstance {
  /** A new client on every call. */
  connect(): Promise<MemoryStore>;
  /** Stop the instance and remove its storage; closes the stores still open. Idempotent. */
  stop(): Promise<void>;
}
