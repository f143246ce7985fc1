/**
 * The shapes of report.json (version 1): the report, its cells, the durability rows, the
 * capability matrix and the side-by-side pairs. Only types, so every module of report/ that
 * builds or reads a report imports them from here and none imports another for a shape.
 * model.ts, capabilities.ts and side-by-side.ts re-export their names.
 */
import type { Capabilities, CellLimits, CheckResult, CheckStatus, DurabilityFigures, HostCalibration, IndexConfig, KnownFailureEntry, OperatorStatus, PreparedStep } from '@memory-matrix/spec';
import type { RunCpu } from './cpu';
import type { CellQueries } from './queries';
import type { RunTimeZone } from '../time-zone';

/**
 * report.json, version 1. Every run writes it, including runs that could not be carried out
 * (then `error` is set and `cells` may be empty).
 */
export interface MatrixReport {
  format: 'memory-matrix-report';
  version: 1;
  tool: { name: 'memory-matrix'; version: string; node: string };
  /** ISO-8601 instants. */
  startedAt: string;
  finishedAt: string;
  /** Wall time of the whole run, ms. */
  durationMs: number;
  argv: string[];
  profile: string | null;
  /** `i/n` when the run was one shard of n. */
  shard: string | null;
  /**
   * The host: whether Docker answered, and the host calibration the run took at its start (spec
   * host.ts: the factor its time limits were multiplied by; each cell process re-measures as it
   * goes). `calibration` is absent in reports of older versions and of runs stopped before it.
   * `timeZone`: the zone (`TZ`) the runner and the store processes it started ran in (time-zone.ts;
   * containers keep UTC); absent in reports of older versions and of runs stopped before it.
   */
  host: { docker: boolean; dockerReason: string; calibration?: HostCalibration; timeZone?: RunTimeZone };
  /** What the run cost in CPU time (report/cpu.ts); absent in reports of older versions and in merged reports of shards that lack it. */
  cpu?: RunCpu;
  dataset: { name: string; version: string; sha256: string; dir: string; memories: number; queries: number; dim: number; metric: string } | null;
  expectation: { file: string; source: string; sha256: string } | null;
  /**
   * The order every cell wrote the golden memories in: a seeded shuffle (spec load-order.ts),
   * `seed` a uint32 that `--load-seed` replays. Absent in reports of older versions and of runs
   * that stopped before the arguments were read.
   */
  loadOrder?: { seed: number; method: string };
  /**
   * The target catalog the run read in place of the repository's matrix/targets.yaml: `MM_CATALOG`
   * (select.ts `catalogFile`): its path relative to where the reports write paths from (version.ts
   * `displayPath`) when it lies there, else absolute.
   * Absent when the run read the built-in catalog, and in reports of older versions.
   */
  catalog?: { file: string };
  cells: CellReport[];
  /** Targets asked for but not run, with the reason (e.g. image unavailable offline). */
  skippedTargets: Array<{ target: string; reason: string }>;
  /**
   * Check verdict counts: `known` = failed with every failure listed in the target's
   * `knownFailures` (does not fail the run), `stale` = passed checks that a steady `knownFailures`
   * entry lists ("remove the entry"), `notReproduced` = passed checks an `intermittent` entry lists;
   * both counted among `passed` too, neither changes the exit status. `known` / `stale` /
   * `notReproduced` are absent in reports of older versions.
   */
  /**
   * Check verdict counts. `failed` counts checks that ran and failed; `notRun` the checks of a cell
   * that could not run (status failed, error NOT_RUN; absent in older reports, where
   * `failed` counts them).
   */
  summary: { passed: number; failed: number; notRun?: number; known?: number; stale?: number; notReproduced?: number; skipped: number; cellErrors: number; teardownErrors?: number };
  /** Set when the run could not be carried out (exit 2). */
  error?: { code: string; message: string };
  exitCode: 0 | 1 | 2;
  /** Target × capability: ✓, or ✗ with the checks skipped for it (report/capabilities.ts). */
  capabilityMatrix?: CapabilityMatrix;
  /** C31's backend × filter-operator table (report/operators.ts `filterOperatorTable`); absent in reports of older versions. */
  filterOperators?: FilterOperatorTable;
  /** C15 durability per target × configuration (`durabilityRows`); absent in reports of older versions. */
  durability?: DurabilityRow[];
  /**
   * Each client target next to the raw-adapter target of its server, when both ran, with the checks
   * where they differ and why (report/side-by-side.ts); absent in reports of older versions.
   */
  sideBySide?: SideBySidePair[];
  /** Set by `memory-matrix merge`: the shard reports this report joins, in argument order. */
  mergedFrom?: Array<{ file: string; shard: string | null; startedAt: string; exitCode: number; toolVersion: string }>;
}

/** One target's cell of report.json (`cells[]`). */
export interface CellReport {
  target: string;
  backend: string;
  /** For a client target (catalog `server:`): the server target it ran over, e.g. `pgvector@pg17`. */
  server?: string;
  provider: string;
  /** As reported by the server, e.g. `PostgreSQL 18.6 …`. */
  serverVersion: string | null;
  /** Component versions the driver reports, e.g. `{ server: '18.6', extension: '0.8.7' }`. */
  components: Record<string, string>;
  image: string | null;
  imageId: string | null;
  /** The ANN index the cell builds on its golden collection: the catalog's, or `none` on a dataset wider than the target's `maxIndexDim` (spec fit.ts). */
  index: IndexConfig;
  tolerances: Record<string, number>;
  /** ms: backend start, golden bulk load, index build. */
  timings: { startMs: number | null; loadMs: number | null; indexMs: number | null };
  /**
   * The steps the cell prepared before its checks, in order (spec `PreparedStep`): `load` (label
   * `load 5111 memories`), `index`, `exact-replay`, `index-replay`, each with its status, wall time,
   * limit and host factor (and its error when it failed). A failed load makes every check that
   * reads the golden collection NOT_RUN "not run: the golden load failed: <cause>". Absent in
   * reports of older versions and in cells that prepared nothing (no check reads the golden set).
   */
  steps?: PreparedStep[];
  /** The time limits the cell ran under, ms before the host factor (spec `CellLimits`: setup, load, check); absent in reports of older versions. */
  limits?: CellLimits;
  status: 'ran' | 'error';
  error?: { code?: string; message: string };
  /**
   * The cell's teardown (its cleanup: drop what it created, close its clients; then the backend's
   * stop) failed after its setup had succeeded: every verdict stands and `status` stays `ran`; the
   * message names the cause and what was left behind. Counted in `summary.teardownErrors`; makes
   * the exit code at least 1 (report/settle.ts). Absent when the teardown succeeded.
   */
  teardownError?: { code?: string; message: string };
  checks: CheckResult[];
  /** The target's capabilities (adapter's declaration with the catalog's overrides). */
  capabilities?: Capabilities;
  /** Per-query figures of the golden replays C03 (exact) and C05 (index) ran (report/queries.ts). */
  queries?: CellQueries;
  /** The target's catalog `knownFailures` (matrix/targets.yaml), applied when the report is settled (report/known.ts). */
  knownFailures?: KnownFailureEntry[];
  /** The target's catalog `cannotShow` (check id → what that check cannot show on this target), printed beside each such check's verdict (`cannotShowOf`). */
  cannotShow?: Record<string, string>;
}

/**
 * One row of the durability table: a target in one durability configuration (C15 figures, counts
 * of memories). `verdict`: `fail` when C15 failed for this configuration (a durable one lost an
 * acknowledged write or holds unknown phantoms, or duplicates / changes anywhere), `reported` when a
 * configuration that does not promise durability lost writes or came back torn (stated, not
 * failed), `known` when it would be `fail` but C15's failures are all listed in the target's
 * `knownFailures` (status `known`, report/known.ts), else `pass`.
 */
export interface DurabilityRow extends DurabilityFigures {
  target: string;
  verdict: 'pass' | 'fail' | 'reported' | 'known';
}

/** One target × capability entry: ✓ (`ok`), or ✗ with the reason. */
export interface CapabilityEntry {
  ok: boolean;
  /** The declared value: a flag, a list (metrics, ANN index types), or a number (maxBatch, maxDim, maxIndexDim; null = no limit). */
  value: boolean | number | string[] | null;
  /** Why ✗: the checks of this run skipped for it, or that the target does not declare it. */
  reason?: string;
  /** Ids of the checks of this run skipped with `capability: <name>`. */
  skippedChecks?: string[];
}

/** report.json `capabilityMatrix`: rows are targets (cell order), columns `capabilities`. */
export interface CapabilityMatrix {
  capabilities: string[];
  targets: Array<{ target: string; entries: Record<string, CapabilityEntry> }>;
}

/**
 * report.json `sideBySide`: each CLIENT target of the run (a cell with `server`, e.g.
 * `langchain-pgvector@pg17` over `pgvector@pg17`) next to the raw-adapter target of the same server
 * when that target is in the run too, and the checks where the two differ — in verdict, or in a key
 * figure — each with why. Both sides failing a check with different failure kinds is a difference
 * too: the client may fail it for another reason than the server.
 */
export interface SideBySidePair {
  /** The client target, e.g. `langchain-pgvector@pg17`. */
  client: string;
  /** The raw-adapter target of the same server, e.g. `pgvector@pg17`. */
  server: string;
  /** Checks both cells recorded (their ids). */
  compared: number;
  /** Of those, how many agree in verdict and key figures. */
  same: number;
  /** The checks that differ, in check id order. */
  differences: SideBySideDifference[];
}

/** One check where a client target and its server's raw target differ. */
export interface SideBySideDifference {
  /** Check id and name, e.g. `C21`, `idempotent-upsert`. */
  id: string;
  name: string;
  /** The verdict on each side and, where one was measured, the key figures (`KEY_FIGURES`) as text. */
  client: SideVerdict;
  server: SideVerdict;
  /**
   * Why they differ: `capability` (one side skipped it for a missing capability: its skip reason),
   * `skipped` (skipped for another reason, e.g. a profile's tier), `known` (a listed upstream failure:
   * reason and `link`), `failure` (one side failed: its first failure line or error; or both failed
   * with different failure kinds: both sets of kinds, then the client's first failure), `figures`
   * (same verdict, a key figure differs). `side`: the target the explanation is about.
   */
  why: { kind: 'capability' | 'skipped' | 'known' | 'failure' | 'figures'; side: 'client' | 'server'; text: string; link?: string };
}

/** A check's result on one side: its status (absent: the check is not in that cell) and key figures. */
export interface SideVerdict {
  status: CheckStatus | 'absent';
  /** e.g. `recall@k mean 0.9890, worst 0.6000`; absent when the check reports none of `KEY_FIGURES`. */
  figures?: string;
}

/** One target × operator entry: the status, and how many cases using the operator passed, failed, were unsupported. */
export interface OperatorEntry {
  status: OperatorStatus;
  pass: number;
  fail: number;
  unsupported: number;
}

/**
 * report.json `filterOperators`: the backend × operator table of C31 (issue 34). Rows are the
 * cells that recorded C31 (cell order); `operators` the columns (`FILTER_OPERATORS` order, those
 * any row has). A row's `check` is C31's status there; `reason` says why it has no counts (C31
 * skipped: every operator `unsupported` with the skip reason; C31 stopped by an error: no entries).
 * Rule (C31's `operatorTable`): a case counts for every operator it uses; an operator fails when a
 * case using it failed, passes when one ran and none failed, else is unsupported.
 */
export interface FilterOperatorTable {
  operators: string[];
  targets: Array<{ target: string; check: string; reason?: string; entries: Record<string, OperatorEntry> }>;
}
