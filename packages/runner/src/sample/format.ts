import type { redactionTable } from './redact';

const pct = (f: number) => `${(f * 100).toFixed(2)} %`;

/**
 * The redaction table as Markdown (printed by `sample` and usable in a PR comment): per category
 * detected before, remaining after by the same detectors, and found before / remaining by the
 * independent loose pass, each with the fraction remaining.
 */
export function formatRedactionTable(rows: ReturnType<typeof redactionTable>): string[] {
  const head = ['category', 'detected', 'remaining', 'fraction remaining', 'loose pass: before', 'loose pass: after', 'loose fraction remaining'];
  const body = rows.map((r) => [r.category, String(r.detected), String(r.remaining), pct(r.fractionRemaining), String(r.looseBefore), String(r.looseRemaining), pct(r.looseFractionRemaining)]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ')} |`;
  return [line(head), `|${w.map((x, i) => (i === 0 ? ':' : '') + '-'.repeat(x + 1) + (i === 0 ? '' : ':')).join('|')}|`, ...body.map(line)];
}
