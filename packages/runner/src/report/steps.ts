import type { PreparedStep } from '@memory-matrix/spec';
import type { CellReport } from './types';

/** A duration for a step line: `412 s`, `3.4 s` under 10 s, `120 ms` under 1 s. */
export function secondsText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * One prepared step as the reports say it (spec `PreparedStep`): `412 s`; `FAIL after 900 s:
 * TIMEOUT` (the error code, or `error`), `not run`.
 */
export function stepVerdict(s: PreparedStep): string {
  if (s.status === 'done') return secondsText(s.durationMs ?? 0);
  if (s.status === 'not-run') return 'not run';
  return `FAIL after ${secondsText(s.durationMs ?? 0)}: ${s.error?.code ?? 'error'}`;
}

/**
 * The progress line of a step as it ends (printed like a check's line): `✓ <suite> › load 5111
 * memories: 412 s`, `✗ <suite> › load 5111 memories: FAIL after 900 s — <message's first line>`,
 * `○ <suite> › replay 40 queries (exact scan): not run`.
 */
export function stepLine(suite: string, s: PreparedStep): string {
  const mark = s.status === 'done' ? '✓' : s.status === 'failed' ? '✗' : '○';
  const why = s.status === 'failed' && s.error ? ` — ${s.error.message.split('\n')[0]}` : '';
  return `${mark} ${suite} › ${s.label}: ${s.status === 'failed' ? `FAIL after ${secondsText(s.durationMs ?? 0)}` : stepVerdict(s)}${why}`;
}

/**
 * The rows of the step table (console and report.md): one per step kind any cell prepared, in
 * order load, index, exact replay, index replay; a row's title is the first cell's label of that
 * kind (`load 5111 memories`: the same dataset in every cell), its entries each cell's verdict
 * (`stepVerdict`), `–` for a cell without that step.
 */
export function stepRows(cells: ReadonlyArray<Pick<CellReport, 'steps'>>): Array<{ title: string; entries: string[] }> {
  const kinds: Array<PreparedStep['step']> = ['load', 'index', 'exact-replay', 'index-replay'];
  const rows: Array<{ title: string; entries: string[] }> = [];
  for (const k of kinds) {
    const of = cells.map((c) => c.steps?.find((s) => s.step === k));
    const first = of.find((s) => s !== undefined);
    if (!first) continue;
    rows.push({ title: first.label, entries: of.map((s) => (s ? stepVerdict(s) : '–')) });
  }
  return rows;
}

/** The line naming each failed step of a cell with its whole message (`<target>: load 5111 memories failed: <message>`), for the reports' failure lists. */
export function failedStepLines(cell: Pick<CellReport, 'target' | 'steps'>): string[] {
  return (cell.steps ?? []).filter((s) => s.status === 'failed').map((s) => `${cell.target}: ${s.label} failed: ${s.error?.message.split('\n')[0] ?? 'error'}`);
}
