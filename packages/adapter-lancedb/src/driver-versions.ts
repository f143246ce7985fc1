import path from 'node:path';
import { installedPackageVersion, pinnedPackageVersions, type VersionLookup } from '@memory-matrix/spec';

/** Set by the store process's bundle (process/bundle.ts `define`), which runs from a temp dir. */
declare const MM_LANCEDB_PACKAGE_DIR: string | undefined;

/** packages/adapter-lancedb (this file is packages/adapter-lancedb/src/driver-versions.ts), where its packages resolve from. */
const PACKAGE_DIR = typeof MM_LANCEDB_PACKAGE_DIR === 'string' ? MM_LANCEDB_PACKAGE_DIR : path.resolve(__dirname, '..');

/** The engine's npm packages, by the component name their installed version is reported as. */
const ENGINE_PACKAGES: Record<string, string> = { lancedb: '@lancedb/lancedb', 'lancedb-native': '@lancedb/lancedb-linux-x64-gnu', 'apache-arrow': 'apache-arrow' };

/** The native binary is pinned for one platform: said when a package is missing. */
const LOOKUP: VersionLookup = { hint: 'the LanceDB binary is pinned and installed for linux-x64-gnu only' };

/** The installed version of npm package `pkg`, resolved from this package (spec `installedPackageVersion`). Throws TARGET_UNAVAILABLE naming `where` when it is not installed. */
export function installedVersion(pkg: string, where: string): string {
  return installedPackageVersion(pkg, PACKAGE_DIR, where, LOOKUP);
}

/**
 * Installed versions of `@lancedb/lancedb`, its native binary `@lancedb/lancedb-linux-x64-gnu`
 * and `apache-arrow`, checked against the exact versions pinned in
 * packages/adapter-lancedb/package.json (spec `pinnedPackageVersions`). Returns `{ lancedb: '0.37.1',
 * 'lancedb-native': '0.37.1', 'apache-arrow': '18.1.0' }`. Throws TARGET_UNAVAILABLE naming
 * `where` when a package is missing or its installed version differs from the pin.
 */
export function lancedbPackageVersions(where: string): Record<string, string> {
  return pinnedPackageVersions(PACKAGE_DIR, ENGINE_PACKAGES, where, LOOKUP);
}
