import type { FigureTable } from '@memory-matrix/spec';
import { fmt } from './figures';

const cellText = (v: unknown): string => (typeof v === 'number' ? fmt(v) : v === null || v === undefined ? '–' : String(v));

/** A check table as GitHub markdown under a `####` heading naming target and check. */
export function tableMarkdown(target: string, t: FigureTable): string[] {
  return [`#### ${target}: ${t.title}`, '', `| ${t.columns.join(' | ')} |`, `|${t.columns.map(() => '---').join('|')}|`, ...t.rows.map((r) => `| ${r.map(cellText).join(' | ')} |`), ''];
}

/**
 * One console line per check table: its title and, when it has `shortfall` / `recall@k` columns,
 * the total shortfall and the lowest recall (the full table is in report.md and report.html).
 */
export function tableSummary(target: string, t: FigureTable): string {
  const si = t.columns.indexOf('shortfall');
  const ri = t.columns.indexOf('recall@k');
  const parts = [`${target} ${t.title}: ${t.rows.length} points`];
  if (si >= 0) parts.push(`shortfall ${t.rows.reduce((s, r) => s + (Number(r[si]) || 0), 0)}`);
  if (ri >= 0) parts.push(`min recall@k ${fmt(Math.min(...t.rows.map((r) => Number(r[ri]))))}`);
  return parts.join(', ');
}
