import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** packages/adapter-sqlite/package.json (this file is packages/adapter-sqlite/src/driver-versions.ts). */
const PACKAGE_JSON = path.resolve(__dirname, '..', 'package.json');

/** The engine's npm packages, by the component name their installed version is reported as. */
const ENGINE_PACKAGES: Record<string, string> = { 'better-sqlite3': 'better-sqlite3', 'sqlite-vec-npm': 'sqlite-vec' };

/**
 * The installed version of npm package `pkg`: the nearest package.json named `pkg` above the
 * file `require.resolve(pkg)` finds (sqlite-vec's `exports` map does not expose ./package.json).
 * Throws TARGET_UNAVAILABLE naming `where` when the package is not installed.
 */
function installedVersion(pkg: string, where: string): string {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(pkg));
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} is not installed (run pnpm install)`, { cause: err });
  }
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (json.name === pkg && typeof json.version === 'string') return json.version;
    } catch {
      // no package.json in this directory (ENOENT): look one level up
    }
    const up = path.dirname(dir);
    if (up === dir) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} resolves to ${require.resolve(pkg)} but no package.json names it`);
    dir = up;
  }
}

/**
 * Installed version of better-sqlite3 (it bundles the SQLite library, hence `sqlite_version()`)
 * and sqlite-vec, checked against the exact versions pinned in packages/adapter-sqlite/package.json.
 * Returns `{ 'better-sqlite3': '12.11.1', 'sqlite-vec-npm': '0.1.9' }`. Throws TARGET_UNAVAILABLE
 * naming `where` when a package is missing or its installed version differs from the pin (a stale
 * install would test another SQLite).
 */
export function sqlitePackageVersions(where: string): Record<string, string> {
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
