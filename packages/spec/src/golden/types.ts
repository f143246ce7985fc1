import type { MemoryRecord, RecallFilter } from '../types';
import type { GoldenManifest } from './manifest';

/** Why a golden query exists (see golden-data/FORMAT.md). */
export type GoldenPurpose = 'held-out' | 'self' | 'tie' | 'filter' | 'threshold';
export const GOLDEN_PURPOSES: readonly GoldenPurpose[] = ['held-out', 'self', 'tie', 'filter', 'threshold'];

/** The four data files of a dataset, in the order manifest.json lists them. */
export const GOLDEN_DATA_FILES = ['memories.jsonl', 'memories.f32', 'queries.jsonl', 'queries.f32'] as const;
export type GoldenDataFile = (typeof GOLDEN_DATA_FILES)[number];

/**
 * One golden recall query (a line of queries.jsonl plus its vector).
 * - `vector`: `Float32Array` of length `manifest.dim` (a view into `GoldenDataset.queryVectors`).
 * - `k`: 1..1000. `minScore`: canonical-score threshold (C09). `now`: ISO-8601 UTC instant, ms.
 */
export interface GoldenQuery {
  id: string;
  k: number;
  filter?: RecallFilter;
  minScore?: number;
  now?: string;
  purpose: GoldenPurpose;
  note?: string;
  vector: Float32Array;
}

/**
 * A loaded, validated golden dataset.
 * - `dir`: absolute path of the dataset folder.
 * - `datasetSha256`: the fingerprint of `manifest.files` (see `datasetSha256()`).
 * - `vectors`: `Float32Array` of `memories.length × dim`, row-major; each memory's `embedding`
 *   is the `subarray` of its row (shared memory, not a copy).
 * - `queryVectors`: `Float32Array` of `queries.length × dim`; each query's `vector` is a subarray.
 */
export interface GoldenDataset {
  dir: string;
  manifest: GoldenManifest;
  datasetSha256: string;
  memories: MemoryRecord[];
  queries: GoldenQuery[];
  vectors: Float32Array;
  queryVectors: Float32Array;
}
