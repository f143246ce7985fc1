import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** packages/adapter-mem0/package.json (this file is src/versions.ts). */
const PACKAGE_JSON = path.resolve(__dirname, '..', 'package.json');

/** The layer's packages pinned exactly in package.json under the embedded store (catalog `expect` keys). */
export const EMBEDDED_PACKAGES = ['mem0ai', 'better-sqlite3'] as const;
/** The same over pgvector: mem0's PGVector store loads node-postgres (`pg`) as its peer. */
export const PGVECTOR_PACKAGES = ['mem0ai', 'pg'] as const;

/** The installed version of `pkg`, read from its package.json on disk (mem0ai's `exports` do not list `./package.json`). */
function installed(pkg: string, where: string): string {
  try {
    const main = require.resolve(pkg === 'mem0ai' ? 'mem0ai/oss' : pkg, { paths: [path.dirname(PACKAGE_JSON)] });
    let dir = path.dirname(main);
    while (!dir.endsWith(`${path.sep}node_modules${path.sep}${pkg}`) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} is not installed (run pnpm install)`, { cause: err });
  }
}

/**
 * The layer's versions, for the cell's components: `mem0ai` (mem0's TypeScript SDK, whose
 * `mem0ai/oss` Memory the driver runs) and `better-sqlite3` (under mem0's embedded `memory` vector
 * store) or `pg` (node-postgres, which mem0's pgvector store connects with) — `packages` —, each
 * checked against its exact pin in packages/adapter-mem0/package.json. E.g.
 * `{ mem0ai: '3.3.1', 'better-sqlite3': '12.11.1' }`. Throws TARGET_UNAVAILABLE naming `where`
 * when a package is missing or differs from its pin.
 */
export function mem0PackageVersions(where: string, packages: readonly string[] = EMBEDDED_PACKAGES): Record<string, string> {
  const pins = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  const out: Record<string, string> = {};
  for (const pkg of packages) {
    const v = installed(pkg, where);
    if (pins[pkg] !== v) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${v} is installed but ${PACKAGE_JSON} pins ${pins[pkg] ?? 'nothing'} (run pnpm install)`);
    out[pkg] = v;
  }
  return out;
}
