import Table from 'cli-table3';
import type { MutantOutcome, SelftestReport, SelftestSummary, TargetSelftest } from './model';

/** The verdict cell of a mutant: `caught by C02, C03` (`(C05 ran out of time)` after it when a check timed out), `ESCAPED`, `n/a (reason)`, `ERROR: reason`. */
export function verdictText(m: MutantOutcome): string {
  switch (m.status) {
    case 'caught':
      return `caught by ${m.caughtBy.map((c) => c.id).join(', ')}${m.timedOut ? ` (${m.timedOut.join(', ')} ran out of time)` : ''}`;
    case 'escaped':
      return 'ESCAPED';
    case 'n/a':
      return `n/a (${m.reason})`;
    case 'error':
      return `ERROR: ${m.reason}`;
  }
}

/** `17 of 19 caught (89.5 %), 2 escaped, 1 n/a` (the percentage of the applicable mutants). */
export function summaryLine(s: SelftestSummary): string {
  const pct = s.caughtPct === null ? 'no applicable mutant' : `${s.caughtPct.toFixed(1)} %`;
  return `${s.caught} of ${s.applicable} mutants caught (${pct}), ${s.escaped} escaped, ${s.notApplicable} n/a${s.errors ? `, ${s.errors} not run (error)` : ''}`;
}

/** The clean-run line of a target. */
function cleanLine(t: TargetSelftest): string {
  const c = t.clean;
  const secs = `${(c.ms / 1000).toFixed(1)} s`;
  if (c.status === 'clean') return `${t.target}: clean run ${c.checksRun} checks passed${knownText(c.known)} (${secs})`;
  if (c.status === 'void') return `${t.target}: VOID — the clean run failed ${c.failed.join(', ')} (${c.reason}); its mutants were not run`;
  return `${t.target}: the clean run did not start: ${c.reason}`;
}

/**
 * What the clean-run line says of the checks that failed inside the target's `knownFailures`
 * (`CleanOutcome.known`): they passed nothing and cannot catch a mutant by failing within that
 * scope, so the line names them; '' when none.
 */
export function knownText(known: readonly string[] | undefined): string {
  return known?.length ? ` but ${known.join(', ')}, which failed as its knownFailures say (they catch a mutant only by failing outside that scope)` : '';
}

/** The console rendering: per target its clean-run line and a mutant → verdict table, then the summary and wall time. */
export function renderSelftestConsole(r: SelftestReport): string {
  const out: string[] = [];
  for (const t of r.targets) {
    out.push(cleanLine(t));
    if (!t.mutants.length) continue;
    const table = new Table({ head: ['mutant', 'verdict', 'checks run', 'time'], style: { head: [], border: [] } });
    for (const m of t.mutants) table.push([m.mutant, verdictText(m), m.status === 'n/a' ? '' : String(m.checksRun), m.status === 'n/a' ? '' : `${(m.ms / 1000).toFixed(1)} s`]);
    out.push(table.toString());
  }
  if (r.error) out.push(`selftest not carried out: ${r.error.code ? `${r.error.code}: ` : ''}${r.error.message}`);
  // Stopped before any target ran (a usage error): "0 of 0 mutants caught" would only confuse.
  if (r.error && !r.targets.length) return out.join('\n');
  out.push(`${summaryLine(r.summary)}${r.first ? ' (--first: each run stopped at its first catching check)' : ''}; wall time ${(r.durationMs / 1000).toFixed(1)} s`);
  return out.join('\n');
}

/** selftest.md: the same tables in Markdown, with each escape's bug kind and each catch's first failure line. */
export function renderSelftestMarkdown(r: SelftestReport): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const zone = r.timeZone ? ` Time zone ${r.timeZone.name} (UTC${r.timeZone.offsets.join(', ')}).` : '';
  const out: string[] = ['# memory-matrix selftest', '', `${summaryLine(r.summary)}${r.first ? ' (`--first`)' : ''}; wall time ${(r.durationMs / 1000).toFixed(1)} s.${zone}`, ''];
  if (r.error) out.push(`**Not carried out**: ${esc(`${r.error.code ? `${r.error.code}: ` : ''}${r.error.message}`)}`, '');
  for (const t of r.targets) {
    out.push(`## ${t.target}`, '', esc(cleanLine(t)), '');
    if (!t.mutants.length) continue;
    out.push('| mutant | bug kind | verdict | first failure |', '|---|---|---|---|');
    for (const m of t.mutants) out.push(`| ${m.mutant} | ${esc(m.bug)} | ${esc(verdictText(m))} | ${esc(m.caughtBy[0] ? `${m.caughtBy[0].id}: ${m.caughtBy[0].firstLine}` : '')} |`);
    out.push('');
  }
  return out.join('\n');
}
