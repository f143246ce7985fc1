import { FILTER_OPERATORS, OPERATOR_TABLE_TITLE, type OperatorStatus } from '@memory-matrix/spec';
import type { CellReport, FilterOperatorTable, OperatorEntry } from './types';

export type { FilterOperatorTable, OperatorEntry } from './types';

/** The check whose operator table the report gathers (spec checks/c31-filter-semantics.ts). */
export const FILTER_CHECK_ID = 'C31';

/** Build `FilterOperatorTable` from the cells' C31 results (the table titled `OPERATOR_TABLE_TITLE`). Pure; never throws. */
export function filterOperatorTable(cells: readonly CellReport[]): FilterOperatorTable {
  const targets: FilterOperatorTable['targets'] = [];
  for (const cell of cells) {
    const r = cell.checks.find((c) => c.id === FILTER_CHECK_ID);
    if (!r) continue;
    const entries: Record<string, OperatorEntry> = {};
    const table = r.tables?.find((t) => t.title === OPERATOR_TABLE_TITLE);
    if (table) {
      for (const [op, status, pass, fail, unsupported] of table.rows)
        entries[String(op)] = { status: status as OperatorStatus, pass: Number(pass), fail: Number(fail), unsupported: Number(unsupported) };
      targets.push({ target: cell.target, check: r.status, entries });
    } else if (r.status === 'skipped') {
      for (const op of FILTER_OPERATORS) entries[op] = { status: 'unsupported', pass: 0, fail: 0, unsupported: 0 };
      targets.push({ target: cell.target, check: r.status, reason: `C31 skipped (${r.skipReason ?? 'no reason'})`, entries });
    } else {
      targets.push({ target: cell.target, check: r.status, reason: r.error ? `C31 stopped: ${r.error.message}` : 'C31 recorded no operator table', entries });
    }
  }
  const used = new Set(targets.flatMap((t) => Object.keys(t.entries)));
  return { operators: FILTER_OPERATORS.filter((o) => used.has(o)), targets };
}

/** The glyph of an entry in report.md and the console: `pass 35`, `FAIL 2/11`, `unsupported`. */
export function operatorGlyph(e: OperatorEntry | undefined): string {
  if (!e) return '–';
  if (e.status === 'fail') return `FAIL ${e.fail}/${e.pass + e.fail}`;
  if (e.status === 'pass') return `pass ${e.pass}${e.unsupported ? ` (+${e.unsupported} unsupported)` : ''}`;
  return 'unsupported';
}
