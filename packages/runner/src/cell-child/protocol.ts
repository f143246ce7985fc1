import { MemoryMatrixError } from '@memory-matrix/spec';
import type { CellReport, MatrixReport } from '../report/model';

/**
 * The child-cell protocol: an embedded cell (PGlite, better-sqlite3: engines that run on the
 * calling process' one JavaScript thread) runs in a child process that is the runner's own CLI,
 * `memory-matrix run --backend <target> --parallel 1 --report-dir <tmp>` plus the parent's
 * dataset, check selection, check tier, C05 repeats and load-order seed. The child writes its report.json there;
 * the parent takes that report's one cell into its own report (`cellFromChildReport`), so the
 * merged report.json / junit.xml / report.md / report.html hold what an in-process run of the cell
 * would have recorded. The child's stderr (its progress and check lines, each naming the target)
 * is relayed line by line, but for the lines naming its temp report dir (internal to the run); its
 * stdout (its own console summary) is kept only for error messages. An interrupted run passes its
 * signal on to the child, whose partial cell names that signal.
 */

/** What the child must run: the parent's selection for one target. Paths are absolute. */
export interface ChildCellSpec {
  /** `backend@version` of the embedded target. */
  target: string;
  /** Absolute dataset folder (the parent resolved `--dataset` already). */
  datasetDir: string;
  /** Absolute folder the child writes its reports into (a temp dir the parent owns). */
  reportDir: string;
  /** `--check` selection as the parent was given it (empty: all). */
  checks: readonly string[];
  /** The profile whose check tier applies (the parent's `checkTier` argument), or undefined for every check. */
  tierProfile?: string;
  /** `--repeat` as given (validated by the parent already). */
  repeat?: string;
  /** The run's golden load-order seed (resolved by the parent: `random` already drawn), passed as `--load-seed`. */
  loadSeed?: number;
  /** Absolute journal file the child appends its steps and verdicts to (`--cell-journal`, journal.ts); none when undefined. */
  journal?: string;
}

/**
 * `memory-matrix run` arguments of the child for `spec` (after the CLI path). `--update-golden` is
 * never passed: the parent recorded the expectation before any cell started, the child reads it.
 * `--profile` is passed only for its check tier (with `--backend` it selects no targets).
 */
export function childRunArgs(spec: ChildCellSpec): string[] {
  const args = ['run', '--backend', spec.target, '--dataset', spec.datasetDir, '--report-dir', spec.reportDir, '--parallel', '1'];
  if (spec.tierProfile !== undefined) args.push('--profile', spec.tierProfile);
  if (spec.checks.length) args.push('--check', spec.checks.join(','));
  if (spec.repeat !== undefined) args.push('--repeat', spec.repeat);
  if (spec.loadSeed !== undefined) args.push('--load-seed', String(spec.loadSeed));
  if (spec.journal !== undefined) args.push('--cell-journal', spec.journal);
  return args;
}

/** What the parent's report says the child must agree with. */
export interface ChildExpectation {
  target: string;
  /** sha256 of the golden dataset the parent loaded. */
  datasetSha256: string;
  /** sha256 of the expectation file the parent compares against. */
  expectationSha256: string;
}

/**
 * The one cell of a child's report.json, checked against what the parent ran: the report holds
 * exactly one cell, of `want.target`, over the same dataset and expectation (sha256), and carries
 * no run error. Throws CHILD_FAILED naming the target and what differs (a run error keeps the
 * child's code and message). The cell is returned as the child recorded it (a cell whose backend
 * did not start is a cell with status `error`: a result, not a protocol failure). `where` (the
 * child's exit status, its last output) ends each message.
 */
export function cellFromChildReport(report: MatrixReport, want: ChildExpectation, where: string): CellReport {
  const fail = (why: string): MemoryMatrixError => new MemoryMatrixError('CHILD_FAILED', `${want.target}: the cell's child process ${why} (${where})`);
  if (report.error) throw fail(`ended with a run error ${report.error.code}: ${report.error.message}`);
  if (report.cells.length !== 1 || report.cells[0]!.target !== want.target) {
    throw fail(`reported cell(s) [${report.cells.map((c) => c.target).join(', ')}], expected exactly ${want.target}`);
  }
  if (report.dataset?.sha256 !== want.datasetSha256) throw fail(`ran dataset sha256 ${report.dataset?.sha256 ?? 'none'}, the run has ${want.datasetSha256}`);
  if (report.expectation?.sha256 !== want.expectationSha256) {
    throw fail(`compared against expectation sha256 ${report.expectation?.sha256 ?? 'none'}, the run has ${want.expectationSha256}`);
  }
  return report.cells[0]!;
}

/**
 * Where the embedded cells of a run execute: `child` (each in its own process, scheduled with the
 * other cells under the parallel bound) or `inprocess` (on the runner's thread, alone, after the
 * other cells: parallel.ts `exclusiveSuites`). `MM_EMBEDDED_INPROCESS=1` forces in-process,
 * `MM_EMBEDDED_INPROCESS=0` forces child processes; otherwise child processes when the run has
 * more than one cell (a single cell has nothing to overlap with). Throws USAGE on another value.
 */
export function embeddedMode(cellCount: number, env: string | undefined): 'child' | 'inprocess' {
  if (env === undefined || env === '') return cellCount > 1 ? 'child' : 'inprocess';
  if (env === '1') return 'inprocess';
  if (env === '0') return 'child';
  throw new MemoryMatrixError('USAGE', `MM_EMBEDDED_INPROCESS "${env}": expected 1 (embedded cells in the runner's process, alone) or 0 (each in a child process), or unset`);
}
