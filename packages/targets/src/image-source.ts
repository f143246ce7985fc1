import { MemoryMatrixError } from '@memory-matrix/spec';
import type { ResolvedTarget } from './catalog';
import { buildImage, dockerBin, inspectImage, recipeTag, type ImageRecipe } from './images';
import { execStreaming, succeeded } from './images/exec';

/**
 * Where a container target's image comes from:
 * - `registry`: the official image (`target.image`), pulled when not present locally;
 * - `debian`: the offline recipe, built from Debian packages when not cached (`images build`);
 * - `auto` (default): a local copy of either, else pull, else build.
 */
export type ImageSource = 'registry' | 'debian' | 'auto';
export const IMAGE_SOURCES: readonly ImageSource[] = ['registry', 'debian', 'auto'];

/** The builder's recipe for a catalog target, or undefined when it has none (registry-only). */
export function recipeOf(target: ResolvedTarget): ImageRecipe | undefined {
  const o = target.offline;
  if (!o) return undefined;
  return { name: target.name, tag: o.tag, suite: o.suite, packages: o.packages, setup: o.setup, env: o.env, cmd: o.cmd, expose: o.expose, mirror: o.mirror };
}

/**
 * Resolve (and if needed pull or build) the image a container target runs. Returns the local
 * reference. Throws TARGET_UNAVAILABLE saying what was tried and how to get the image, e.g. for
 * a registry-only target on a machine without a registry.
 */
export async function resolveImage(target: ResolvedTarget, source: ImageSource, log: (line: string) => void = () => undefined): Promise<string> {
  const recipe = recipeOf(target);
  const offlineTag = recipe ? recipeTag(recipe) : undefined;
  const tried: string[] = [];
  if (source !== 'registry' && offlineTag) {
    if (await inspectImage(offlineTag)) return offlineTag;
  }
  if (source !== 'debian' && target.image) {
    if (await inspectImage(target.image)) return target.image;
    log(`${target.name}: pulling ${target.image}…`);
    const r = await execStreaming(dockerBin(), ['pull', '-q', target.image], { captureStdout: true, timeoutMs: 10 * 60_000 });
    if (succeeded(r)) return target.image;
    tried.push(`docker pull ${target.image} failed (${r.tail[r.tail.length - 1] ?? 'no registry'})`);
  }
  if (source !== 'registry' && recipe && offlineTag) {
    log(`${target.name}: building ${offlineTag} from Debian ${recipe.suite} packages (${recipe.packages.join(', ')})…`);
    const built = await buildImage(recipe, { onProgress: (l) => log(`  ${l}`) });
    return built.tag;
  }
  if (source === 'debian' && !recipe) tried.push('the target has no offline recipe in matrix/targets.yaml');
  if (source === 'registry' && !target.image) tried.push('the target names no registry image');
  throw new MemoryMatrixError(
    'TARGET_UNAVAILABLE',
    `${target.name}: image unavailable offline — ${tried.join('; ')}. ` +
      (target.image
        ? `Get it on a machine with a registry (docker pull ${target.image} && docker save ${target.image} | gzip > img.tgz), then here: docker load < img.tgz`
        : 'Add an image or an offline recipe to matrix/targets.yaml'),
  );
}
