import Table from 'cli-table3';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { buildImage, listImages, loadCatalog, recipeOf, resolveTarget } from '@memory-matrix/backends';

/**
 * `memory-matrix images build [--target t …]`: build (or reuse, cached by recipe hash) the offline
 * image of each container target with a Debian recipe; all of them when no target is named.
 * Returns the exit status: 0 built or cached, 2 a build failed or a target has no recipe.
 */
export async function imagesBuild(targets: string[], out: (l: string) => void, force = false): Promise<number> {
  const catalog = loadCatalog();
  const chosen = targets.length ? targets.map((n) => resolveTarget(catalog, n)) : [...catalog.targets.values()].filter((t) => t.provider === 'container' && t.offline);
  for (const t of chosen) {
    const recipe = recipeOf(t);
    if (!recipe) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${t.name} has no offline recipe in ${catalog.file} (registry only: ${t.image ?? 'no image'})`);
  }
  for (const t of chosen) {
    const r = await buildImage(recipeOf(t)!, { force, onProgress: (l) => out(l) });
    out(`${t.name}: ${r.tag} ${r.cached ? 'cached' : `built in ${(r.durationMs / 1000).toFixed(1)} s`} (${r.id.slice(0, 19)})`);
  }
  return 0;
}

/** `memory-matrix images list`: the images the offline builder made, with their package versions. */
export async function imagesList(out: (l: string) => void): Promise<number> {
  const images = await listImages();
  const table = new Table({ head: ['recipe', 'tag', 'id', 'suite', 'packages', 'size MB', 'created'], style: { head: [], border: [] } });
  for (const i of images) {
    table.push([
      i.recipe,
      i.tags.join(' '),
      i.id.slice(7, 19),
      i.suite,
      Object.entries(i.packages)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
      (i.size / 1e6).toFixed(0),
      i.created.slice(0, 19),
    ]);
  }
  out(images.length ? table.toString() : 'no memory-matrix images here (build them with: pnpm matrix images build)');
  return 0;
}
