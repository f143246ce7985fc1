import { createHash } from 'node:crypto';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { recipeOf, recipeTag, resolveTarget, type Catalog, type ResolvedTarget } from '@memory-matrix/targets';

/**
 * Version of the cache key's layout (what the key hashes and how the cached file is written:
 * `docker save` of the tags, one tar). Bump it when that changes, so an old cache is not loaded.
 */
export const IMAGES_KEY_VERSION = 1;

/** One offline image a selection needs: the target it was chosen for and its built tag (`<tag>-<hash8>`). */
export interface OfflineImage {
  /** Target name, `backend@version` (the first target of the selection that uses the recipe). */
  target: string;
  /** The tag the builder gives the image, e.g. `memory-matrix/pgvector:pg17-0.8.0-2a0b49da`. */
  tag: string;
}

/**
 * The container targets with an offline recipe that `images build` / `images key` act on:
 * the named `targets` (each must have a recipe: TARGET_UNAVAILABLE otherwise, UNKNOWN_TARGET
 * when the catalog has no such target), else the container targets of `profile` that have a
 * recipe (USAGE for an unknown profile; a profile's embedded, local and registry-only targets
 * need no build and are left out), else every container target with a recipe.
 */
export function offlineTargets(catalog: Catalog, targets: string[], profile?: string): ResolvedTarget[] {
  if (targets.length && profile !== undefined) throw new MemoryMatrixError('USAGE', 'images: give --target or --profile, not both');
  if (targets.length) {
    const chosen = targets.map((n) => resolveTarget(catalog, n));
    for (const t of chosen) {
      if (!recipeOf(t)) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${t.name} has no offline recipe in ${catalog.file} (registry only: ${t.image ?? 'no image'})`);
    }
    return chosen;
  }
  let names = [...catalog.targets.keys()];
  if (profile !== undefined) {
    const p = catalog.profiles.get(profile);
    if (!p) throw new MemoryMatrixError('USAGE', `images: unknown profile "${profile}"; known profiles: ${[...catalog.profiles.keys()].join(', ')}`);
    names = p.targets;
  }
  return names.map((n) => resolveTarget(catalog, n)).filter((t) => t.provider === 'container' && t.offline);
}

/** The distinct images `targets` run from (targets sharing a recipe share its tag), sorted by tag. */
export function offlineImages(targets: ResolvedTarget[]): OfflineImage[] {
  const byTag = new Map<string, OfflineImage>();
  for (const t of targets) {
    const recipe = recipeOf(t);
    if (!recipe) continue;
    const tag = recipeTag(recipe);
    if (!byTag.has(tag)) byTag.set(tag, { target: t.name, tag });
  }
  return [...byTag.values()].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

/**
 * The cache key of a set of offline images: `mm-images-v<IMAGES_KEY_VERSION>-<16 hex>`, the hex
 * being the first 16 digits of sha256 over the sorted tags joined by newlines. Each tag carries
 * its recipe's hash (packages/targets/src/images/recipe.ts `recipeHash`), so any change to a
 * recipe or to the builder's version gives a new key; the same recipes give the same key on
 * every machine. An empty set has a key too (nothing to cache).
 */
export function imagesKey(images: OfflineImage[]): string {
  const body = images
    .map((i) => i.tag)
    .sort()
    .join('\n');
  return `mm-images-v${IMAGES_KEY_VERSION}-${createHash('sha256').update(body).digest('hex').slice(0, 16)}`;
}
