import path from 'node:path';
import { pinnedPackageVersions } from '@memory-matrix/spec';

/** packages/adapter-mem0 (this file is src/versions.ts). */
const PACKAGE_DIR = path.resolve(__dirname, '..');

/** The layer's packages pinned exactly in package.json under the embedded store (catalog `expect` keys). */
export const EMBEDDED_PACKAGES = ['mem0ai', 'better-sqlite3'] as const;
/** The same over pgvector: mem0's PGVector store loads node-postgres (`pg`) as its peer. */
export const PGVECTOR_PACKAGES = ['mem0ai', 'pg'] as const;

/**
 * The layer's versions, for the cell's components: `mem0ai` (mem0's TypeScript SDK, whose
 * `mem0ai/oss` Memory the driver runs; its `exports` have no `.`, so `mem0ai/oss` is resolved) and
 * `better-sqlite3` (under mem0's embedded `memory` vector store) or `pg` (node-postgres, which
 * mem0's pgvector store connects with) — `packages` —, each checked against its exact pin in
 * packages/adapter-mem0/package.json (spec `pinnedPackageVersions`). E.g.
 * `{ mem0ai: '3.3.1', 'better-sqlite3': '12.11.1' }`. Throws TARGET_UNAVAILABLE naming `where`
 * when a package is missing or differs from its pin.
 */
export function mem0PackageVersions(where: string, packages: readonly string[] = EMBEDDED_PACKAGES): Record<string, string> {
  return pinnedPackageVersions(PACKAGE_DIR, Object.fromEntries(packages.map((p) => [p, p])), where, { entry: { mem0ai: 'mem0ai/oss' } });
}
