// The small shapes a cell, its fixtures, its results and the checks share (cell.ts builds them;
// result.ts, prepare.ts and the checks read them), so none of those imports cell.ts for a shape.
import type { GoldenQuery } from '../golden/types';
import type { RecallHit } from '../types';

/** A phase of a cell's progress (the golden load, the index build, the replay on each scan path). */
export type ProgressPhase = 'load' | 'index' | 'query-exact' | 'query-index';

/** The path a query is sent on: an exact scan, or the ANN index. */
export type ScanMode = 'exact' | 'index';

/** A shared fixture of a cell (`CheckDefinition.fixtures`): the golden collection, or the golden replay on one scan path. */
export type CellFixture = 'golden' | 'exact-replay' | 'index-replay';

/** One query's result in one scan mode (`scan`, the path it was sent on), with its wall time in ms. */
export interface QueryRun {
  query: GoldenQuery;
  scan: ScanMode;
  hits: RecallHit[];
  ms: number;
}

/**
 * The release baseline a profile judges C05 against (`baselines:` of a profile in
 * matrix/targets.yaml; the runner reads the committed `record` output of the target and passes it
 * as `CellConfig.baseline`). `queries`: the index-path top-k of every golden query as recorded,
 * ids best first with their canonical scores. Tolerances are recall@k fractions in [0, 1]:
 * `meanRecallDrop` the largest fall of the cell's mean recall@k below the baseline's mean that
 * passes, `queryRecallDrop` the largest fall of one query's recall@k below its baseline recall.
 */
export interface ReleaseBaseline {
  /** The baseline file, repository-relative (named in every failure). */
  file: string;
  /** When it was recorded (ISO-8601), and the server version it was recorded on. */
  recordedAt: string;
  serverVersion: string;
  queries: ReadonlyMap<string, { ids: readonly string[]; scores: readonly number[] }>;
  meanRecallDrop: number;
  queryRecallDrop: number;
}
