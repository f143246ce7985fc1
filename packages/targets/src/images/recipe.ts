import { createHash } from 'node:crypto';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * An offline image recipe: how to build a container image for a target from Debian packages
 * alone (no registry). The builder runs, in order:
 *   debootstrap --variant=minbase --include=<packages> <suite> <rootfs> <mirror>
 *   chroot <rootfs> /bin/sh -ec '<setup[i]>'   (each entry once, in order)
 *   tar -C <rootfs> -c . | docker import -c 'ENV k=v' … -c 'CMD [...]' - <tag>-<hash8>
 */
export interface ImageRecipe {
  /** Target (or recipe) name for messages and labels, `backend@version`. */
  name: string;
  /** Tag without the recipe hash, e.g. `memory-matrix/<backend>:<version>`; the built tag is `<tag>-<hash8>`. */
  tag: string;
  /** Debian suite for debootstrap, e.g. `trixie`, `sid`. */
  suite: string;
  /** Debian packages passed to `--include` (comma-joined). Non-empty. */
  packages: string[];
  /** Shell snippets run inside the rootfs as root via `chroot <dir> /bin/sh -ec <snippet>`, in order. */
  setup: string[];
  /** Image environment (`ENV k=v`). */
  env: Record<string, string>;
  /** Image command (exec form), e.g. `["/usr/local/bin/mm-start"]`. */
  cmd?: string[];
  /** Ports the image documents (`EXPOSE`), e.g. `[5432]`. */
  expose?: number[];
  /** Debian mirror; default `http://deb.debian.org/debian`. */
  mirror?: string;
}

/** Default Debian mirror used by debootstrap. */
export const DEFAULT_MIRROR = 'http://deb.debian.org/debian';

/**
 * Version of the builder's own steps (cleanup, tar flags, labels). Part of the recipe hash, so a
 * change in how images are built invalidates every cached image.
 */
export const BUILDER_VERSION = 1;

/** Image labels the builder sets; `images list` filters on `memory-matrix.recipe`. */
export const IMAGE_LABELS = {
  recipe: 'memory-matrix.recipe',
  hash: 'memory-matrix.recipe-hash',
  suite: 'memory-matrix.suite',
  packages: 'memory-matrix.packages',
} as const;

const TAG_RE = /^[a-z0-9]+(?:[._/-][a-z0-9]+)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,100}$/;
const ENV_KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SAFE_WORD_RE = /^[a-z0-9][a-z0-9+.-]*$/;

/**
 * Validates a recipe; throws `INVALID_INPUT` naming the recipe and field. Checked before any
 * shell or Docker command sees the values (suite and package names are passed as arguments).
 */
export function validateRecipe(r: ImageRecipe): void {
  const bad = (field: string, why: string): never => {
    throw new MemoryMatrixError('INVALID_INPUT', `image recipe ${r?.name ?? '?'}: field ${field} ${why}`);
  };
  if (!r || typeof r.name !== 'string' || r.name === '') bad('name', 'must be a non-empty string');
  if (!TAG_RE.test(r.tag ?? '')) bad('tag', `must look like repo/name:tag, got ${JSON.stringify(r.tag)}`);
  if (!SAFE_WORD_RE.test(r.suite ?? '')) bad('suite', `must be a Debian suite name, got ${JSON.stringify(r.suite)}`);
  if (!Array.isArray(r.packages) || r.packages.length === 0) bad('packages', 'must be a non-empty list');
  r.packages.forEach((p, i) => SAFE_WORD_RE.test(p) || bad(`packages[${i}]`, `is not a package name: ${JSON.stringify(p)}`));
  if (!Array.isArray(r.setup) || r.setup.some((s) => typeof s !== 'string')) bad('setup', 'must be a list of strings');
  if (typeof r.env !== 'object' || r.env === null) bad('env', 'must be a map');
  for (const [k, v] of Object.entries(r.env)) {
    if (!ENV_KEY_RE.test(k)) bad(`env.${k}`, 'is not a valid variable name');
    if (typeof v !== 'string' || /[\n\r]/.test(v)) bad(`env.${k}`, 'must be a single-line string');
  }
  if (r.cmd !== undefined && (!Array.isArray(r.cmd) || r.cmd.length === 0 || r.cmd.some((c) => typeof c !== 'string'))) bad('cmd', 'must be a non-empty list of strings');
  if (r.expose !== undefined && r.expose.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) bad('expose', 'must be a list of port numbers');
  if (r.mirror !== undefined && !/^https?:\/\/\S+$/.test(r.mirror)) bad('mirror', 'must be an http(s) URL');
}

/** JSON with object keys sorted, so the hash does not depend on key order. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * First 8 hex digits of sha256 over the canonical JSON of everything that shapes the image
 * (suite, packages, setup, env, cmd, expose, mirror, builder version); `name` and `tag` are
 * left out, so renaming does not force a rebuild.
 */
export function recipeHash(r: ImageRecipe): string {
  const { name: _n, tag: _t, ...content } = r;
  const body = canonicalJson({ ...content, mirror: r.mirror ?? DEFAULT_MIRROR, builder: BUILDER_VERSION });
  return createHash('sha256').update(body).digest('hex').slice(0, 8);
}

/** The tag an image built from `r` carries: `<r.tag>-<hash8>`, e.g. `memory-matrix/<backend>:<version>-1a2b3c4d`. */
export function recipeTag(r: ImageRecipe): string {
  return `${r.tag}-${recipeHash(r)}`;
}
