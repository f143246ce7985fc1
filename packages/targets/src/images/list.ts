import { MemoryMatrixError } from '@memory-matrix/spec';
import { imageIdsByLabel, inspectImage } from './docker';
import { IMAGE_LABELS } from './recipe';

/** One image the offline builder made, as `memory-matrix images list` shows it. */
export interface ImageSummary {
  /** Tags, e.g. `['memory-matrix/<backend>:<version>-1a2b3c4d']`. */
  tags: string[];
  /** Image id, `sha256:<64 hex>`. */
  id: string;
  /** Recipe (target) name, `backend@version`. */
  recipe: string;
  /** Recipe hash (8 hex) the tag carries. */
  hash: string;
  /** Debian suite. */
  suite: string;
  /** Installed versions of the recipe's packages, e.g. `{ 'postgresql-17': '17.12-0+deb13u1' }`. */
  packages: Record<string, string>;
  /** ISO creation time. */
  created: string;
  /** Size in bytes. */
  size: number;
  /** Description given at import. */
  description: string;
}

/** Parses the `memory-matrix.packages` label: `name=version,…` (a bare `name` maps to ''). */
export function parsePackagesLabel(label: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of (label ?? '').split(',').filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq < 0) out[item] = '';
    else out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

/**
 * Every local image carrying the builder's `memory-matrix.recipe` label, newest first.
 * Throws `TARGET_UNAVAILABLE` when no Docker engine answers.
 */
export async function listImages(): Promise<ImageSummary[]> {
  const ids = await imageIdsByLabel(IMAGE_LABELS.recipe);
  const out: ImageSummary[] = [];
  for (const id of ids) {
    const d = await inspectImage(id);
    if (!d) continue; // removed between list and inspect
    const recipe = d.labels[IMAGE_LABELS.recipe];
    if (!recipe) throw new MemoryMatrixError('BACKEND_ERROR', `docker: image ${id} matched label ${IMAGE_LABELS.recipe} but has none`);
    out.push({
      tags: d.repoTags,
      id: d.id,
      recipe,
      hash: d.labels[IMAGE_LABELS.hash] ?? '',
      suite: d.labels[IMAGE_LABELS.suite] ?? '',
      packages: parsePackagesLabel(d.labels[IMAGE_LABELS.packages]),
      created: d.created,
      size: d.size,
      description: d.comment,
    });
  }
  return out.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
}
