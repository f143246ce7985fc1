import { type Capabilities } from '../capabilities';
import type { IndexConfig, Metric } from '../types';

/** What of a golden dataset decides whether a target can hold it: its metric and its dimension (manifest `metric`, `dim`). */
export interface DatasetShape {
  metric: Metric;
  dim: number;
}

/**
 * How a golden dataset fits a target's capabilities (`datasetFit`). Each gap is null when there is
 * none, else the skip reason the checks it stops are registered with:
 * - `vectors`: the target cannot store the dataset's memories at all — its metric is not in
 *   `metrics` (`capability: metrics (ip)`), or its dimension exceeds `maxDim`
 *   (`capability: maxDim 16000 < dim 20000`).
 * - `indexPath`: the target stores the dataset but its ANN index cannot be built at that dimension
 *   (`capability: maxIndexDim 2000 < dim 2048`): the cell builds no index; the exact path runs (a
 *   target without `exactScan` queries the unindexed collection its own way, judged as its index
 *   path is). A backend whose index IS its storage (no collection without it) declares `maxDim`.
 * `metricOnly` is true when the `vectors` gap is the metric alone (checks that never store vectors
 * in the dataset's metric, `CheckDefinition.usesDatasetMetric: false`, still run then).
 */
export interface DatasetFit {
  vectors: string | null;
  metricOnly: boolean;
  indexPath: string | null;
}

/**
 * How a dataset of `shape` fits a target with capabilities `caps` (see `DatasetFit`). Only targets
 * with `vectors` can have a gap (a target without it skips every vector check on its own).
 * Pure; never throws.
 */
export function datasetFit(caps: Capabilities, shape: DatasetShape): DatasetFit {
  const none: DatasetFit = { vectors: null, metricOnly: false, indexPath: null };
  if (!caps.vectors) return none;
  if (caps.maxDim !== undefined && shape.dim > caps.maxDim) return { ...none, vectors: `capability: maxDim ${caps.maxDim} < dim ${shape.dim}` };
  const indexLimit = caps.maxIndexDim !== undefined && shape.dim > caps.maxIndexDim ? `capability: maxIndexDim ${caps.maxIndexDim} < dim ${shape.dim}` : null;
  if (!caps.metrics.includes(shape.metric)) return { vectors: `capability: metrics (${shape.metric})`, metricOnly: true, indexPath: indexLimit };
  return { ...none, indexPath: indexLimit };
}

/**
 * The capabilities the checks of a cell see once the dataset's gaps are applied: no `vectors`
 * when the dataset's memories cannot be stored (only the chat-history parts of C15, C16, C19, C22
 * run then), no `annIndexes` when the index path is closed. The target's own declaration (the
 * report's capability matrix) is not changed.
 */
export function fitCapabilities(caps: Capabilities, fit: DatasetFit): Capabilities {
  let out = caps;
  if (fit.vectors) out = { ...out, vectors: false };
  if (fit.indexPath) out = { ...out, annIndexes: [] };
  return out;
}

/** The ANN index a cell builds under `fit`: `none` when the index path is closed, else `index`. */
export function fitIndex(index: IndexConfig, fit: DatasetFit): IndexConfig {
  return fit.indexPath ? { type: 'none' } : index;
}

/**
 * What `fitSkipReason` and `fitNote` read of a check (`CheckDefinition`'s `requires` and
 * `usesDatasetMetric`; declared here so that this module, which cell.ts imports, needs nothing of checks/).
 */
export type FitCheck = { requires(caps: Capabilities): string | null; usesDatasetMetric?: false };

/**
 * Why `check` is skipped in a cell of a target with `caps` on a dataset that fits as `fit`, or null
 * when it runs. The target's own reason first (`check.requires(caps)`: a capability it lacks on
 * any dataset); else the dataset's gap when the check cannot run under `fitCapabilities` — the
 * `vectors` gap, except for a check that never stores vectors in the dataset's metric
 * (`usesDatasetMetric: false`) when the gap is the metric alone; then the `indexPath` gap (C05, C28).
 */
export function fitSkipReason(check: FitCheck, caps: Capabilities, fit: DatasetFit): string | null {
  const own = check.requires(caps);
  if (own) return own;
  const vectorsGap = fit.vectors && !(fit.metricOnly && check.usesDatasetMetric === false) ? fit.vectors : null;
  if (vectorsGap && check.requires({ ...caps, vectors: false })) return vectorsGap;
  if (fit.indexPath && check.requires({ ...caps, annIndexes: [] })) return fit.indexPath;
  return null;
}

/**
 * The note a check that ran in a cell with a gap carries, or null: a check with a chat-history
 * part and a memory part (it runs without `vectors` and without `history`: C15, C16, C19, C22) ran
 * its history part only, naming why. (The index-path parts of the golden replays note themselves,
 * `LiveCell.scanModes`.)
 */
export function fitNote(check: FitCheck, caps: Capabilities, fit: DatasetFit): string | null {
  if (!fit.vectors || (fit.metricOnly && check.usesDatasetMetric === false)) return null;
  if (check.requires({ ...caps, vectors: false }) || check.requires({ ...caps, history: false })) return null;
  return `memory part not run (${fit.vectors}): only the chat-history part ran`;
}
