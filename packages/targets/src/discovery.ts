import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * Finding the driver packages: no list of backends is kept anywhere. A package is a driver
 * package when its package.json has the field
 *
 *   "memoryMatrix": { "driver": "<the export of its main module that is its BackendDriver>", "bundled": true? }
 *
 * (`bundled`: the memory-matrix CLI package depends on it, so it comes with every install; the
 * others are installed beside memory-matrix when wanted). Where to look (`defaultRoots`):
 *  1. the workspace: when this file is not under a `node_modules` folder and a
 *     `pnpm-workspace.yaml` is found above it (the repository), every `<root>/packages/<dir>/package.json`
 *     with the field — not `examples/`: a user's driver there is named by MM_DRIVERS or memory-matrix.yaml;
 *  2. installed packages: from the working directory, this package's folder and the running
 *     script's folder, every `node_modules` on the way up, its `@memory-matrix/*` and
 *     `memory-matrix-driver-*` packages with the field (the names say where to look; the field says
 *     which export is the driver);
 *  3. (registry.ts, not here) MM_DRIVERS and memory-matrix.yaml `adapters:` modules.
 * A package folder reached twice (a symlink, two roots) counts once; a package name found in two
 * folders is taken from the first (the workspace, then the closer node_modules) and the other is
 * listed in `shadowed`.
 */

/** The package.json field that makes a package a driver package. */
export const DRIVER_FIELD = 'memoryMatrix';

/** A driver package found (its driver not loaded yet). */
export interface DriverPackage {
  /** The package.json `name`, e.g. `@memory-matrix/adapter-sqlite`. */
  name: string;
  /** Its folder (real path: symlinks resolved). */
  dir: string;
  /** Its package.json file (`<dir>/package.json`). */
  manifest: string;
  /** `memoryMatrix.driver`: the export of the package's main module that is its `BackendDriver`. */
  exportName: string;
  /** `memoryMatrix.bundled` (default false): the memory-matrix CLI package depends on it. */
  bundled: boolean;
  /** Which source found it. */
  source: 'workspace' | 'installed';
}

/** Where `findDriverPackages` looks: the workspace root (or none) and the folders whose `node_modules` on the way up are read. */
export interface DiscoveryRoots {
  workspace: string | undefined;
  searchFrom: string[];
}

/** What `findDriverPackages` returns: the packages in the order found, and the same-named ones left out. */
export interface Discovery {
  found: DriverPackage[];
  shadowed: Array<{ name: string; dir: string; usedDir: string }>;
}

const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The repository's root when `from` (default: this file's folder) is inside a pnpm workspace and
 * not inside any `node_modules` (an installed copy never is a workspace); undefined otherwise.
 */
export function workspaceRoot(from: string = __dirname): string | undefined {
  if (from.split(path.sep).includes('node_modules')) return undefined;
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml')) && existsSync(path.join(dir, 'packages'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The roots of this process: `workspaceRoot()`, and the working directory, this package's folder and the running script's (`process.argv[1]`, real path). */
export function defaultRoots(): DiscoveryRoots {
  const script = process.argv[1] ? realOrSelf(path.resolve(process.argv[1])) : undefined;
  return { workspace: workspaceRoot(), searchFrom: [process.cwd(), realOrSelf(__dirname), ...(script ? [path.dirname(script)] : [])] };
}

/**
 * Find the driver packages under `roots` (see the comment at the top). Throws USAGE
 * `<package.json>:<line>: memoryMatrix…: <what is wrong>` for a package.json of a looked-at
 * package that is not JSON or whose `memoryMatrix` field is malformed (not an object, `driver` not an
 * identifier, `bundled` not a boolean, another key).
 */
export function findDriverPackages(roots: DiscoveryRoots = defaultRoots()): Discovery {
  const found: DriverPackage[] = [];
  const shadowed: Discovery['shadowed'] = [];
  const seenDirs = new Set<string>();
  const consider = (dir: string, source: DriverPackage['source']): void => {
    const real = realOrSelf(dir);
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    const p = readDriverPackage(real, source);
    if (!p) return;
    const had = found.find((f) => f.name === p.name);
    if (had) shadowed.push({ name: p.name, dir: p.dir, usedDir: had.dir });
    else found.push(p);
  };
  if (roots.workspace) for (const d of listDirs(path.join(roots.workspace, 'packages'))) consider(path.join(roots.workspace, 'packages', d), 'workspace');
  for (const nm of nodeModulesDirs(roots.searchFrom)) {
    for (const d of listDirs(path.join(nm, '@memory-matrix'))) consider(path.join(nm, '@memory-matrix', d), 'installed');
    for (const d of listDirs(nm).filter((n) => n.startsWith('memory-matrix-driver-'))) consider(path.join(nm, d), 'installed');
  }
  return { found, shadowed };
}

/** Every `node_modules` folder on the way up from each of `from`, closest first, each once. */
export function nodeModulesDirs(from: readonly string[]): string[] {
  const out: string[] = [];
  for (const start of from) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      const nm = path.basename(dir) === 'node_modules' ? undefined : path.join(dir, 'node_modules');
      if (nm && !out.includes(nm) && existsSync(nm)) out.push(nm);
      if (path.dirname(dir) === dir) break;
    }
  }
  return out;
}

/**
 * The driver package in folder `dir`, or undefined when it has no package.json or no
 * `memoryMatrix` field. Throws USAGE naming the package.json (and line) when the file is not JSON
 * or the field is malformed.
 */
export function readDriverPackage(dir: string, source: DriverPackage['source']): DriverPackage | undefined {
  const manifest = path.join(dir, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const text = readFileSync(manifest, 'utf8');
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new MemoryMatrixError('USAGE', `${manifest}: not JSON: ${(e as Error).message}`, { cause: e });
  }
  const field = pkg[DRIVER_FIELD];
  if (field === undefined) return undefined;
  const bad = (key: string, what: string): never => {
    throw new MemoryMatrixError(
      'USAGE',
      `${manifest}:${fieldLine(text, key)}: ${DRIVER_FIELD}${key ? `.${key}` : ''} ${what} (a driver package's field: { "driver": "<its driver export>", "bundled": true|false })`,
    );
  };
  if (typeof field !== 'object' || field === null || Array.isArray(field)) return bad('', `is ${JSON.stringify(field)}, not an object`);
  const f = field as Record<string, unknown>;
  for (const k of Object.keys(f)) if (k !== 'driver' && k !== 'bundled') bad(k, 'is not a key of the field');
  if (typeof f.driver !== 'string' || !EXPORT_NAME.test(f.driver)) bad('driver', `is ${JSON.stringify(f.driver)}, not the name of an export`);
  if (f.bundled !== undefined && typeof f.bundled !== 'boolean') bad('bundled', `is ${JSON.stringify(f.bundled)}, not true or false`);
  if (typeof pkg.name !== 'string') bad('', 'is in a package.json without a name');
  return { name: pkg.name as string, dir, manifest, exportName: f.driver as string, bundled: f.bundled === true, source };
}

/** Line (1-based) of `"memoryMatrix"` in the package.json text, or of `"<key>"` after it; 1 when not found. */
export function fieldLine(text: string, key = ''): number {
  let at = text.indexOf(`"${DRIVER_FIELD}"`);
  if (at >= 0 && key) {
    const k = text.indexOf(`"${key}"`, at);
    at = k >= 0 ? k : at;
  }
  return at < 0 ? 1 : text.slice(0, at).split('\n').length;
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name)
      .sort();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return []; // no such folder: nothing installed there
    throw e;
  }
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
