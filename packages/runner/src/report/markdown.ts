import { capabilityGlyph } from './capabilities';
import { cpuLine } from './cpu';
import { type FilterOperatorTable, operatorGlyph } from './operators';
import { catalogLine, hostLine, loadedAny, loadOrderLine, notRunCauses, ranAny, zoneLine } from './console';
import { failureLines } from './failure-groups';
import { countsLine, failedText, fmt, recallText, glyph, isNotRun } from './figures';
import { tableMarkdown } from './tables';
import { failedStepLines, stepRows } from './steps';
import { cannotShowOf, skippedPartsText } from './model';
import { nothingRan, nothingRanLine, verdictHeading } from './verdict';
import type { SideBySidePair } from './side-by-side';
import type { ReportView } from './view';

const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * report.md of a settled report's view (report/view.ts): GitHub-flavoured markdown for
 * `$GITHUB_STEP_SUMMARY` or a PR comment — verdict, target × check table, headline figures,
 * server versions, durability and capability tables, each client target side by side with its server's
 * raw target (`sideBySideMarkdown`), the failures of each failed check (one line per cause, `failureLines`, up to 20),
 * the known upstream failures (KNOWN / stale / not reproduced, with reason and link), and the check tables.
 */
export function renderMarkdown(view: ReportView): string {
  const { report, headlines } = view;
  const s = report.summary;
  const verdict = verdictHeading(report);
  const lines: string[] = [`# memory-matrix report — ${verdict}`, ''];
  if (report.dataset)
    lines.push(
      `Dataset **${report.dataset.name}** v${report.dataset.version} (${report.dataset.memories} memories, ${report.dataset.queries} queries, ${report.dataset.dim}-d ${report.dataset.metric}, sha256 \`${report.dataset.sha256.slice(0, 12)}\`)`,
    );
  lines.push(`Run ${report.startedAt}, ${(report.durationMs / 1000).toFixed(1)} s, memory-matrix ${report.tool.version}${report.shard ? `, shard ${report.shard}` : ''}.`, '');
  if (report.catalog) lines.push(`${catalogLine(report.catalog)}.`, '');
  if (report.loadOrder && loadedAny(report)) lines.push(`${loadOrderLine(report.loadOrder)}.`, '');
  if (report.host.calibration && report.cells.length) lines.push(`${hostLine(report.host.calibration)}.`, '');
  if (report.host.timeZone && report.cells.length) lines.push(`${zoneLine(report.host.timeZone)}.`, '');
  if (report.cpu && report.cells.length) lines.push(`${cpuLine(report.cpu, report.durationMs)}.`, '');
  lines.push(`**${countsLine(s)}**`, '');
  // Targets of the profile not run (no Docker engine: its fallbackTargets; an adapter not installed), as the console says them.
  if (report.skippedTargets.length) lines.push(...report.skippedTargets.map((t) => `- skipped target **${esc(t.target)}**: ${esc(t.reason)}`), '');
  if (!report.error && nothingRan(s)) lines.push(`> **${nothingRanLine(s)}**: the skip reasons are in the table below.`, '');
  if (report.error) lines.push(`> **${report.error.code}**: ${esc(report.error.message)}`, '');
  const cells = report.cells;
  if (cells.length) {
    lines.push(`| check | ${cells.map((c) => esc(c.target)).join(' | ')} |`, `|---|${cells.map(() => '---').join('|')}|`);
    // The steps prepared before the checks (the golden load first), each with its own time: never charged to a check.
    for (const row of stepRows(cells)) lines.push(`| ${esc(row.title)} | ${row.entries.map(esc).join(' | ')} |`);
    for (const row of view.checkRows) {
      lines.push(
        `| ${row.title} | ${row.results
          .map((r, i) => {
            if (!r) return '–';
            if (r.status === 'known') return `🟠 KNOWN ([upstream](${r.knownFailure!.link}))`;
            if (r.status === 'passed' && r.knownFailure) return `pass (${r.knownFailure.intermittent ? 'known failure not reproduced' : 'STALE known failure'})`;
            if (r.status === 'passed') {
              // A skipped part is never a silent pass: named beside the verdict, as on the console.
              return `pass${esc(skippedPartsText(r))}${cells[i] && cannotShowOf(cells[i]!, r) ? ' (cannot show all: see below)' : ''}`;
            }
            if (r.status === 'failed') return failedText(r); // `FAIL (n)` as on the console
            return glyph(r.status) + (r.status === 'skipped' ? ` (${esc(r.skipReason ?? '')})` : '');
          })
          .join(' | ')} |`,
      );
    }
    lines.push(`| recall@k (mean) | ${headlines.map((h) => recallText(h.recallMean, h.recallMeanFrom)).join(' | ')} |`);
    lines.push(`| recall@k (worst query) | ${headlines.map((h) => recallText(h.recallMin, h.recallMinFrom)).join(' | ')} |`);
    lines.push(`| max \\|Δscore\\| | ${headlines.map((h) => fmt(h.maxDelta)).join(' | ')} |`, '');
    lines.push('| target | provider | server | components | image | index |', '|---|---|---|---|---|---|');
    for (const c of cells) {
      lines.push(
        `| ${esc(c.target)} | ${c.provider} | ${esc(c.serverVersion ?? '–')} | ${esc(
          Object.entries(c.components)
            .map(([k, v]) => `${k} ${v}`)
            .join(', '),
        )} | ${esc(c.image ?? '–')} ${c.imageId ? `\`${c.imageId.slice(0, 19)}\`` : ''} | ${c.index.type} |`,
      );
    }
    lines.push('');
    const dur = report.durability;
    if (dur.length) {
      lines.push('**Durability** (C15: acknowledged writes across kill -9 and restart on the same storage)', '');
      lines.push(
        '| target | configuration | promises | acknowledged | lost | phantom in flight | phantom unknown | duplicated | changed | cycles | verdict |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
      );
      for (const r of dur) {
        lines.push(
          `| ${esc(r.target)} | ${esc(r.configuration)} | ${r.durable ? 'durable' : 'not durable'} | ${r.acknowledged} | ${r.lost} | ${r.phantomInFlight} | ${r.phantomUnknown} | ${r.duplicated} | ${r.changed} | ${r.cycles} | ${r.verdict === 'fail' ? 'FAIL' : r.verdict === 'known' ? 'KNOWN' : r.verdict === 'reported' ? 'lost (not promised)' : 'pass'} |`,
        );
      }
      lines.push('');
    }
    const caps = report.capabilityMatrix;
    if (caps.targets.length) {
      lines.push('**Capabilities** (✓, or ✗ with the checks of this run skipped for it)', '');
      lines.push(`| capability | ${caps.targets.map((t) => esc(t.target)).join(' | ')} |`, `|---|${caps.targets.map(() => '---').join('|')}|`);
      for (const name of caps.capabilities) {
        lines.push(
          `| ${name} | ${caps.targets.map((t) => (t.entries[name] ? esc(capabilityGlyph(t.entries[name]!) + (t.entries[name]!.skippedChecks ? ` ${t.entries[name]!.reason}` : '')) : '–')).join(' | ')} |`,
        );
      }
      lines.push('');
    }
  }
  lines.push(...operatorTableMarkdown(report.filterOperators));
  lines.push(...sideBySideMarkdown(report.sideBySide));
  for (const cell of cells) {
    if (cell.error) lines.push(`- **${esc(cell.target)}** ${ranAny(cell) ? 'error' : 'could not run'}: ${esc(cell.error.message)}`);
    if (cell.teardownError) lines.push(`- **${esc(cell.target)}** teardown failed after its checks (their verdicts stand): ${esc(cell.teardownError.message)}`);
    for (const r of cell.checks) {
      const limit = cannotShowOf(cell, r);
      if (limit) lines.push(`- **${esc(cell.target)}** ${r.id} ${r.name}: ${r.status === 'passed' ? 'passed, but' : 'on this target it'} cannot show ${esc(limit)}`);
    }
    for (const line of failedStepLines(cell)) lines.push(`- **${esc(line)}**`);
    // Checks not run (the cell did not start, or its store stopped answering mid-cell): one line per cause, not one block per check.
    for (const [cause, ids] of notRunCauses(cell)) lines.push(`- **${esc(cell.target)}**: ${ids.length} check(s) not run (${ids.join(', ')}): ${esc(cause)}`);
    for (const r of cell.checks.filter((x) => x.status === 'failed' && !isNotRun(x))) {
      lines.push(`<details><summary>${esc(cell.target)} ${r.id} ${r.name}: ${r.error ? esc(r.error.message) : `${r.failures.length} failure(s)`}</summary>`, '');
      if (r.knownFailure) lines.push(`- knownFailures entry ([upstream](${r.knownFailure.link})): ${esc(r.knownFailure.message)}`);
      for (const line of failureLines(r.failures, 20)) lines.push(`- ${esc(line)}`);
      lines.push('', '</details>');
    }
  }
  const listed = cells.flatMap((cell) => cell.checks.filter((r) => r.knownFailure && r.status !== 'failed').map((r) => ({ cell, r, k: r.knownFailure! })));
  if (listed.length) {
    lines.push('', '### Known upstream failures', '', '| target | check | verdict | failures | reason | upstream |', '|---|---|---|---|---|---|');
    for (const { cell, r, k } of listed) {
      const verdict = k.verdict === 'known' ? `🟠 KNOWN${k.intermittent ? ' (intermittent)' : ''}` : k.intermittent ? 'not reproduced this run (intermittent)' : '**STALE: remove the entry**';
      lines.push(`| ${esc(cell.target)} | ${r.id} ${r.name} | ${verdict} | ${r.failures.length}${r.failures[0] ? `: ${esc(r.failures[0].message)}` : ''} | ${esc(k.reason)} | ${k.link} |`);
    }
    lines.push('');
  }
  const tables = view.tables;
  if (tables.length) {
    lines.push('', '### Check tables', '');
    for (const t of tables) lines.push(...tableMarkdown(t.target, t.table));
  }
  return lines.join('\n') + '\n';
}

/** The verdict of one side in the side-by-side table: `pass`, `FAIL`, `KNOWN`, `skip`, `–` (not in that cell), with its key figures. */
function sideCell(v: { status: string; figures?: string }): string {
  if (v.status === 'absent') return '–';
  return glyph(v.status) + (v.figures ? ` (${esc(v.figures)})` : '');
}

/**
 * The "Client vs server" section: per pair (report/side-by-side.ts), how many checks agree, then
 * one row per check that differs — each side's verdict and key figures, and why (the capability,
 * the known upstream failure with its link, the failure, or the figures). Empty when the run has
 * no client target together with its server's raw target.
 */
export function sideBySideMarkdown(pairs: readonly SideBySidePair[]): string[] {
  if (!pairs.length) return [];
  const lines = ['### Client vs server, side by side', ''];
  for (const p of pairs) {
    lines.push(`**${esc(p.client)}** next to **${esc(p.server)}** (the same server without the client): ${p.same} of ${p.compared} checks agree, ${p.differences.length} differ.`, '');
    if (!p.differences.length) continue;
    lines.push(`| check | ${esc(p.client)} | ${esc(p.server)} | why |`, '|---|---|---|---|');
    for (const d of p.differences) {
      const why = `${d.why.kind}: ${esc(d.why.text)}${d.why.link ? ` ([upstream](${d.why.link}))` : ''}`;
      lines.push(`| ${d.id} ${d.name} | ${sideCell(d.client)} | ${sideCell(d.server)} | ${why} |`);
    }
    lines.push('');
  }
  return lines;
}

/** C31's backend × operator table (report/operators.ts): one row per operator, one column per target; nothing when no cell recorded C31. */
function operatorTableMarkdown(t: FilterOperatorTable | undefined): string[] {
  if (!t || !t.targets.length) return [];
  const lines = ['**Filter operators** (C31: a case counts for every operator it uses; pass n = cases passed, FAIL f/n = cases failed of those run)', ''];
  lines.push(`| operator | ${t.targets.map((x) => esc(x.target)).join(' | ')} |`, `|---|${t.targets.map(() => '---').join('|')}|`);
  for (const op of t.operators) lines.push(`| ${op} | ${t.targets.map((x) => esc(operatorGlyph(x.entries[op]))).join(' | ')} |`);
  for (const x of t.targets) if (x.reason) lines.push('', `${esc(x.target)}: ${esc(x.reason)}`);
  lines.push('');
  return lines;
}
