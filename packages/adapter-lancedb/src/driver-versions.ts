import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** Set by the store process's bundle (process/bundle.ts `define`), which runs from a temp dir. */
declare const MM_LANCEDB_PACKAGE_DIR: string | undefined;

/** packages/adapter-lancedb (this file is packages/adapter-lancedb/src/driver-versions.ts), where its packages resolve from. */
const PACKAGE_DIR = typeof MM_LANCEDB_PACKAGE_DIR === 'string' ? MM_LANCEDB_PACKAGE_DIR : path.resolve(__dirname, '..');
const PACKAGE_JSON = path.join(PACKAGE_DIR, 'package.json');

/** The engine's npm packages, by the component name their installed version is reported as. */
const ENGINE_PACKAGES: Record<string, string> = { lancedb: '@lancedb/lancedb', 'lancedb-native': '@lancedb/lancedb-linux-x64-gnu', 'apache-arrow': 'apache-arrow' };

/**
 * The installed version of npm package `pkg`: the nearest package.json named `pkg` above the file
 * `require.resolve(pkg)` finds, resolved from this package. Throws TARGET_UNAVAILABLE naming
 * `where` when the package is not installed (e.g. the native binary of another platform).
 */
export function installedVersion(pkg: string, where: string): string {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(pkg, { paths: [PACKAGE_DIR] }));
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} is not installed (run pnpm install; the LanceDB binary is pinned are installed for linux-x64-gnu only)`, {
      cause: err,
    });
  }
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (json.name === pkg && typeof json.version === 'string') return json.version;
    } catch {
      // no package.json in this directory (ENOENT): look one level up
    }
    const up = path.dirname(dir);
    if (up === dir) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} resolves to ${require.resolve(pkg, { paths: [PACKAGE_DIR] })} but no package.json names it`);
    dir = up;
  }
}

/**
 * Installed versions of `@lancedb/lancedb`, its native binary `@lancedb/lancedb-linux-x64-gnu`
 * and `apache-arrow`, checked against the exact versions pinned in
 * packages/adapter-lancedb/package.json. Returns `{ lancedb: '0.37.1', 'lancedb-native': '0.37.1',
 * 'apache-arrow': '18.1.0' }`. Throws TARGET_UNAVAILABLE naming `where` when a package is missing
 * or its installed version differs from the pin.
 */
export function lancedbPackageVersions(where: string): Record<string, string> {
  const pins = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  const out: Record<string, string> = {};
  for (const [component, pkg] of Object.entries(ENGINE_PACKAGES)) {
    const installed = installedVersion(pkg, where);
    if (pins[pkg] !== installed) {
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${installed} is installed but ${PACKAGE_JSON} pins ${pins[pkg] ?? 'nothing'} (run pnpm install)`);
    }
    out[component] = installed;
  }
  return out;
}
