import { randomBytes } from 'node:crypto';
import type { MemoryCollection, MemoryStore } from '../adapter';
import type { Capabilities, Tolerances } from '../capabilities';
import { compareHits, type Comparison } from '../comparator';
import { whereOf } from './where';
import { prepareFixtures } from './prepare';
import { MemoryMatrixError } from '../errors';
import { yieldToEventLoop } from '../yield';
import type { Expectation, ExpectationEntry } from '../expectation';
import { checkFingerprint } from '../golden/fingerprint';
import type { GoldenDataset, GoldenQuery } from '../golden/types';
import { matchesFilter } from '../filter';
import { ExactOracle } from '../oracle';
import { DEFAULT_LOAD_SEED, seededShuffle } from '../load-order';
import type { FaultControl } from '../durability';
import type { JudgedReplay } from './result';
import { type DatasetFit, datasetFit, fitCapabilities, fitIndex } from './fit';
import type { CellFixture, ProgressPhase, QueryRun, ReleaseBaseline, ScanMode } from './types';
import type { CollectionSpec, IndexConfig, MemoryRecord, RecallFilter, RecallQuery } from '../types';

export type { CellFixture, ProgressPhase, QueryRun, ScanMode };

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

/** An instance started by `CellConfig.spawn` (structurally a backends `StartedBackend`). */
export interface SpawnedInstance {
  /** A new client on every call. */
  connect(): Promise<MemoryStore>;
  /** Stop the instance and remove its storage; closes the stores still open. Idempotent. */
  stop(): Promise<void>;
}

/** Records per upsert call during the golden load (progress granularity; adapters chunk further). */
const LOAD_CHUNK = 500;

/**
 * A started cell: shared fixtures for the checks. The golden collection is loaded once (by
 * `prepare` before the first check under registerConformance; lazily on first use otherwise)
 * and shared by read-only checks; checks that write get a fresh `scratch` collection with a
 * random-suffixed name, so checks stay independent. `dispose` drops every collection the cell created.
 */
export class LiveCell {
  /** The caller's config with the dataset's gaps applied (fit.ts `fitCapabilities`, `fitIndex`). */
  readonly config: CellConfig;
  /** How the dataset fits the target's declared capabilities (fit.ts `datasetFit`). */
  readonly fit: DatasetFit;
  readonly oracle: ExactOracle;
  readonly runId = randomBytes(3).toString('hex');
  private readonly expected = new Map<string, ExpectationEntry>();
  private readonly records: Map<string, MemoryRecord>;
  private readonly stores: MemoryStore[] = [];
  private readonly created: Array<{ store: MemoryStore; name: string }> = [];
  private golden?: Promise<{ store: MemoryStore; collection: MemoryCollection; loadMs: number; indexMs: number }>;
  private readonly runs = new Map<ScanMode, Promise<Map<string, QueryRun>>>();
  private readonly comparisons = new WeakMap<QueryRun, Partial<Record<'exact' | 'ann', Comparison>>>();
  private timing?: { loadMs: number; indexMs: number };
  private readonly view: GoldenDataset;
  private indexPathLeftOut = false;
  /** Name of the shared golden collection once `loaded()` has created it (the liveness probe counts it). */
  private goldenCollection?: string;

  constructor(config: CellConfig) {
    const d = config.dataset;
    this.fit = datasetFit(config.capabilities, { metric: d.manifest.metric, dim: d.manifest.dim });
    this.config = { ...config, capabilities: fitCapabilities(config.capabilities, this.fit), index: fitIndex(config.index, this.fit) };
    // A target without `threshold` cannot run a query with minScore (C09 is skipped for it, naming the
    // capability): every replay of the cell leaves those queries out (`queriesLeftOut`), never runs them without it.
    this.view = config.capabilities.threshold ? d : { ...d, queries: d.queries.filter((q) => q.minScore === undefined) };
    this.oracle = new ExactOracle({
      ids: d.memories.map((m) => m.id),
      namespaces: d.memories.map((m) => m.namespace),
      kinds: d.memories.map((m) => m.kind),
      metadata: d.memories.map((m) => m.metadata),
      vectors: d.vectors,
      dim: d.manifest.dim,
      metric: d.manifest.metric,
    });
    for (const e of config.expectation.entries) this.expected.set(e.query, e);
    this.records = byId(d.memories);
  }

  /** Whether golden memory `id` passes `filter` (false for ids not in the dataset). */
  matches(id: string, filter?: RecallFilter): boolean {
    const r = this.records.get(id);
    return r !== undefined && matchesFilter(r, filter);
  }

  get target(): string {
    return this.config.target;
  }
  get datasetName(): string {
    return this.config.dataset.manifest.name;
  }
  /**
   * The golden dataset as this cell's checks replay it: every query, except on a target without the
   * `threshold` capability, where the queries with `minScore` are left out (`queriesLeftOut`).
   */
  get dataset(): GoldenDataset {
    return this.view;
  }

  /** How many golden queries the cell's replays leave out (minScore queries on a target without `threshold`), and why; null when none. */
  get queriesLeftOut(): { count: number; reason: string } | null {
    const n = this.config.dataset.queries.length - this.view.queries.length;
    return n ? { count: n, reason: 'queries with minScore need capability threshold' } : null;
  }

  /** The recorded expectation for one query; GOLDEN_MISSING when the file has no line for it. */
  expectationFor(queryId: string): ExpectationEntry {
    const e = this.expected.get(queryId);
    if (!e) {
      throw new MemoryMatrixError('GOLDEN_MISSING', `expectation for query ${queryId} of dataset ${this.datasetName} is missing; re-record with --update-golden`);
    }
    return e;
  }

  /** The seed of the golden load order (`CellConfig.loadSeed`, else `DEFAULT_LOAD_SEED`), uint32. */
  get loadSeed(): number {
    return this.config.loadSeed ?? DEFAULT_LOAD_SEED;
  }

  /** Name of the shared golden collection once created (undefined before `loaded()` ran). */
  get goldenCollectionName(): string | undefined {
    return this.goldenCollection;
  }

  /** A new client, closed at dispose. */
  async connect(): Promise<MemoryStore> {
    const store = await this.config.connect();
    this.stores.push(store);
    return store;
  }

  /** A collection name unique to this cell and label: `mm_<label>_<runId><rand>`. */
  collectionName(label: string): string {
    return `${label.replace(/[^a-z0-9]+/g, '_')}_${this.runId}${randomBytes(2).toString('hex')}`;
  }

  /** The collection spec of this dataset with an optional index override. */
  collectionSpec(label: string, index: IndexConfig = { type: 'none' }): CollectionSpec {
    const m = this.dataset.manifest;
    return { name: this.collectionName(label), dim: m.dim, metric: m.metric, index, embeddingModel: m.embeddingModel.id };
  }

  /** A fresh, empty collection (dropped at dispose). */
  async scratch(label: string, spec?: Partial<CollectionSpec>): Promise<{ store: MemoryStore; collection: MemoryCollection }> {
    const store = await this.connect();
    const full = { ...this.collectionSpec(label), ...spec };
    const collection = await store.createCollection(full);
    this.created.push({ store, name: full.name });
    return { store, collection };
  }

  /**
   * The shared golden collection: every dataset memory, the cell's ANN index built after the
   * bulk load. The fingerprint guard (dim, metric, model id) runs before anything is written.
   * The memories are written in the seeded shuffled order of `loadSeed` (load-order.ts), never in
   * the dataset's id order, so insertion order and id order differ (C07's tie rule is id order).
   */
  loaded(): Promise<{ store: MemoryStore; collection: MemoryCollection; loadMs: number; indexMs: number }> {
    this.golden ??= (async () => {
      const { store, collection } = await this.scratch('golden', { index: this.config.index });
      this.goldenCollection = collection.spec.name;
      checkFingerprint(this.dataset.manifest, collection.spec, this.target);
      const all = seededShuffle(this.dataset.memories, this.loadSeed);
      const t0 = performance.now();
      for (let i = 0; i < all.length; i += LOAD_CHUNK) {
        await collection.upsert(all.slice(i, i + LOAD_CHUNK));
        await yieldToEventLoop(); // in-process engines: let signals and timers in (yield.ts)
        this.config.progress?.('load', Math.min(i + LOAD_CHUNK, all.length), all.length);
      }
      const t1 = performance.now();
      // buildIndex() still runs with `index: none` (an adapter may finalise its bulk load there); no "building index" phase is shown for it.
      const hasIndex = this.config.index.type !== 'none';
      if (hasIndex) this.config.progress?.('index', 0, 1);
      await collection.buildIndex();
      if (hasIndex) this.config.progress?.('index', 1, 1);
      const t2 = performance.now();
      this.timing = { loadMs: t1 - t0, indexMs: t2 - t1 };
      return { store, collection, ...this.timing };
    })();
    return this.golden;
  }

  /**
   * Bulk-load and index-build times of the shared golden collection, ms, once it is loaded;
   * undefined when no check loaded it (or the load failed). Never starts a load.
   */
  get loadTimings(): { loadMs: number; indexMs: number } | undefined {
    return this.timing;
  }

  /** Prepare the shared `fixtures` now, each within `limitMs` (prepare.ts `prepareFixtures`); never throws. */
  prepare(fixtures: readonly CellFixture[], limitMs: number): Promise<void> {
    return prepareFixtures(this, fixtures, limitMs, (f, err) => (f === 'golden' ? (this.golden = err) : this.runs.set(f === 'exact-replay' ? 'exact' : 'index', err)));
  }

  /** Every golden query run once in `scan` mode on the shared collection (cached per mode). */
  queryRuns(scan: ScanMode): Promise<Map<string, QueryRun>> {
    let p = this.runs.get(scan);
    if (!p) {
      p = this.runQueries(scan);
      this.runs.set(scan, p);
    }
    return p;
  }

  /**
   * The scan paths a golden replay runs, in order: `exact` and `index` with `exactScan`, else `index`.
   * On a dataset wider than `maxIndexDim` (`fit.indexPath`) the cell has no ANN index: `exact` only
   * (`index` alone without `exactScan`: the unindexed collection), noted for the asking check (`takeIndexPathNote`).
   */
  scanModes(): ScanMode[] {
    this.indexPathLeftOut ||= this.fit.indexPath !== null;
    if (!this.config.capabilities.exactScan) return ['index'];
    return this.fit.indexPath ? ['exact'] : ['exact', 'index'];
  }

  /** The note `no ANN index (<reason>): …` when `scanModes` left the index path out since the last call, else null; resets. */
  takeIndexPathNote(): string | null {
    const left = this.indexPathLeftOut;
    this.indexPathLeftOut = false;
    if (!left) return null;
    const ran = this.config.capabilities.exactScan ? 'index path not run, the exact path ran' : 'the queries ran on the unindexed collection';
    return `no ANN index (${this.fit.indexPath}): ${ran}`;
  }

  /** Run every golden query in `scan` mode now (uncached; C07 uses it for the repeat). */
  async runQueries(scan: ScanMode): Promise<Map<string, QueryRun>> {
    const { collection } = await this.loaded();
    const out = new Map<string, QueryRun>();
    const qs = this.dataset.queries;
    for (const q of qs) {
      const t0 = performance.now();
      const hits = await collection.recall(toRecallQuery(q, scan));
      await yieldToEventLoop();
      out.set(q.id, { query: q, scan, hits, ms: performance.now() - t0 });
      this.config.progress?.(scan === 'exact' ? 'query-exact' : 'query-index', out.size, qs.length);
    }
    return out;
  }

  /**
   * Compare one query run with its recorded expectation (comparator.ts) under this target's
   * tolerances: `scoreOf` from the float64 oracle, `matches` from the golden filter semantics.
   * Computed once per run and mode: a second call with the same `run` object returns the same
   * Comparison (C04 and C05 both judge the shared index replay). Callers must not mutate it.
   */
  compare(run: QueryRun, mode: 'exact' | 'ann'): Comparison {
    const known = this.comparisons.get(run) ?? {};
    const cached = known[mode];
    if (cached) return cached;
    const c = this.compareOnce(run, mode);
    known[mode] = c;
    this.comparisons.set(run, known);
    return c;
  }

  /**
   * Judge every run of a golden replay (dataset query order) with `compare`: the per-query
   * comparisons a check returns as `CheckOutcome.replay` for the report.
   */
  judge(check: string, scan: ScanMode, mode: 'exact' | 'ann', runs: ReadonlyMap<string, QueryRun>): JudgedReplay {
    const queries = [...runs.values()].map((run) => ({ run, expected: this.expectationFor(run.query.id), comparison: this.compare(run, mode) }));
    return { check, scan, mode, queries };
  }

  private compareOnce(run: QueryRun, mode: 'exact' | 'ann'): Comparison {
    const q = run.query;
    return compareHits(
      this.expectationFor(q.id),
      run.hits,
      { dataset: this.datasetName, target: this.target, queryId: q.id, ...whereOf(q, run.scan, this.dataset.manifest.metric) },
      {
        k: q.k,
        mode,
        tieEpsilon: this.config.tolerances.tieEpsilon,
        scoreTolerance: this.config.tolerances.scoreTolerance,
        tolerances: this.oracle.tolerancesFor(q.vector, this.config.tolerances),
        scoreOf: (id) => this.oracle.score(id, q.vector),
        matches: (id) => this.matches(id, q.filter),
      },
    );
  }

  /** Drop every collection this cell created and close every client; errors are collected and rethrown. */
  async dispose(): Promise<void> {
    const errors: unknown[] = [];
    for (const { store, name } of this.created.reverse()) {
      await store.dropCollection(name).catch((e: unknown) => errors.push(e));
    }
    for (const s of this.stores) await s.close().catch((e: unknown) => errors.push(e));
    this.created.length = 0;
    this.stores.length = 0;
    if (errors.length) {
      throw new MemoryMatrixError('BACKEND_ERROR', `cleanup of ${this.target} failed: ${String(errors[0])}`, {
        cause: errors[0],
      });
    }
  }
}

/** The recall request a golden query stands for, in a given scan mode. */
export function toRecallQuery(q: GoldenQuery, scan: ScanMode): RecallQuery {
  return { vector: q.vector, k: q.k, filter: q.filter, minScore: q.minScore, now: q.now, scan };
}

/** Records of the dataset by id. */
export function byId(records: MemoryRecord[]): Map<string, MemoryRecord> {
  return new Map(records.map((r) => [r.id, r]));
}
