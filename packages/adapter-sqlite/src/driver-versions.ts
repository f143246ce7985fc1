import path from 'node:path';
import { pinnedPackageVersions } from '@memory-matrix/spec';

/** packages/adapter-sqlite (this file is packages/adapter-sqlite/src/driver-versions.ts), where its packages resolve from. */
const PACKAGE_DIR = path.resolve(__dirname, '..');

/** The engine's npm packages, by the component name their installed version is reported as. */
const ENGINE_PACKAGES: Record<string, string> = { 'better-sqlite3': 'better-sqlite3', 'sqlite-vec-npm': 'sqlite-vec' };

/**
 * Installed version of better-sqlite3 (it bundles the SQLite library, hence `sqlite_version()`)
 * and sqlite-vec, checked against the exact versions pinned in packages/adapter-sqlite/package.json
 * (spec `pinnedPackageVersions`). Returns `{ 'better-sqlite3': '12.11.1', 'sqlite-vec-npm': '0.1.9' }`.
 * Throws TARGET_UNAVAILABLE naming `where` when a package is missing or its installed version
 * differs from the pin (a stale install would test another SQLite).
 */
export function sqlitePackageVersions(where: string): Record<string, string> {
  return pinnedPackageVersions(PACKAGE_DIR, ENGINE_PACKAGES, where);
}
