import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { dockerBin, dockerEngine, inspectImage } from './docker';
import { describeExit, execStreaming, succeeded, type ExecResult } from './exec';
import { DEFAULT_MIRROR, IMAGE_LABELS, recipeHash, recipeTag, validateRecipe, type ImageRecipe } from './recipe';
import { countFromCache, packageCacheDir, PackageCacheSession, type PackageCacheUse } from './pkgcache';
import { makeRootfsDir, removeRootfs } from './rootfs';

/** Options of {@link buildImage}. */
export interface BuildOptions {
  /** Receives progress lines, e.g. `[<target>] debootstrap: I: Retrieving libc6 …`. */
  onProgress?: (line: string) => void;
  /** Rebuild even when an image with the recipe's tag exists. */
  force?: boolean;
  /** Kill a step that runs longer than this (ms); default 30 min × `MM_BUILD_TIMEOUT_SCALE` (default 1). */
  stepTimeoutMs?: number;
}

/** What {@link buildImage} produced or found. */
export interface BuiltImage {
  /** Full tag, `<recipe.tag>-<hash8>`. */
  tag: string;
  /** Image id, `sha256:<64 hex>`. */
  id: string;
  /** True when an image with this tag already existed and nothing was built. */
  cached: boolean;
  /** Wall time of this call in milliseconds. */
  durationMs: number;
  /** Use of the shared package cache (see `packageCacheDir`); undefined when `cached`. */
  packages?: PackageCacheUse;
}

/** Where the host's CA bundle sits inside the rootfs during setup (see `MM_HOST_CA`). */
const HOST_CA_IN_ROOTFS = 'tmp/mm-host-ca.crt';

/** The host's CA bundle (`SSL_CERT_FILE`, `NODE_EXTRA_CA_CERTS`, or Debian's bundle), or undefined. */
function hostCaBundle(): string | undefined {
  for (const f of [process.env.SSL_CERT_FILE, process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt']) {
    if (f && existsSync(f)) return f;
  }
  return undefined;
}

/** Dockerfile-style double-quoted value for `docker import -c` (backslash and quote escaped). */
function quote(v: string): string {
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The `-c` changes applied by `docker import`: ENV, CMD, EXPOSE and the builder's labels.
 * `installed` (package → Debian version as installed in the rootfs) goes into the packages label;
 * without it the label lists the bare package names.
 */
export function importChanges(r: ImageRecipe, installed?: Record<string, string>): string[] {
  const changes = Object.entries(r.env).map(([k, v]) => `ENV ${k}=${quote(v)}`);
  if (r.cmd) changes.push(`CMD ${JSON.stringify(r.cmd)}`);
  for (const p of r.expose ?? []) changes.push(`EXPOSE ${p}`);
  const labels: Record<string, string> = {
    [IMAGE_LABELS.recipe]: r.name,
    [IMAGE_LABELS.hash]: recipeHash(r),
    [IMAGE_LABELS.suite]: r.suite,
    [IMAGE_LABELS.packages]: r.packages.map((p) => (installed?.[p] ? `${p}=${installed[p]}` : p)).join(','),
  };
  changes.push(
    `LABEL ${Object.entries(labels)
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(' ')}`,
  );
  return changes;
}

/**
 * Builds the image of `recipe` offline (debootstrap → chroot setup → `docker import`), or reuses
 * the image already tagged `<tag>-<hash8>` (see {@link recipeTag}). The rootfs lives in a temp
 * dir that is removed afterwards, on success and on failure. Needs root (debootstrap, chroot).
 * Packages come from the shared cache when there (`packageCacheDir`, `PackageCacheSession`):
 * debootstrap `--cache-dir`, and the setup steps see it as apt's archives dir (a bind mount,
 * unmounted before the builder's cleanup). The cache changes only how bytes are fetched: the
 * rootfs is the same, so it is not part of the recipe hash.
 *
 * Throws `INVALID_INPUT` for a malformed recipe, `TARGET_UNAVAILABLE` naming the recipe, tag and
 * failing step (`docker`, `preflight`, `debootstrap`, `setup-cache`, `setup[i]`, `clean`, `versions`, `import`, `inspect`),
 * with the process's last output in the message and the underlying error as `cause`.
 */
export async function buildImage(recipe: ImageRecipe, opts: BuildOptions = {}): Promise<BuiltImage> {
  const t0 = Date.now();
  validateRecipe(recipe);
  const tag = recipeTag(recipe);
  const where = `image recipe ${recipe.name} (${tag})`;
  const progress = (line: string) => opts.onProgress?.(`[${recipe.name}] ${line}`);
  const fail = (step: string, detail: string, cause?: unknown): never => {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: step ${step} failed: ${detail}`, { cause });
  };

  try {
    await dockerEngine();
  } catch (err) {
    fail('docker', (err as Error).message, err);
  }
  const existing = await inspectImage(tag);
  if (existing && !opts.force) {
    progress(`cached: ${tag} (${existing.id.slice(0, 19)})`);
    return { tag, id: existing.id, cached: true, durationMs: Date.now() - t0 };
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    fail('preflight', 'debootstrap and chroot need root (run as root, or build on a machine where you are)');
  }

  const scale = Number(process.env.MM_BUILD_TIMEOUT_SCALE ?? '1') || 1;
  const timeoutMs = opts.stepTimeoutMs ?? 30 * 60_000 * scale;
  const validating: string[] = []; // debootstrap's `I: Validating <pkg> <ver>` lines (countFromCache)
  const run = async (step: string, cmd: string, args: string[]): Promise<ExecResult> => {
    const s0 = Date.now();
    progress(`${step}: start`);
    let r: ExecResult;
    const onLine = (l: string) => {
      if (step === 'debootstrap' && l.startsWith('I: Validating ')) validating.push(l);
      progress(`${step}: ${l}`);
    };
    try {
      r = await execStreaming(cmd, args, { onLine, timeoutMs });
    } catch (err) {
      return fail(step, `cannot run ${cmd}: ${(err as Error).message}`, err);
    }
    if (!succeeded(r)) fail(step, `${cmd} ${describeExit(r)}`);
    progress(`${step}: done in ${((Date.now() - s0) / 1000).toFixed(1)} s`);
    return r;
  };

  const cache = new PackageCacheSession(packageCacheDir());
  const use: PackageCacheUse = { dir: cache.dir, fromCache: 0, fetched: 0 };
  const dir = await makeRootfsDir();
  progress(`building ${tag} in ${dir}`);
  progress(`package cache: ${cache.dir}`);
  try {
    const mirror = recipe.mirror ?? DEFAULT_MIRROR;
    await run('debootstrap', 'debootstrap', ['--variant=minbase', `--cache-dir=${cache.work}`, `--include=${recipe.packages.join(',')}`, recipe.suite, dir, mirror]);
    use.fromCache = countFromCache(validating, cache.fresh());
    use.fetched = cache.publish();
    // Setup steps that fetch over TLS (e.g. npm) trust what the host trusts: the host's CA bundle
    // is copied in as $MM_HOST_CA for the setup steps only and removed before the import.
    const hostCa = existsSync(join(dir, 'usr/bin/env')) ? hostCaBundle() : undefined;
    if (hostCa) {
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      copyFileSync(hostCa, join(dir, HOST_CA_IN_ROOTFS));
    }
    use.fetched += await withArchivesMount(dir, cache, recipe.setup.length > 0, fail, progress, async () => {
      for (const [i, snippet] of recipe.setup.entries()) {
        const env = hostCa ? ['/usr/bin/env', `MM_HOST_CA=/${HOST_CA_IN_ROOTFS}`] : [];
        await run(`setup[${i}]`, 'chroot', [dir, ...env, '/bin/sh', '-ec', snippet]);
      }
    });
    progress(`package cache ${cache.dir}: ${use.fromCache} packages from cache, ${use.fetched} fetched`);
    rmSync(join(dir, HOST_CA_IN_ROOTFS), { force: true });
    // Builder-owned cleanup (covered by BUILDER_VERSION): package caches are not part of a target.
    await run('clean', 'chroot', [dir, '/bin/sh', '-ec', 'apt-get clean; rm -rf /var/lib/apt/lists/*']);
    const installed = await installedVersions(dir, recipe, fail);
    progress(
      `installed: ${Object.entries(installed)
        .map(([p, v]) => `${p} ${v}`)
        .join(', ')}`,
    );
    await importRootfs(dir, recipe, tag, installed, progress);
  } finally {
    try {
      await removeRootfs(dir);
    } catch (err) {
      progress(`warning: ${(err as Error).message}`);
    }
    cache.dispose();
  }
  const built = await inspectImage(tag);
  if (!built) return fail('inspect', 'docker import finished but the tag is missing');
  progress(`built ${tag} (${built.id.slice(0, 19)}, ${(built.size / 1e6).toFixed(0)} MB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { tag, id: built.id, cached: false, durationMs: Date.now() - t0, packages: use };
}

/**
 * Runs `body` (the setup steps) with the cache's work dir bind-mounted on the rootfs's
 * `/var/cache/apt/archives`, so apt in a setup step reuses cached packages (apt checks their
 * hashes) and leaves its downloads there; unmounts, then publishes them when the steps succeeded
 * (a failed step's downloads are dropped with the work dir). Returns how many files it published.
 * Step `setup-cache` when the mount or unmount fails.
 */
async function withArchivesMount(
  dir: string,
  cache: PackageCacheSession,
  mount: boolean,
  fail: (step: string, detail: string) => never,
  progress: (l: string) => void,
  body: () => Promise<void>,
): Promise<number> {
  if (!mount) {
    await body();
    return 0;
  }
  const archives = join(dir, 'var/cache/apt/archives');
  mkdirSync(archives, { recursive: true });
  const m = spawnSync('mount', ['--bind', cache.work, archives], { encoding: 'utf8' });
  if (m.status !== 0) fail('setup-cache', `mount --bind ${cache.work} ${archives}: ${(m.stderr || m.error?.message || '').trim()}`);
  let ok = false;
  try {
    await body();
    ok = true;
  } finally {
    const u = spawnSync('umount', [archives], { encoding: 'utf8' });
    if (u.status !== 0 && ok) fail('setup-cache', `umount ${archives}: ${(u.stderr || '').trim()}`);
  }
  return cache.publish();
}

/** Debian versions of the recipe's packages inside the rootfs (`dpkg-query`); step `versions`. */
async function installedVersions(dir: string, recipe: ImageRecipe, fail: (step: string, detail: string, cause?: unknown) => never): Promise<Record<string, string>> {
  const r = await execStreaming('chroot', [dir, 'dpkg-query', '-W', '-f', '${Package}=${Version}\\n', ...recipe.packages], {
    captureStdout: true,
    timeoutMs: 60_000,
  }).catch((err: Error) => fail('versions', `cannot run chroot dpkg-query: ${err.message}`, err));
  if (!succeeded(r)) fail('versions', `dpkg-query ${describeExit(r)}`);
  const out: Record<string, string> = {};
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const eq = line.indexOf('=');
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/**
 * `tar -C dir --numeric-owner -c . | docker import -c … -m … - tag`; throws `TARGET_UNAVAILABLE`
 * (step `import`) when either side of the pipe fails.
 */
async function importRootfs(dir: string, recipe: ImageRecipe, tag: string, installed: Record<string, string>, progress: (line: string) => void): Promise<void> {
  const s0 = Date.now();
  progress('import: start');
  const fail = (detail: string, cause?: unknown): never => {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `image recipe ${recipe.name} (${tag}): step import failed: ${detail}`, { cause });
  };
  const tar = spawn('tar', ['-C', dir, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let tarErr = '';
  tar.stderr.on('data', (b: Buffer) => (tarErr = (tarErr + b.toString()).slice(-2000)));
  const tarDone = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    tar.on('error', (error) => resolve({ code: null, error }));
    tar.on('close', (code) => resolve({ code }));
  });
  const message = `memory-matrix image for ${recipe.name}: debootstrap ${recipe.suite} + ${recipe.packages.join(',')} (recipe ${recipeHash(recipe)})`;
  const args = ['import', ...importChanges(recipe, installed).flatMap((c) => ['-c', c]), '-m', message, '-', tag];
  const importing = execStreaming(dockerBin(), args, {
    stdinFrom: tar,
    onLine: (l) => progress(`import: ${l}`),
    timeoutMs: 30 * 60_000,
  }).catch((err: Error) => fail(`cannot run ${dockerBin()}: ${err.message}`, err));
  const [t, imp] = await Promise.all([tarDone, importing]);
  if (t.code !== 0) fail(`tar exit ${t.code}: ${tarErr.trim()}`, t.error);
  if (!succeeded(imp)) fail(`docker ${describeExit(imp)}`);
  progress(`import: done in ${((Date.now() - s0) / 1000).toFixed(1)} s`);
}
