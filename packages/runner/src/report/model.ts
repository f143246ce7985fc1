import type { Capabilities, CheckResult, IndexConfig } from '@memory-matrix/spec';
import type { CapabilityMatrix } from './capabilities';
import type { CellQueries } from './queries';

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
  host: { docker: boolean; dockerReason: string };
  dataset: { name: string; version: string; sha256: string; dir: string; memories: number; queries: number; dim: number; metric: string } | null;
  expectation: { file: string; source: string; sha256: string } | null;
  cells: CellReport[];
  /** Targets asked for but not run, with the reason (e.g. image unavailable offline). */
  skippedTargets: Array<{ target: string; reason: string }>;
  summary: { passed: number; failed: number; skipped: number; cellErrors: number };
  /** Set when the run could not be carried out (exit 2). */
  error?: { code: string; message: string };
  exitCode: 0 | 1 | 2;
  /** Target × capability: ✓, or ✗ with the checks skipped for it (report/capabilities.ts). */
  capabilityMatrix?: CapabilityMatrix;
  /** Set by `memory-matrix merge`: the shard reports this report joins, in argument order. */
  mergedFrom?: Array<{ file: string; shard: string | null; startedAt: string; exitCode: number; toolVersion: string }>;
}

export interface CellReport {
  target: string;
  backend: string;
  provider: string;
  /** As reported by the server, e.g. `PostgreSQL 18.6 …`. */
  serverVersion: string | null;
  /** e.g. `{ postgres: '18.6', pgvector: '0.8.7' }`. */
  components: Record<string, string>;
  image: string | null;
  imageId: string | null;
  index: IndexConfig;
  tolerances: Record<string, number>;
  /** ms: backend start, golden bulk load, index build. */
  timings: { startMs: number | null; loadMs: number | null; indexMs: number | null };
  status: 'ran' | 'error';
  error?: { code?: string; message: string };
  checks: CheckResult[];
  /** The target's capabilities (adapter's declaration with the catalog's overrides). */
  capabilities?: Capabilities;
  /** Per-query figures of the golden replays C03 (exact) and C05 (index) ran (report/queries.ts). */
  queries?: CellQueries;
}
