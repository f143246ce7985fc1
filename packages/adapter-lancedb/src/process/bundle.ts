import path from 'node:path';
import { buildSync } from 'esbuild';
import { storeProcessBundle } from '@memory-matrix/spec';

/**
 * The LanceDB store process's script (server.ts bundled into `<tmp>/mm-lancedb-server-<hash>.js`,
 * spec `storeProcessBundle`; its start-time measurement was made on the SQLite store process, not
 * re-measured for LanceDB). External: `@lancedb/lancedb` (its native addon and platform-package
 * lookup) and `apache-arrow` (so that the adapter and LanceDB share one Arrow). The bundle runs
 * from a temp dir, so it is told this package's directory (`MM_LANCEDB_PACKAGE_DIR`,
 * driver-versions.ts). Throws TARGET_UNAVAILABLE naming `where`.
 */
export function storeProcessScript(where: string): string {
  return storeProcessBundle(
    {
      name: 'lancedb',
      // server.ts from the sources, server.js from a built package (dist/).
      entry: path.join(__dirname, `server${path.extname(__filename)}`),
      external: () => ({ '@lancedb/lancedb': require.resolve('@lancedb/lancedb'), 'apache-arrow': require.resolve('apache-arrow') }),
      define: { MM_LANCEDB_PACKAGE_DIR: JSON.stringify(path.resolve(__dirname, '..', '..')) },
      build: buildSync,
    },
    where,
  );
}
