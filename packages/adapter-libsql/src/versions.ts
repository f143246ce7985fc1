import path from 'node:path';
import { installedPackageVersion, pinnedPackageVersions } from '@memory-matrix/spec';

/** packages/adapter-libsql (this file is src/versions.ts). */
export const PACKAGE_DIR = path.resolve(__dirname, '..');

/** The installed `libsql` npm package's version (its exports map hides ./package.json). Throws TARGET_UNAVAILABLE naming `where`. */
export function installedLibsqlVersion(where: string): string {
  return installedPackageVersion('libsql', PACKAGE_DIR, where);
}

/**
 * Preflight of engine `libsql-0.5`: the installed `libsql` checked against the exact pin of
 * packages/adapter-libsql/package.json → `{ libsql: '0.5.29' }`. Throws TARGET_UNAVAILABLE naming
 * `where` when it is missing or differs (spec `pinnedPackageVersions`).
 */
export function libsqlPackageVersions(where: string): Record<string, string> {
  return pinnedPackageVersions(PACKAGE_DIR, { libsql: 'libsql' }, where);
}
