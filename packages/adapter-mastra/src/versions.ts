import path from 'node:path';
import { pinnedPackageVersions } from '@memory-matrix/spec';

/** packages/adapter-mastra (this file is src/versions.ts). */
const PACKAGE_DIR = path.resolve(__dirname, '..');

/**
 * The Mastra packages a target runs, each checked against its exact pin in
 * packages/adapter-mastra/package.json: `@mastra/core` and the store package (`@mastra/pg` or
 * `@mastra/libsql`). E.g. `{ '@mastra/core': '0.24.9', '@mastra/pg': '0.17.10' }` (the newest line
 * whose `engines` admit Node 20; README "Versions"). Throws TARGET_UNAVAILABLE naming `where` when a
 * package is missing or differs from its pin.
 */
export function mastraPackageVersions(store: '@mastra/pg' | '@mastra/libsql', where: string): Record<string, string> {
  return pinnedPackageVersions(PACKAGE_DIR, { '@mastra/core': '@mastra/core', [store]: store }, where);
}
