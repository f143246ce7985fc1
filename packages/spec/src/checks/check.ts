import { type Capabilities, offersCapability } from '../capabilities';
import type { Failure } from '../comparator';
import type { CellFixture, LiveCell } from '../conformance/cell';
import type { Figure, FigureTable, JudgedReplay } from '../conformance/result';

/** What a check's `run` returns; the registrar turns it into a verdict. */
export interface CheckOutcome {
  figures: Record<string, Figure>;
  failures: Failure[];
  notes?: string[];
  tables?: FigureTable[];
  /** The golden replay the check judged query by query (C03, C05); the report draws its per-query figures from it. */
  replay?: JudgedReplay;
}

/**
 * One catalogued check (README.md "Checks"). `requires` names the first missing capability, or null when
 * the target can run it; a check that cannot run is registered as skipped with that name.
 */
export interface CheckDefinition {
  /** Stable id from the catalogue, `C01`…`C25`. */
  id: string;
  /** Stable kebab-case name from the catalogue, e.g. `write-read`. */
  name: string;
  requires(caps: Capabilities): string | null;
  /**
   * `false` for a check that never stores vectors in the golden dataset's metric (it probes metrics
   * of its own choosing at the dataset's dimension: C10, C24), so it still runs on a dataset whose
   * metric the target lacks (conformance/fit.ts `fitSkipReason`). Absent: it does, and is skipped
   * there with `capability: metrics (<metric>)`.
   */
  usesDatasetMetric?: false;
  /** Time limit of the check, ms (the shared fixtures it declares in `fixtures` are prepared before any check, outside it). */
  timeoutMs?: number;
  /**
   * The cell's shared fixtures the check reads (`CellFixture`): the golden collection (loaded and
   * indexed) and the golden replays per scan path. registerConformance prepares them once, before
   * the first check, whatever checks run (conformance/prepare.ts `prepareFixtures`), so no check's result or time limit
   * depends on which checks ran before it (`--check X` alone and the full run judge the same replay).
   */
  fixtures?: readonly CellFixture[];
  run(cell: LiveCell): Promise<CheckOutcome>;
}

/** `requires` helper: the first capability in `names` the target does not offer (`offersCapability`: false, empty, `eventual`), as `capability: <name>`. */
export function needs(...names: Array<keyof Capabilities>): (caps: Capabilities) => string | null {
  return (caps) => {
    for (const n of names) {
      if (!offersCapability(n, caps[n])) return `capability: ${n}`;
    }
    return null;
  };
}

/**
 * A failure a check makes itself (not through the comparator): dataset, target, `queryId` ('-'
 * when it is about no one query), and `metric` the dataset's — a check that probes another metric
 * (C08, C09's boundary, C10) passes its own in `extra`, as it passes `scan`, `filtered` and
 * `threshold` where it knows them (comparator `FailureWhere`; `knownFailures` scopes match on them).
 */
export function failure(cell: LiveCell, kind: Failure['kind'], message: string, extra: Partial<Failure> = {}): Failure {
  return {
    dataset: cell.datasetName,
    target: cell.target,
    queryId: extra.queryId ?? '-',
    kind,
    message: `${cell.datasetName} @ ${cell.target}: ${message}`,
    metric: cell.dataset.manifest.metric,
    ...extra,
  };
}
