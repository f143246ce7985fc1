import type { IndexConfig, ScanMode } from '@memory-matrix/spec';

/**
 * One recorded replay of every golden query on one scan path. Per query, column-wise: `ids` and
 * `scores` (canonical, higher = more similar) of what the target returned, best first, at most
 * the query's `k`; `ms` is its wall time in milliseconds.
 */
export interface BaselineRun {
  scan: ScanMode;
  /** The index the collection had (`none` for a target without an ANN index). */
  index: IndexConfig;
  /** Mean and worst recall@k of this replay against the dataset's oracle expectation (spec recallAtK, tie-aware). */
  oracleRecall: { mean: number; min: number };
  queries: Array<{ query: string; k: number; ids: string[]; scores: number[]; ms: number }>;
}

/**
 * baseline.json, version 1: what `memory-matrix record` stores for one target (see README
 * "Baselines and diffs"). `runs.index` is the path the target is measured on (its catalog index,
 * or the `--index` override); `runs.exact` is there when the target can force an exact scan.
 */
export interface Baseline {
  format: 'memory-matrix-baseline';
  version: 1;
  target: string;
  backend: string;
  provider: string;
  provenance: {
    tool: { name: 'memory-matrix'; version: string; node: string };
    /** ISO-8601 instant the recording finished. */
    recordedAt: string;
    host: { hostname: string; platform: string; arch: string; docker: boolean };
    argv: string[];
    /** (container) image reference and its `sha256:` id; null for other providers. */
    image: string | null;
    imageId: string | null;
    /** As the server reports it, e.g. `PostgreSQL 17.12 …`. */
    serverVersion: string;
    /** Component versions the provider reports, by the names the target's driver gives them (`ReportedVersions.components`). */
    components: Record<string, string>;
    /** The index the candidate would have had from the catalog, when `--index` overrode it. */
    catalogIndex: IndexConfig;
    indexOverride: Record<string, number> | null;
    adapterOptions: Record<string, unknown>;
    /** The target's declared tolerances (scoreTolerance, tieEpsilon, …) from the catalog. */
    tolerances: Record<string, number>;
    /** Milliseconds: backend start, golden bulk load, index build. */
    timings: { startMs: number; loadMs: number; indexMs: number };
  };
  dataset: { name: string; version: string; sha256: string; dir: string; memories: number; queries: number; dim: number; metric: string; expectationSha256: string };
  runs: { index: BaselineRun; exact?: BaselineRun };
  /**
   * Queries whose whole oracle top-k is one tie group of identical vectors (≥ k wide): on an ANN
   * path their crossings are reported, not failed (verdict.ts `judgeQuery`, as C05 does).
   */
  clusterQueries?: string[];
  /**
   * The golden filter set's results (filtered.ts `recordFiltered`), absent in a recording made
   * before they were kept or of a dataset without a filter set (diff then notes it and compares the
   * unfiltered paths only).
   */
  filtered?: FilteredResults;
}

/**
 * What `record` keeps of the golden filter set (golden-data/FORMAT.md "Filter sets"): per scan path
 * a `BaselineRun` whose queries are keyed `<case>/<query id>` (filtered.ts `filteredKey`), each the
 * target's top-k under the case's `where` with recall@k against the set's exact expectation; the
 * cases the target cannot push down (`unsupported`, with the reason: operators outside
 * `filterOperators`, shapes outside `metadataShapes`). `set`: the set's file (display path), its
 * derivation, k, queries and number of cases.
 */
export interface FilteredResults {
  set: { file: string; derivation: string; k: number; queries: string[]; cases: number };
  unsupported: Array<{ case: string; reason: string }>;
  runs: { index?: BaselineRun; exact?: BaselineRun };
}

/** A diff cell's path: `index` / `exact` (the golden queries), `filtered index` / `filtered exact` (the golden filter set's cases). */
export type DiffScan = ScanMode | `filtered ${ScanMode}`;

/**
 * The diff of one cell: one scan path (index or exact) of baseline vs candidate. `queries` holds
 * every query's figures (query-diff.ts); `worst` the ones that changed, worst first.
 */
export interface DiffCell {
  scan: DiffScan;
  baselineIndex: IndexConfig;
  candidateIndex: IndexConfig;
  verdict: 'PASS' | 'DRIFT' | 'FAIL';
  reasons: string[];
  /** Crossings reported, not failed (duplicate clusters on an ANN path). */
  notes: string[];
  figures: Record<string, number>;
  /** Score tolerance under which a delta is not a change, and tie epsilon used (max of both targets). */
  scoreTolerance: number;
  tieEpsilon: number;
  worst: Array<{
    query: string;
    k: number;
    overlap: number;
    missing: string[];
    added: string[];
    maxRankShift: number;
    maxAbsScoreDelta: number;
    failures: string[];
    rankChanges: Array<{ id: string; from: number; to: number; shift: number }>;
  }>;
  queries: Array<{
    query: string;
    k: number;
    overlap: number;
    tieSwaps: number;
    missing: string[];
    added: string[];
    rankChanges: Array<{ id: string; from: number; to: number; shift: number }>;
    scoreDeltaIds: string[];
    scoreDeltas: number[];
    kendallTau: number | null;
  }>;
}

/** One side of a diff: where its results came from and its provenance. */
export interface DiffSide {
  target: string;
  source: 'file' | 'live';
  /** The baseline file read, or (live) the file the recording was kept in. */
  file: string | null;
  provenance: Baseline['provenance'];
}

/** diff.json, version 1 (written by `memory-matrix diff` into --report-dir, also when it could not run). */
export interface DiffReport {
  format: 'memory-matrix-diff';
  version: 1;
  tool: { name: 'memory-matrix'; version: string; node: string };
  createdAt: string;
  argv: string[];
  profile: string;
  thresholds: Record<string, number> | null;
  dataset: Baseline['dataset'] | null;
  baseline: DiffSide | null;
  candidate: DiffSide | null;
  cells: DiffCell[];
  /** Scan paths recorded on one side only, with the reason. */
  notCompared: Array<{ scan: string; reason: string }>;
  verdict: 'PASS' | 'DRIFT' | 'FAIL' | null;
  error?: { code: string; message: string };
  /** 0 PASS or DRIFT, 1 FAIL, 2 could not run, 130 / 143 interrupted by SIGINT / SIGTERM (`error.code` INTERRUPTED). */
  exitCode: 0 | 1 | 2 | 130 | 143;
}
