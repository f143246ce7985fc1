import { pinnedPackageVersions } from '@memory-matrix/spec';
import { checkLineNode, lineDir, type MastraLine, type MastraStorePackage } from './lines';

/**
 * The Mastra packages a target runs, each checked against its exact pin in the package.json of
 * its `line` (lines.ts: packages/adapter-mastra for 0.x, packages/mastra-1 for 1.x): `@mastra/core`
 * and the store package (`@mastra/pg` or `@mastra/libsql`). E.g. `{ '@mastra/core': '0.24.9',
 * '@mastra/pg': '0.17.10' }` (line 0) or `{ '@mastra/core': '1.71.0', '@mastra/libsql': '1.23.1' }`
 * (line 1). Throws TARGET_UNAVAILABLE naming `where` when a package is missing or differs from its
 * pin, or when this Node is below the line's `engines` (`checkLineNode`).
 */
export function mastraPackageVersions(store: MastraStorePackage, where: string, line: MastraLine = '0'): Record<string, string> {
  checkLineNode(line, where);
  return pinnedPackageVersions(lineDir(line), { '@mastra/core': '@mastra/core', [store]: store }, where);
}
