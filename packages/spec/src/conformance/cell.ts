import { randomBytes } from 'node:crypto';
import type { MemoryCollection, MemoryStore } from '../adapter';
import type { Comparison } from '../comparator';
import type { PreparedStep } from './prepare';
import { cleanupError, dropAndClose, releaseSince, type CellMark, type CreatedCollection } from './cleanup';
import { MemoryMatrixError } from '../errors';
import { yieldToEventLoop } from '../yield';
import type { ExpectationEntry } from '../expectation';
import { checkFingerprint } from '../golden/fingerprint';
import type { GoldenDataset, GoldenQuery } from '../golden/types';
import { ExactOracle } from '../oracle';
import { DEFAULT_LOAD_SEED, seededShuffle } from '../load-order';
import type { JudgedReplay } from './result';
import { type DatasetFit, datasetFit, fitCapabilities, fitIndex } from './fit';
import { ReplayJudge } from './judge';
import type { CellFixture, ProgressPhase, QueryRun, ScanMode } from './types';
import type { CellConfig } from './config';
import type { CollectionSpec, IndexConfig, RecallFilter, RecallQuery } from '../types';

export type { CellFixture, ProgressPhase, QueryRun, ScanMode };
export { byId } from './judge';
export type { CellConfig, SpawnedInstance } from './config';

/** Records per upsert call during the golden load (progress granularity; adapters chunk further). */
const LOAD_CHUNK = 500;

/**
 * A started cell: shared fixtures for the checks. The golden collection is loaded once (by
 * prepare.ts `prepareFixtures` before the first check under registerConformance; lazily on first use otherwise)
 * and shared by read-only checks; checks that write get a fresh `scratch` collection with a
 * random-suffixed name, so checks stay independent; released when it ends (`releaseSince`), or at `dispose`.
 */
export class LiveCell {
  /** The caller's config with the dataset's gaps applied (fit.ts `fitCapabilities`, `fitIndex`). */
  readonly config: CellConfig;
  /** How the dataset fits the target's declared capabilities (fit.ts `datasetFit`). */
  readonly fit: DatasetFit;
  readonly oracle: ExactOracle;
  readonly runId = randomBytes(3).toString('hex');
  /** Compares this cell's query runs with the recorded expectation (judge.ts); `compare`, `judge`, `expectationFor` and `matches` are its. */
  readonly judging: ReplayJudge;
  private readonly stores: MemoryStore[] = [];
  private readonly created: CreatedCollection[] = [];
  private golden?: Promise<{ store: MemoryStore; collection: MemoryCollection; loadMs: number; indexMs: number }>;
  private readonly runs = new Map<ScanMode, Promise<Map<string, QueryRun>>>();
  private timing?: { loadMs: number; indexMs: number };
  private readonly view: GoldenDataset;
  private indexPathLeftOut = false;
  /** Name of the shared golden collection once `loaded()` has created it (the liveness probe counts it). */
  private goldenCollection?: string;
  /** `stopped`: the golden load / replay whose limit ran out (it stops before its next batch / query); `written`: how far the load got; `current`: `noteStep`. */
  private readonly stopped = new Set<'load' | ScanMode>();
  private written = { written: 0, indexing: false, ms: 0 };
  private current?: string;
  /** The steps prepare.ts `prepareFixtures` ran before the checks, in order (empty until it ran). */
  readonly steps: PreparedStep[] = [];

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
      createdAt: d.memories.map((m) => m.createdAt),
      vectors: d.vectors,
      dim: d.manifest.dim,
      metric: d.manifest.metric,
    });
    this.judging = new ReplayJudge({ target: config.target, dataset: this.view, expectation: config.expectation, tolerances: config.tolerances, oracle: this.oracle });
  }

  /** Whether golden memory `id` passes `filter` (false for ids not in the dataset): judge.ts `ReplayJudge.matches`. */
  matches(id: string, filter?: RecallFilter): boolean {
    return this.judging.matches(id, filter);
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

  /** The recorded expectation for one query; GOLDEN_MISSING when the file has no line for it (judge.ts `ReplayJudge.expectationFor`). */
  expectationFor(queryId: string): ExpectationEntry {
    return this.judging.expectationFor(queryId);
  }

  /** The seed of the golden load order (`CellConfig.loadSeed`, else `DEFAULT_LOAD_SEED`), uint32. */
  get loadSeed(): number {
    return this.config.loadSeed ?? DEFAULT_LOAD_SEED;
  }

  /** Name of the shared golden collection once created (undefined before `loaded()` ran). */
  get goldenCollectionName(): string | undefined {
    return this.goldenCollection;
  }

  /** A new client, closed when the check that opened it ends (`releaseSince`) or at dispose. */
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

  /** A fresh, empty collection (dropped when the check that made it ends, or at dispose). */
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
        if (this.stopped.has('load')) throw new MemoryMatrixError('TIMEOUT', `${this.target}: the golden load was stopped at its time limit after ${i} of ${all.length} memories`);
        this.noteStep(`loading ${all.length} memories`, i);
        await collection.upsert(all.slice(i, i + LOAD_CHUNK));
        await yieldToEventLoop(); // in-process engines: let signals and timers in (yield.ts)
        this.written.written = Math.min(i + LOAD_CHUNK, all.length);
        this.config.progress?.('load', this.written.written, all.length);
      }
      const t1 = performance.now();
      this.written = { written: all.length, indexing: true, ms: t1 - t0 };
      this.noteStep(`building the index (${this.config.index.type}) after the load`);
      // buildIndex() still runs with `index: none` (an adapter may finalise its bulk load there); no "building index" phase is shown for it.
      const hasIndex = this.config.index.type !== 'none';
      if (hasIndex) this.config.progress?.('index', 0, 1);
      await collection.buildIndex();
      this.noteStep(undefined); // the load step has ended: no later limit names it
      if (hasIndex) this.config.progress?.('index', 1, 1);
      const t2 = performance.now();
      this.timing = { loadMs: t1 - t0, indexMs: t2 - t1 };
      return { store, collection, ...this.timing };
    })();
    return this.golden;
  }

  /** Bulk-load and index-build times of the shared golden collection, ms, once loaded; undefined when no check loaded it (or it failed). Never starts a load. */
  get loadTimings(): { loadMs: number; indexMs: number } | undefined {
    return this.timing;
  }

  /**
   * Make the shared fixture `fixture` the rejection `err` for every later reader (the golden
   * collection, or the replay on that scan path): what prepare.ts `prepareFixtures` does to a step
   * past its limit, whose own promise may never settle. Throws nothing.
   */
  failFixture(fixture: CellFixture, err: Promise<never>): void {
    if (fixture === 'golden') this.golden = err;
    else this.runs.set(fixture === 'exact-replay' ? 'exact' : 'index', err);
  }

  /** How far the golden load got: memories written, whether the index build started, ms the writes took. */
  get loadProgress(): { written: number; indexing: boolean; ms: number } {
    return { ...this.written };
  }

  /** Tell the golden load (`load`), or every replay on a scan path, to stop before its next batch / query (its limit ran out); one that finished is unaffected. */
  stop(what: 'load' | ScanMode): void {
    this.stopped.add(what);
  }

  /** Record what the cell does now (`recall (exact) of 40 golden queries`, with `, 31 done` when `done` is given) for a limit's message; checks may call it: as a step starts, `undefined` as it ends. */
  noteStep(what: string | undefined, done?: number): void {
    this.current = what === undefined || done === undefined ? what : `${what}, ${done} done`;
  }

  /** The last step `noteStep` recorded (registerConformance clears it before each check). */
  get step(): string | undefined {
    return this.current;
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
      if (this.stopped.has(scan)) throw new MemoryMatrixError('TIMEOUT', `${this.target}: the ${scan} replay was stopped at its time limit after ${out.size} of ${qs.length} queries`);
      this.noteStep(`recall (${scan}) of ${qs.length} golden queries`, out.size); // before it runs: a limit names this query, not the step before
      const t0 = performance.now();
      const hits = await collection.recall(toRecallQuery(q, scan));
      await yieldToEventLoop();
      out.set(q.id, { query: q, scan, hits, ms: performance.now() - t0 });
      this.config.progress?.(scan === 'exact' ? 'query-exact' : 'query-index', out.size, qs.length);
    }
    this.noteStep(undefined); // the replay has ended
    return out;
  }

  /** One query run compared with its recorded expectation, once per run and mode (judge.ts `ReplayJudge.compare`). Callers must not mutate it. */
  compare(run: QueryRun, mode: 'exact' | 'ann'): Comparison {
    return this.judging.compare(run, mode);
  }

  /** Every run of a golden replay judged with `compare`, in dataset query order (judge.ts `ReplayJudge.judge`). */
  judge(check: string, scan: ScanMode, mode: 'exact' | 'ann', runs: ReadonlyMap<string, QueryRun>): JudgedReplay {
    return this.judging.judge(check, scan, mode, runs);
  }

  /** What the cell holds now; a check's own clients and collections are those made after it. */
  mark = (): CellMark => ({ stores: this.stores.length, created: this.created.length });

  /** Release what the check that began at `mark` opened, keeping the golden collection (cleanup.ts `releaseSince`). Never throws. */
  releaseSince(mark: CellMark): Promise<void> {
    return releaseSince({ stores: this.stores, created: this.created }, mark, this.goldenCollection);
  }

  /** Drop every collection this cell created, close every client (each step tried); throws BACKEND_ERROR `cleanup of <target> failed: <first error>; left behind: <what>`. */
  async dispose(): Promise<void> {
    const left = await dropAndClose(this.created.splice(0), this.stores.splice(0), false);
    const err = cleanupError(this.target, left);
    if (err) throw err;
  }
}

/** The recall request a golden query stands for, in a given scan mode. */
export function toRecallQuery(q: GoldenQuery, scan: ScanMode): RecallQuery {
  return { vector: q.vector, k: q.k, filter: q.filter, minScore: q.minScore, now: q.now, scan };
}
