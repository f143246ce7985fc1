import path from 'node:path';
import { buildSync } from 'esbuild';
import { storeProcessBundle } from '@memory-matrix/spec';

/**
 * The SQLite store process's script (server.ts bundled into `<tmp>/mm-sqlite-server-<hash>.js`,
 * spec `storeProcessBundle`, which has the measurement: 0.37 × the start time through tsx).
 * better-sqlite3 (a native addon) and sqlite-vec (it finds its loadable extension beside itself)
 * stay external. Throws TARGET_UNAVAILABLE naming `where`.
 */
export function storeProcessScript(where: string): string {
  return storeProcessBundle(
    {
      name: 'sqlite',
      // server.ts from the sources, server.js from a built package (dist/).
      entry: path.join(__dirname, `server${path.extname(__filename)}`),
      external: () => ({ 'better-sqlite3': require.resolve('better-sqlite3'), 'sqlite-vec': require.resolve('sqlite-vec') }),
      build: buildSync,
    },
    where,
  );
}
