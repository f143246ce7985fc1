import { capabilityMatrix, type CapabilityMatrix } from './capabilities';
import { isNotRun } from './figures';
import { filterOperatorTable, type FilterOperatorTable } from './operators';
import { applyKnownFailures } from './known';
import { durabilityRows, type DurabilityRow, type MatrixReport } from './model';
import { sideBySide, type SideBySidePair } from './side-by-side';
import { nothingRan } from './verdict';

/**
 * A report whose derived parts are settled from its cells: `summary`, `capabilityMatrix`,
 * `durability` and `exitCode` are present and agree with `cells`. Every writer (report.json,
 * junit.xml, report.md, report.html, the console) takes a settled report and only renders it.
 */
export type SettledReport = MatrixReport & { capabilityMatrix: CapabilityMatrix; filterOperators: FilterOperatorTable; durability: DurabilityRow[]; sideBySide: SideBySidePair[] };

/**
 * Settle what follows from the cells, once per report (a run's end, a merge): the cells'
 * `knownFailures` (report/known.ts: a listed failure becomes `known`, a listed pass is stale),
 * `summary` (check verdict counts, cells that could not run), `capabilityMatrix` (report/capabilities.ts),
 * `filterOperators` (C31's backend × operator table, report/operators.ts),
 * `durability` (model.ts `durabilityRows`, C15 per target × configuration), `sideBySide` (each client
 * target next to its server's raw target, report/side-by-side.ts), and `exitCode` — 2
 * when `error` is set or a cell could not run, else 1 when a check failed (a `known` one does
 * not, nor does a stale entry), when a cell's teardown failed after its verdicts (`teardownError`:
 * the verdicts stand, so not 2 "could not run"; but what the cell created may be left on the
 * server, so not 0), or when no check ran at all (every one skipped: report/verdict.ts
 * `nothingRan`; a run that checked nothing is not a pass), else 0. Mutates and
 * returns `report`. Pure otherwise; never throws.
 */
export function settleReport(report: MatrixReport): SettledReport {
  const metric = report.dataset?.metric;
  applyKnownFailures(report.cells, metric === 'cosine' || metric === 'ip' || metric === 'l2' ? metric : undefined);
  const all = report.cells.flatMap((c) => c.checks);
  report.summary = {
    passed: all.filter((c) => c.status === 'passed').length,
    failed: all.filter((c) => c.status === 'failed' && !isNotRun(c)).length,
    notRun: all.filter(isNotRun).length,
    known: all.filter((c) => c.status === 'known').length,
    stale: all.filter((c) => c.knownFailure?.verdict === 'stale' && !c.knownFailure.intermittent).length,
    notReproduced: all.filter((c) => c.knownFailure?.verdict === 'stale' && c.knownFailure.intermittent).length,
    skipped: all.filter((c) => c.status === 'skipped').length,
    cellErrors: report.cells.filter((c) => c.status === 'error').length,
    teardownErrors: report.cells.filter((c) => c.teardownError !== undefined).length,
  };
  // (durability before capabilityMatrix: the key order report.json has always had)
  report.durability = durabilityRows(report.cells);
  report.capabilityMatrix = capabilityMatrix(report.cells);
  report.sideBySide = sideBySide(report.cells);
  report.filterOperators = filterOperatorTable(report.cells); // newest last in report.json
  report.exitCode = report.error || report.summary.cellErrors ? 2 : report.summary.failed || report.summary.notRun || report.summary.teardownErrors || nothingRan(report.summary) ? 1 : 0;
  return report as SettledReport;
}
