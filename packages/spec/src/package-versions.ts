import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from './errors';

/** How `installedPackageVersion` finds a package: a hint for the not-installed message, entries to resolve by package. */
export interface VersionLookup {
  /** Appended to `run pnpm install` when a package is missing (e.g. which platforms a native binary is installed for). */
  hint?: string;
  /** Package → module to resolve instead of the package root (a package whose `exports` have no `.`). */
  entry?: Record<string, string>;
}

/**
 * The installed version of npm package `pkg` as resolved from `fromDir` (a package directory): the
 * nearest package.json with a name and a version above the file `require.resolve` finds (works
 * for packages whose `exports` map hides `./package.json`, and for npm aliases such as
 * `chromadb-1` → chromadb 1.10.5, whose package.json names the real package). Throws
 * TARGET_UNAVAILABLE naming `where` when the package is not installed (`how.hint` appended to
 * `run pnpm install`). `how.entry`: what to resolve instead of `pkg` when its root does not resolve
 * (e.g. `mem0ai/oss`: mem0ai's `exports` have no `.`).
 */
export function installedPackageVersion(pkg: string, fromDir: string, where: string, how: VersionLookup = {}): string {
  let file: string;
  try {
    file = require.resolve(how.entry?.[pkg] ?? pkg, { paths: [fromDir] });
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} is not installed (run pnpm install${how.hint ? `; ${how.hint}` : ''})`, { cause: err });
  }
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (typeof json.name === 'string' && typeof json.version === 'string') return json.version;
    } catch {
      // no package.json in this directory (or a nameless one, e.g. dist/cjs/package.json): look one level up
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} resolves to ${file} but no package.json above it names a version`);
}

/**
 * Installed versions of a driver's client packages, checked against the exact pins of its
 * package.json (`<packageDir>/package.json` dependencies; an alias pin `npm:name@1.2.3` counts as
 * `1.2.3`). `packages` maps the component name reported to the package, e.g.
 * `{ '@langchain/community': '@langchain/community', chromadb: 'chromadb-1' }`. Returns
 * component → version. Throws TARGET_UNAVAILABLE naming `where` when a package is missing or its
 * installed version differs from the pin. `how`: as for `installedPackageVersion`.
 */
export function pinnedPackageVersions(packageDir: string, packages: Record<string, string>, where: string, how: VersionLookup = {}): Record<string, string> {
  const file = path.join(packageDir, 'package.json');
  const pins = (JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  const out: Record<string, string> = {};
  for (const [component, pkg] of Object.entries(packages)) {
    const installed = installedPackageVersion(pkg, packageDir, where, how);
    const pin = pins[pkg]?.replace(/^npm:.*@/, '');
    if (pin !== installed) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${installed} is installed but ${file} pins ${pins[pkg] ?? 'nothing'} (run pnpm install)`);
    out[component] = installed;
  }
  return out;
}
