import Table from 'cli-table3';
import { buildImage, listImages, packageCacheDir, recipeOf } from '@memory-matrix/targets';
import { runCatalog } from '../select';
import { imagesKey, offlineImages, offlineTargets } from './images-key';

/**
 * `memory-matrix images build [--target t … | --profile p]`: build (or reuse, cached by recipe
 * hash) the offline image of each named container target, of each container target of the
 * profile that has a Debian recipe, or of all of them when neither is given (see
 * `offlineTargets`), from the run's catalog (`MM_CATALOG` or matrix/targets.yaml). Returns the exit status 0 (built or cached); a target without a recipe
 * throws TARGET_UNAVAILABLE, an unknown profile USAGE, a failed build its builder error (exit 2).
 * Prints the package cache's path first and, per image and in total, how many Debian packages
 * debootstrap took from the cache and how many .deb files were fetched from the mirror.
 */
export async function imagesBuild(targets: string[], out: (l: string) => void, force = false, profile?: string): Promise<number> {
  const chosen = offlineTargets(runCatalog(), targets, profile);
  out(`package cache: ${packageCacheDir()} (MM_PKG_CACHE)`);
  let fromCache = 0;
  let fetched = 0;
  for (const t of chosen) {
    const r = await buildImage(recipeOf(t)!, { force, onProgress: (l) => out(l) });
    const pk = r.packages ? `, packages ${r.packages.fromCache} from cache, ${r.packages.fetched} fetched` : '';
    fromCache += r.packages?.fromCache ?? 0;
    fetched += r.packages?.fetched ?? 0;
    out(`${t.name}: ${r.tag} ${r.cached ? 'cached' : `built in ${(r.durationMs / 1000).toFixed(1)} s`} (${r.id.slice(0, 19)}${pk})`);
  }
  out(`package cache ${packageCacheDir()}: ${fromCache} packages from cache, ${fetched} fetched`);
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

/**
 * `memory-matrix images key [--target t … | --profile p] [--tags]`: the cache key of the offline
 * images the selection needs (`imagesKey`: one line, e.g. `mm-images-v1-<16 hex>`), or with
 * `tags` their built tags, one per line (what `docker save` / `docker load` of a CI cache take).
 * Reads the run's catalog (`MM_CATALOG` or matrix/targets.yaml); needs no Docker engine. Returns exit status 0; errors as `offlineTargets`.
 */
export function imagesKeyCommand(targets: string[], out: (l: string) => void, opts: { profile?: string; tags?: boolean } = {}): number {
  const images = offlineImages(offlineTargets(runCatalog(), targets, opts.profile));
  if (opts.tags) for (const i of images) out(i.tag);
  else out(imagesKey(images));
  return 0;
}
