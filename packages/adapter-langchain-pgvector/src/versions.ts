import path from 'node:path';
import { installedPackageVersion, pinnedPackageVersions } from '@memory-matrix/spec';

/** packages/adapter-langchain-pgvector (this file is src/versions.ts). */
const PACKAGE_DIR = path.resolve(__dirname, '..');

/**
 * The client's versions, for the cell's components: `@langchain/community` and `@langchain/core`
 * (each checked against its exact pin in packages/adapter-langchain-pgvector/package.json, spec
 * `pinnedPackageVersions`) and `pg` (node-postgres, the pool under the client; reported, not
 * pinned). E.g. `{ '@langchain/community': '1.1.29', '@langchain/core': '1.4.0', pg: '8.23.1' }`.
 * Throws TARGET_UNAVAILABLE naming `where` when a package is missing or differs from its pin.
 */
export function clientPackageVersions(where: string): Record<string, string> {
  const out = pinnedPackageVersions(PACKAGE_DIR, { '@langchain/community': '@langchain/community', '@langchain/core': '@langchain/core' }, where);
  out.pg = installedPackageVersion('pg', PACKAGE_DIR, where);
  return out;
}
