// The options of `memory-matrix sample` (sampler.ts runs them; provenance.ts records them).
import type { Metric, SampleSource, SampleStratify } from '@memory-matrix/spec';
import type { ColumnOverrides } from './columns';

/** Options of one sampling run (the CLI's flags, parsed). */
export interface SampleOptions {
  /** The driver's sample source that reads `url` (from `findSampleSource`). */
  source: SampleSource;
  /** The store's URL as `--from` gave it (with password; never printed or written) */
  url: string;
  table: string;
  /** `--columns`: applied over the detected layout's mapping (see layouts.ts) */
  columns: ColumnOverrides;
  /** memories in the dataset (≥ 1) */
  n: number;
  /** held-out queries taken from the sample in addition to `n` (≥ 1) */
  queries: number;
  /** recall depth of each query */
  k: number;
  seed: number;
  stratify?: SampleStratify;
  redact: boolean;
  out: string;
  name: string;
  metric: Metric;
  /** the manifest's embedding model id (default `<table>.<embedding column>`) */
  embeddingModel?: string;
  licence: string;
  overwrite: boolean;
  /** Receives the lines about the layout and mapping chosen, before the store's rows are read. */
  log?: (line: string) => void;
}
