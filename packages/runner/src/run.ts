// The run of a matrix (`memory-matrix run`), by part: run/matrix.ts `runMatrix` (the pipeline and
// its interrupt), run/plan.ts (what to run), run/cells.ts (registering the cells), run/collect.ts
// (recording their results), run/finish.ts (settling and writing the reports).
export { runMatrix } from './run/matrix';
export type { RunOptions } from './run/options';
export { datasetDir } from './run/plan';
export { registerTargetCell, type TargetCellHooks } from './run/cells';
export { childTimeoutMs, ensureReportDir, runIdOf } from './run/finish';
