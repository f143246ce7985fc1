import type { Tolerances } from '../capabilities';
import { compareHits, type Comparison } from '../comparator';
import { MemoryMatrixError } from '../errors';
import type { Expectation, ExpectationEntry } from '../expectation';
import { matchesFilter } from '../filter';
import type { GoldenDataset } from '../golden/types';
import type { ExactOracle } from '../oracle';
import type { MemoryRecord, RecallFilter } from '../types';
import type { JudgedReplay } from './result';
import type { QueryRun, ScanMode } from './types';
import { whereOf } from './where';

/** What a cell's judge reads: the cell's target, its dataset view, the recorded expectation, its tolerances and the float64 oracle of its dataset. */
export interface JudgeInputs {
  /** `backend@version`. */
  target: string;
  /** The golden dataset as the cell replays it (its memories give the filter semantics, its manifest the name and metric). */
  dataset: GoldenDataset;
  expectation: Expectation;
  tolerances: Tolerances;
  oracle: ExactOracle;
}

/**
 * The judge of one cell's query runs (LiveCell delegates to it): each run compared with its
 * recorded expectation by comparator.ts `compareHits`, once per run object and mode.
 */
export class ReplayJudge {
  private readonly expected = new Map<string, ExpectationEntry>();
  private readonly records: Map<string, MemoryRecord>;
  private readonly comparisons = new WeakMap<QueryRun, Partial<Record<'exact' | 'ann', Comparison>>>();

  constructor(private readonly inputs: JudgeInputs) {
    for (const e of inputs.expectation.entries) this.expected.set(e.query, e);
    this.records = byId(inputs.dataset.memories);
  }

  /** Whether golden memory `id` passes `filter` (false for ids not in the dataset). */
  matches(id: string, filter?: RecallFilter): boolean {
    const r = this.records.get(id);
    return r !== undefined && matchesFilter(r, filter);
  }

  /** The recorded expectation for one query; GOLDEN_MISSING when the file has no line for it. */
  expectationFor(queryId: string): ExpectationEntry {
    const e = this.expected.get(queryId);
    if (!e) {
      throw new MemoryMatrixError('GOLDEN_MISSING', `expectation for query ${queryId} of dataset ${this.inputs.dataset.manifest.name} is missing; re-record with --update-golden`);
    }
    return e;
  }

  /**
   * Compare one query run with its recorded expectation (comparator.ts) under the target's
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
    const { dataset, target, tolerances, oracle } = this.inputs;
    return compareHits(
      this.expectationFor(q.id),
      run.hits,
      { dataset: dataset.manifest.name, target, queryId: q.id, ...whereOf(q, run.scan, dataset.manifest.metric) },
      {
        k: q.k,
        mode,
        tieEpsilon: tolerances.tieEpsilon,
        scoreTolerance: tolerances.scoreTolerance,
        tolerances: oracle.tolerancesFor(q.vector, tolerances),
        scoreOf: (id) => oracle.score(id, q.vector),
        matches: (id) => this.matches(id, q.filter),
      },
    );
  }
}

/** Records of the dataset by id. */
export function byId(records: MemoryRecord[]): Map<string, MemoryRecord> {
  return new Map(records.map((r) => [r.id, r]));
}
