import Table from 'cli-table3';
import pc from 'picocolors';
import { capabilityLine, capabilityMatrix } from './capabilities';
import { fmt, headlineMaxDelta, headlineRecall, headlineRecallMin } from './figures';
import { durabilityRows, type MatrixReport } from './model';
import { checkTables, tableSummary } from './tables';

/**
 * The console summary: one row per check, one column per target (pass / FAIL / skip), then
 * recall@10 and max |Δscore| rows, then the first failures of each failed check.
 */
export function renderConsole(report: MatrixReport, color = process.stdout.isTTY): string {
  const c = color ? pc : pc.createColors(false);
  const cells = report.cells;
  const out: string[] = [];
  if (cells.length) {
    const table = new Table({
      head: ['check', ...cells.map((x) => x.target)],
      style: { head: [], border: [] },
      chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    });
    const ids = [...new Map(cells.flatMap((x) => x.checks.map((k) => [k.id, `${k.id} ${k.name}`] as const))).entries()];
    for (const [id, title] of ids) {
      table.push([
        title,
        ...cells.map((cell) => {
          const r = cell.checks.find((k) => k.id === id);
          if (!r) return cell.status === 'error' ? c.red('error') : '–';
          if (r.status === 'passed') return c.green('pass');
          if (r.status === 'failed') return c.red(`FAIL (${r.failures.length || 'error'})`);
          return c.yellow(`skip: ${r.skipReason ?? ''}`);
        }),
      ]);
    }
    table.push(['recall@k (mean)', ...cells.map((x) => fmt(headlineRecall(x)))]);
    table.push(['recall@k (worst query)', ...cells.map((x) => fmt(headlineRecallMin(x)))]);
    table.push(['max |Δscore|', ...cells.map((x) => fmt(headlineMaxDelta(x)))]);
    table.push(['server', ...cells.map((x) => (x.components.postgres ? `pg ${x.components.postgres} / pgvector ${x.components.pgvector ?? '?'}` : (x.serverVersion ?? '–')))]);
    out.push(table.toString());
    for (const row of (report.capabilityMatrix ?? capabilityMatrix(cells)).targets) out.push(`capabilities ${row.target}: ${capabilityLine(row)}`);
    const dur = report.durability ?? durabilityRows(cells);
    if (dur.length) {
      // C15: acknowledged writes and what kill -9 + restart did to them, per durability configuration.
      const t = new Table({ head: ['target', 'durability configuration', 'promises', 'acknowledged', 'lost', 'phantom (in flight / unknown)', 'duplicated', 'changed', 'cycles', 'verdict'], style: { head: [], border: [] } });
      for (const r of dur) {
        const verdict = r.verdict === 'fail' ? c.red('FAIL') : r.verdict === 'reported' ? c.yellow('lost (not promised)') : c.green('pass');
        t.push([r.target, r.configuration, r.durable ? 'durable' : 'not durable', r.acknowledged, r.lost, `${r.phantomInFlight} / ${r.phantomUnknown}`, r.duplicated, r.changed, r.cycles, verdict]);
      }
      out.push(t.toString());
    }
  }
  for (const cell of cells) {
    if (cell.error) out.push(c.red(`${cell.target}: could not run: ${cell.error.message}`));
    for (const r of cell.checks) {
      if (r.status !== 'failed') continue;
      out.push(c.red(`${cell.target} ${r.id} ${r.name}: ${r.error ? r.error.message : `${r.failures.length} failure(s)`}`));
      for (const f of r.failures.slice(0, 5)) out.push(`  - ${f.message}`);
      if (r.failures.length > 5) out.push(`  … ${r.failures.length - 5} more in report.json`);
    }
  }
  for (const t of checkTables(report)) out.push(tableSummary(t.target, t.table));
  for (const s of report.skippedTargets) out.push(c.yellow(`skipped target ${s.target}: ${s.reason}`));
  const s = report.summary;
  out.push(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped` + (s.cellErrors ? `, ${s.cellErrors} cell(s) could not run` : ''));
  if (report.error) out.push(c.red(`error ${report.error.code}: ${report.error.message}`));
  return out.join('\n');
}
