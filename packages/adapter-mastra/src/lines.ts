import { createRequire } from 'node:module';
import path from 'node:path';
import { MASTRA_1_DIR } from '@memory-matrix/mastra-1';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { z } from 'zod';

/**
 * The Mastra lines this package runs, each from the package that pins it, and the lowest Node
 * the line's `engines` admit.
 * - `0`: @mastra/core 0.24.9, @mastra/pg 0.17.10, @mastra/libsql 0.16.4, pinned in this package
 *   (`engines: node >=20`), the line memory-matrix's own Node 20 runs in process.
 * - `1`: @mastra/core 1.71.0, @mastra/pg 1.27.1, @mastra/libsql 1.23.1, pinned in the workspace
 *   package @memory-matrix/mastra-1 (packages/mastra-1) under their own names: beside 0.x in one
 *   package, npm aliases would resolve the stores' peer `@mastra/core` to 0.24.9 (a peer resolves
 *   by name). Every 1.x package declares `engines: { node: ">=22.13.0" }` (npm view, 2026-12-07),
 *   so its targets run in a child process on the Node 22 the catalog's `runtime` names.
 */
export const MASTRA_LINES = {
  '0': { dir: path.resolve(__dirname, '..'), minNode: '20.0.0' },
  '1': { dir: MASTRA_1_DIR, minNode: '22.13.0' },
} as const;

/** A Mastra line: `'0'` or `'1'`. */
export type MastraLine = keyof typeof MASTRA_LINES;

/** The store packages a target runs over, by their published names. */
export type MastraStorePackage = '@mastra/pg' | '@mastra/libsql';

/**
 * The drivers' `adapterOptions` (catalog, per target): `mastra`, the line the target runs
 * (`"0"` default, `"1"`). Strict: another key is a catalog error.
 */
export const mastraOptionsSchema = z.object({ mastra: z.enum(['0', '1']).default('0') }).strict();

/** Parsed `adapterOptions` of a Mastra target. */
export type MastraOptions = z.infer<typeof mastraOptionsSchema>;

/** The line of parsed `adapterOptions` (absent: `'0'`). */
export function lineOf(options: MastraOptions | undefined): MastraLine {
  return options?.mastra ?? '0';
}

/** The folder whose package.json pins `line` (the packages are resolved from there). */
export function lineDir(line: MastraLine): string {
  return MASTRA_LINES[line].dir;
}

/** `require` of `line`'s packages (`lineRequire('1')('@mastra/libsql')` loads @mastra/libsql 1.23.1). */
export function lineRequire(line: MastraLine): NodeJS.Require {
  return createRequire(path.join(lineDir(line), 'package.json'));
}

/** `a` ≥ `b` for dotted numeric versions (`22.23.5` ≥ `22.13.0`). */
function atLeast(a: string, b: string): boolean {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return true;
}

/**
 * Throws TARGET_UNAVAILABLE naming `where` when this process' Node (`nodeVersion`, default
 * `process.versions.node`) is below what `line`'s packages declare in `engines` (1.x: 22.13.0):
 * the line is never loaded on a Node its packages refuse, so a run or a test on Node 20 says so
 * instead of failing inside Mastra.
 */
export function checkLineNode(line: MastraLine, where: string, nodeVersion = process.versions.node): void {
  const min = MASTRA_LINES[line].minNode;
  if (!atLeast(nodeVersion, min))
    throw new MemoryMatrixError(
      'TARGET_UNAVAILABLE',
      `${where}: Mastra ${line}.x needs Node >= ${min} (its packages' engines); this process runs Node ${nodeVersion}. The target's catalog runtime runs it on Node 22 in a child process (memory-matrix run)`,
    );
}
