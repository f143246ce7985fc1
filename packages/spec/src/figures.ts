/** A figure in a check's result: a number (recall@k, |Δscore|, ms …), a label, or null (n/a). */
export type Figure = number | string | boolean | null;

/** A small table a check reports (e.g. C04's selectivity × k sweep), rendered by every report writer. */
export interface FigureTable {
  title: string;
  columns: string[];
  rows: Figure[][];
}
