/** Offline image builder: Debian packages → debootstrap → `docker import`, cached by recipe hash. */
export { buildImage, importChanges, type BuildOptions, type BuiltImage } from './build';
export { countFromCache, packageCacheDir, PackageCacheSession, type PackageCacheUse } from './pkgcache';
export { listImages, parsePackagesLabel, type ImageSummary } from './list';
export { BUILDER_VERSION, DEFAULT_MIRROR, IMAGE_LABELS, recipeHash, recipeTag, validateRecipe, type ImageRecipe } from './recipe';
export { parseContainerTarget, readContainerTarget, type ContainerTargetEntry } from './catalog';
export { dockerBin, dockerEngine, inspectImage, type DockerEngine, type ImageDetails } from './docker';
