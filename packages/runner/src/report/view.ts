import type { CheckResult, FigureTable } from '@memory-matrix/spec';
import { headlineMaxDelta, headlineRecallOf, type RecallSource } from './figures';
import type { CellReport } from './model';
import type { SettledReport } from './settle';

/** One row of the target × check table: the check's result in each cell (cell order; undefined = not in that cell). */
export interface CheckRow {
  id: string;
  /** `C03 topk-exact`. */
  title: string;
  results: Array<CheckResult | undefined>;
}

/** The headline figures of one cell (one column of the console and markdown tables). */
export interface CellHeadline {
  target: string;
  /** recall@k mean of C05 (ANN), else of C03 (figures.ts `headlineRecall`); null when neither ran. */
  recallMean: number | null;
  /** recall@k of the worst query of the same check (`headlineRecallMin`). */
  recallMin: number | null;
  /** Where `recallMean` comes from (`headlineRecallOf`): `ANN, C05` or `exact, C03`; null when neither ran. */
  recallMeanFrom: RecallSource | null;
  /** Where `recallMin` comes from, as `recallMeanFrom`. */
  recallMinFrom: RecallSource | null;
  /** Max |Δscore| over the checks that measure it, canonical score units (`headlineMaxDelta`). */
  maxDelta: number | null;
  /** The server as the cell reports it: its components as `name version`, comma-separated, else `serverVersion`, else `–`. */
  server: string;
}

/**
 * What the text writers (console, report.md) draw besides the settled report itself, derived
 * once per written report by `reportView`: the check rows, the headline figures per cell, and
 * every table a check reported. report.json, junit.xml and report.html render `report` alone.
 */
export interface ReportView {
  report: SettledReport;
  checkRows: CheckRow[];
  headlines: CellHeadline[];
  /** Every table a check reported, with its cell and check, in report order. */
  tables: Array<{ target: string; check: string; table: FigureTable }>;
}

/** The server line of a cell: components as `name version` joined by `, ` (e.g. `server 17.12, extension 0.8.0`), else `serverVersion`. */
export function serverLabel(cell: CellReport): string {
  const parts = Object.entries(cell.components).map(([name, version]) => `${name} ${version}`);
  return parts.length ? parts.join(', ') : (cell.serverVersion ?? '–');
}

/** Derive the view of a settled report (see `ReportView`); pure, never throws. */
export function reportView(report: SettledReport): ReportView {
  const cells = report.cells;
  // Check ids in first-seen order over the cells (cells run the same checks; a cell that could not start lists them all).
  const titles = new Map(cells.flatMap((x) => x.checks.map((k) => [k.id, `${k.id} ${k.name}`] as const)));
  const checkRows = [...titles].map(([id, title]) => ({ id, title, results: cells.map((cell) => cell.checks.find((k) => k.id === id)) }));
  const headlines = cells.map((cell) => {
    const mean = headlineRecallOf(cell, 'recallAtKMean');
    const min = headlineRecallOf(cell, 'recallAtKMin');
    return {
      target: cell.target,
      recallMean: mean?.value ?? null,
      recallMin: min?.value ?? null,
      recallMeanFrom: mean?.from ?? null,
      recallMinFrom: min?.from ?? null,
      maxDelta: headlineMaxDelta(cell),
      server: serverLabel(cell),
    };
  });
  const tables = cells.flatMap((cell) => cell.checks.flatMap((c) => (c.tables ?? []).map((table) => ({ target: cell.target, check: `${c.id} ${c.name}`, table }))));
  return { report, checkRows, headlines, tables };
}
