import type { Capabilities, GoldenQuery, IndexConfig, MemoryCollection, MemoryRecord, MemoryStore, Tolerances, VectorComparison } from '@memory-matrix/spec';

/** The source of a migration: a live collection on target A (the real store, read by `scan`). */
export interface MigrationSource {
  /** `backend@version` of A. */
  target: string;
  collection: MemoryCollection;
  capabilities: Capabilities;
  tolerances: Tolerances;
}

/**
 * The destination: a store on target B in which the migration creates collection
 * `collectionName` (dim, metric and embedding model from A's collection, B's `index`), and
 * `reopen(name)`, which opens that collection from a NEW client (the verification reads what B
 * stored, not what the importing client cached).
 */
export interface MigrationDestination {
  target: string;
  store: MemoryStore;
  reopen(name: string): Promise<MemoryCollection>;
  capabilities: Capabilities;
  tolerances: Tolerances;
  index: IndexConfig;
  collectionName: string;
}

/** The phases `migrateCollection` reports progress for (`done` of `total` units). */
export type MigrationPhase = 'export' | 'import' | 'read-back' | 'recall';

/**
 * Options of `migrateCollection`.
 * - `queries`: recall queries replayed on A and B (the golden queries); vectors of A's dim.
 * - `pageSize`: records per `scan` page, 1..10,000 (default 1,000).
 * - `batchSize`: records per upsert into B (default B's `capabilities.maxBatch`, else 1,000).
 * - `vectors`: how vectors are compared (default bit-exact; see spec record-diff.ts).
 * - `transform`: TEST HOOK, applied to every exported record on its way into B (the gate's
 *   self-test alters one memory's text with it); returns the record to write.
 */
export interface MigrateOptions {
  source: MigrationSource;
  destination: MigrationDestination;
  queries: GoldenQuery[];
  /** Name of the dataset the queries come from (in failure lines). */
  dataset: string;
  pageSize?: number;
  batchSize?: number;
  vectors?: VectorComparison;
  transform?: (r: MemoryRecord) => MemoryRecord;
  progress?: (phase: MigrationPhase, done: number, total: number) => void;
  log?: (line: string) => void;
}

/** Verification check names, in report order. */
export const MIGRATION_CHECKS = ['count', 'ids', 'text', 'metadata', 'timestamps', 'fields', 'vectors', 'recall'] as const;
export type MigrationCheckName = (typeof MIGRATION_CHECKS)[number];

/** Most failure lines kept per check in the report (the count is always exact). */
export const MAX_FAILURE_LINES = 200;

/**
 * One verification check: `failures` are full lines naming the row (`mem-00042: text differs at
 * byte 17 (…)`) or the query, at most MAX_FAILURE_LINES of `failureCount`.
 */
export interface MigrationCheck {
  name: MigrationCheckName;
  status: 'pass' | 'fail';
  /** What was compared and how, one line. */
  rule: string;
  figures: Record<string, number | string | null>;
  failureCount: number;
  failures: string[];
  notes: string[];
}

/** One side as the report shows it. */
export interface MigrationSideReport {
  target: string;
  collection: string;
  quantized: boolean;
  exactScan: boolean;
  /** The scan mode its recall replay used. */
  recallMode: 'exact' | 'index';
}

/** What `migrateCollection` did and found. `passed` = every check passed. */
export interface MigrationResult {
  from: MigrationSideReport;
  to: MigrationSideReport;
  export: { records: number; pages: number; pageSize: number; ms: number };
  import: { records: number; batches: number; batchSize: number; ms: number; indexMs: number };
  readBack: { records: number; pages: number; ms: number };
  recall: { queries: number; ms: number };
  /** Ids whose record `transform` changed (the self-test's row). */
  transformed: string[];
  checks: MigrationCheck[];
  passed: boolean;
}
