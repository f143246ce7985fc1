import { createHash } from 'node:crypto';
import { MemoryMatrixError } from '../errors';
import type { Metric } from '../types';
import type { GoldenManifest } from './manifest';

/**
 * The dataset fingerprint: sha256 (64 lowercase hex) of the UTF-8 text made of one line
 * `<sha256>  <name>\n` (two spaces, as `sha256sum` prints) per entry of `manifest.files`, names
 * sorted by UTF-16 code unit. Equal to `sha256sum memories.f32 memories.jsonl queries.f32
 * queries.jsonl | sha256sum` run in the dataset folder. See golden-data/FORMAT.md.
 */
export function datasetSha256(files: Record<string, { sha256: string }>): string {
  const text = Object.keys(files)
    .sort()
    .map((n) => `${files[n]!.sha256}  ${n}\n`)
    .join('');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Refuse to load a dataset into a collection it does not fit, before anything is written.
 * `collection`: the collection's dim and metric and, when the collection records one, its
 * embedding model id (compared with `manifest.embeddingModel.id`). `target` names the target
 * (`backend@version`) in the message. Throws FINGERPRINT_MISMATCH listing every difference.
 */
export function checkFingerprint(manifest: GoldenManifest, collection: { dim: number; metric: Metric; embeddingModel?: string }, target: string): void {
  const diffs: string[] = [];
  if (collection.dim !== manifest.dim) diffs.push(`dim ${collection.dim} ≠ dataset dim ${manifest.dim}`);
  if (collection.metric !== manifest.metric) diffs.push(`metric ${collection.metric} ≠ dataset metric ${manifest.metric}`);
  if (collection.embeddingModel !== undefined && collection.embeddingModel !== manifest.embeddingModel.id) {
    diffs.push(`embedding model "${collection.embeddingModel}" ≠ dataset model "${manifest.embeddingModel.id}"`);
  }
  if (diffs.length > 0) {
    throw new MemoryMatrixError('FINGERPRINT_MISMATCH', `${target}: collection does not fit golden dataset ${manifest.name}@${manifest.version}: ${diffs.join('; ')}`);
  }
}
