import type { HostCalibration } from '@memory-matrix/spec';
import Table from 'cli-table3';
import pc from 'picocolors';
import { capabilityLine } from './capabilities';
import { operatorGlyph } from './operators';
import { cpuLine } from './cpu';
import { failureLines } from './failure-groups';
import { countsLine, failedText, fmt, recallText, isNotRun } from './figures';
import { tableSummary } from './tables';
import { failedStepLines, stepRows } from './steps';
import { cannotShowOf, skippedPartsText, type CellReport } from './model';
import type { RunTimeZone } from '../time-zone';
import type { ReportView } from './view';
import { nothingRan, nothingRanLine } from './verdict';

/**
 * The console summary of a settled report's view (report/view.ts): one row per check, one column
 * per target (pass / FAIL / skip), then the recall@k, max |Δscore| and server rows, the capability
 * lines, the durability table, the failures of each failed check (one line per cause, `failureLines`, up to 5), the known failures
 * (amber, reason and link) and stale knownFailures entries, one line per check table, and the counts. `color`: ANSI colours (default: when stdout is a terminal).
 */
export function renderConsole(view: ReportView, color = process.stdout.isTTY): string {
  const c = color ? pc : pc.createColors(false);
  const { report, headlines } = view;
  const cells = report.cells;
  const out: string[] = [];
  if (cells.length) {
    const table = new Table({
      head: ['check', ...cells.map((x) => x.target)],
      style: { head: [], border: [] },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    });
    // The steps prepared before the checks (the golden load first), each with its own time: never charged to a check.
    for (const row of stepRows(cells)) table.push([row.title, ...row.entries.map((e) => (e.startsWith('FAIL') ? c.red(e) : e))]);
    for (const row of view.checkRows) {
      table.push([
        row.title,
        ...cells.map((cell, i) => {
          const r = row.results[i];
          if (!r) return cell.status === 'error' ? c.red('error') : '–';
          if (r.status === 'passed' && r.knownFailure) return c.green('pass') + c.yellow(r.knownFailure.intermittent ? ' (known: not reproduced)' : ' (STALE known)');
          const partWords = skippedPartsText(r);
          const partText = partWords ? c.yellow(partWords) : '';
          if (r.status === 'passed') return c.green('pass') + partText + (cannotShowOf(cell, r) ? c.yellow(' (cannot show all: see below)') : '');
          if (r.status === 'known') return c.yellow(`KNOWN (${r.failures.length})`);
          if (r.status === 'failed') return c.red(failedText(r));
          return c.yellow(`skip: ${r.skipReason ?? ''}`);
        }),
      ]);
    }
    table.push(['recall@k (mean)', ...headlines.map((h) => recallText(h.recallMean, h.recallMeanFrom))]);
    table.push(['recall@k (worst query)', ...headlines.map((h) => recallText(h.recallMin, h.recallMinFrom))]);
    table.push(['max |Δscore|', ...headlines.map((h) => fmt(h.maxDelta))]);
    table.push(['server', ...headlines.map((h) => h.server)]);
    out.push(table.toString());
    for (const row of report.capabilityMatrix.targets) out.push(`capabilities ${row.target}: ${capabilityLine(row)}`);
    for (const row of report.filterOperators.targets)
      out.push(`filter operators ${row.target}: ${report.filterOperators.operators.map((op) => `${op} ${operatorGlyph(row.entries[op])}`).join(' · ')}${row.reason ? ` (${row.reason})` : ''}`);
    const dur = report.durability;
    if (dur.length) {
      // C15: acknowledged writes and what kill -9 + restart did to them, per durability configuration.
      const t = new Table({
        head: ['target', 'durability configuration', 'promises', 'acknowledged', 'lost', 'phantom (in flight / unknown)', 'duplicated', 'changed', 'cycles', 'verdict'],
        style: { head: [], border: [] },
      });
      for (const r of dur) {
        const verdict = r.verdict === 'fail' ? c.red('FAIL') : r.verdict === 'known' ? c.yellow('KNOWN') : r.verdict === 'reported' ? c.yellow('lost (not promised)') : c.green('pass');
        t.push([r.target, r.configuration, r.durable ? 'durable' : 'not durable', r.acknowledged, r.lost, `${r.phantomInFlight} / ${r.phantomUnknown}`, r.duplicated, r.changed, r.cycles, verdict]);
      }
      out.push(t.toString());
    }
  }
  for (const cell of cells) {
    // A cell error after checks ran (its cleanup failed: the store had died) is not "could not run".
    if (cell.error) out.push(c.red(`${cell.target}: ${ranAny(cell) ? 'error' : 'could not run'}: ${cell.error.message}`));
    if (cell.teardownError) out.push(c.red(`${cell.target}: teardown failed after its checks (their verdicts stand; exit code at least 1): ${cell.teardownError.message}`));
    for (const line of failedStepLines(cell)) out.push(c.red(line));
    // Checks not run: one line per cause (spec conformance/liveness.ts: the store stopped answering
    // mid-cell); the cell's own error, which each of them carries, is not repeated.
    for (const [cause, ids] of notRunCauses(cell)) {
      const said = cell.error !== undefined && cause.includes(cell.error.message.split('\n')[0]!);
      out.push(c.red(`${cell.target}: ${ids.length} check(s) not run (${ids.join(', ')})${said ? '' : `: ${cause}`}`));
    }
    for (const r of cell.checks) {
      if (isNotRun(r)) continue;
      const limit = cannotShowOf(cell, r);
      if (limit) out.push(c.yellow(`${cell.target} ${r.id} ${r.name}: ${r.status === 'passed' ? 'passed, but' : 'on this target it'} cannot show ${limit}`));
      const k = r.knownFailure;
      if (r.status === 'passed' && k) out.push(c.yellow(`${cell.target} ${r.id} ${r.name}: ${k.message}`));
      if (r.status === 'known' && k) {
        out.push(c.yellow(`${cell.target} ${r.id} ${r.name}: ${r.failures.length} failure(s), ${k.message}`));
        for (const f of r.failures.slice(0, 2)) out.push(`  - ${f.message}`);
      }
      if (r.status !== 'failed') continue;
      out.push(c.red(`${cell.target} ${r.id} ${r.name}: ${r.error ? r.error.message : `${r.failures.length} failure(s)`}`));
      if (k) out.push(c.red(`  knownFailures entry (${k.link}): ${k.message}`));
      for (const line of failureLines(r.failures, 5)) out.push(`  - ${line}`);
    }
  }
  for (const t of view.tables) out.push(tableSummary(t.target, t.table));
  for (const s of report.skippedTargets) out.push(c.yellow(`skipped target ${s.target}: ${s.reason}`));
  if (report.catalog) out.push(catalogLine(report.catalog));
  if (report.loadOrder && loadedAny(report)) out.push(loadOrderLine(report.loadOrder));
  // Every run that reached its cells names its host factor, zone and CPU, also one where no check ran.
  if (report.host.calibration && cells.length) out.push(hostLine(report.host.calibration));
  if (report.host.timeZone && cells.length) out.push(zoneLine(report.host.timeZone));
  if (report.cpu && cells.length) out.push(cpuLine(report.cpu, report.durationMs));
  const recap = failedRecap(cells);
  if (recap) out.push(c.red(recap));
  const s = report.summary;
  // A run stopped before any cell (bad flag, unknown target, malformed golden data) has no counts to give.
  if (!(report.error && cells.length === 0)) out.push(countsLine(s));
  // A run where every check skipped checked nothing: said loudly, exit 1 (report/settle.ts); the skip reasons are in the table above.
  if (!report.error && nothingRan(s)) out.push(c.red(c.bold(`memory-matrix: ${nothingRanLine(s)}`)));
  // The same prefix as every other error the CLI prints (cli.ts).
  if (report.error) out.push(c.red(`memory-matrix: ${report.error.code}: ${report.error.message}`));
  return out.join('\n');
}

/**
 * One line naming every failed check of the run (`target Cnn name`, in cell order), printed just above
 * the counts: a CI log cut to its last lines still says what failed, not only how many. Checks not
 * run are named by their own lines above and left out here; `null` when nothing failed. Past
 * `limit` entries (default 12) the line ends `… and N more`.
 */
export function failedRecap(cells: ReadonlyArray<CellReport>, limit = 12): string | null {
  const names: string[] = [];
  for (const cell of cells) for (const r of cell.checks) if (r.status === 'failed' && !isNotRun(r)) names.push(`${cell.target} ${r.id} ${r.name}`);
  if (!names.length) return null;
  const more = names.length > limit ? ` … and ${names.length - limit} more` : '';
  return `failed (${names.length}): ${names.slice(0, limit).join('; ')}${more}`;
}

/** The checks of a cell that ran but were recorded not run (status failed, NOT_RUN), grouped by their cause: cause → check ids. */
export function notRunCauses(cell: CellReport): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of cell.checks.filter(isNotRun)) {
    const cause = r.error!.message;
    out.set(cause, [...(out.get(cause) ?? []), r.id]);
  }
  return out;
}

/** Whether any cell of the report loaded the golden memories (its `timings.loadMs` is set): only then is there a load order to name. */
export function loadedAny(report: { cells: ReadonlyArray<{ timings: { loadMs: number | null } }> }): boolean {
  return report.cells.some((c) => c.timings.loadMs !== null);
}

/** The line naming the golden load order of a run: its method and the seed that replays it. */
export function loadOrderLine(o: { seed: number; method: string }): string {
  return `golden memories loaded in a seeded shuffled order (${o.method}), seed ${o.seed}: --load-seed ${o.seed} replays it`;
}

/** The line naming the catalog file a run read in place of matrix/targets.yaml (report.json `catalog`: MM_CATALOG). */
export function catalogLine(c: { file: string }): string {
  return `target catalog ${c.file} (MM_CATALOG, in place of matrix/targets.yaml)`;
}

/** The line naming the host calibration of a run (spec host.ts): the factor its time limits were multiplied by, and what it came from. */
export function hostLine(h: HostCalibration): string {
  if (h.source === 'MM_HOST_FACTOR')
    return `host factor ${h.factor} (set by MM_HOST_FACTOR, not measured; load average ${h.loadAverage} on ${h.cpus} CPUs): every time limit of every cell is multiplied by this fixed factor`;
  return `host factor ${h.factor} at the start (contention ${h.contention}, speed ${h.speed} vs the reference machine; load average ${h.loadAverage} on ${h.cpus} CPUs): time limits are multiplied by the factor each cell measures as it runs`;
}

/** The line naming the time zone the run's processes worked in (time-zone.ts), e.g. `time zone Australia/Adelaide (UTC+09:30, +10:30)…`. */
export function zoneLine(z: RunTimeZone): string {
  return `time zone ${z.name} (UTC${z.offsets.join(', ')}): the runner, its child cells, store processes and local servers ran in it; containers keep their image's zone`;
}

/** Whether any check of the cell ran (passed, failed with a verdict or an error of its own, or known): not skipped, not NOT_RUN. */
export function ranAny(cell: CellReport): boolean {
  return cell.checks.some((r) => r.status !== 'skipped' && !isNotRun(r));
}
