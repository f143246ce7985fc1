import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** packages/adapter-langchain-pgvector/package.json (this file is src/versions.ts). */
const PACKAGE_JSON = path.resolve(__dirname, '..', 'package.json');

/** The client's packages pinned exactly in package.json, reported under their own names (catalog `expect` keys). */
const PINNED = ['@langchain/community', '@langchain/core'] as const;

/** The installed version of `pkg` from its package.json (both LangChain packages and pg export `./package.json`). */
function installed(pkg: string, where: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`, { paths: [path.dirname(PACKAGE_JSON)] }), 'utf8')) as { version: string }).version;
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: package ${pkg} is not installed (run pnpm install)`, { cause: err });
  }
}

/**
 * The client's versions, for the cell's components: `@langchain/community` and `@langchain/core`
 * (each checked against its exact pin in packages/adapter-langchain-pgvector/package.json) and
 * `pg` (node-postgres, the pool under the client; reported, not pinned). E.g.
 * `{ '@langchain/community': '1.1.29', '@langchain/core': '1.4.0', pg: '8.23.1' }`.
 * Throws TARGET_UNAVAILABLE naming `where` when a package is missing or differs from its pin.
 */
export function clientPackageVersions(where: string): Record<string, string> {
  const pins = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { dependencies: Record<string, string> }).dependencies;
  const out: Record<string, string> = {};
  for (const pkg of PINNED) {
    const v = installed(pkg, where);
    if (pins[pkg] !== v) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${pkg} ${v} is installed but ${PACKAGE_JSON} pins ${pins[pkg] ?? 'nothing'} (run pnpm install)`);
    out[pkg] = v;
  }
  out.pg = installed('pg', where);
  return out;
}
