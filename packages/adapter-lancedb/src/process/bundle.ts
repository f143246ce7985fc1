import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** The store process's entry point, beside this file: server.ts from the sources, server.js from a built package (dist/). */
const SERVER = path.join(__dirname, `server${path.extname(__filename)}`);
/** Packages the bundle loads from their installed location (LanceDB's native addon and its platform-package lookup; apache-arrow, so that the adapter and LanceDB share one Arrow). */
const EXTERNAL = ['@lancedb/lancedb', 'apache-arrow'];

let built: string | undefined;

/**
 * The store process's script as ONE CommonJS file: server.ts and everything it imports (the adapter,
 * @memory-matrix/spec) bundled by esbuild once per process of the run, written as
 * `<MM_LOCAL_TMPDIR or os.tmpdir()>/mm-lancedb-server-<sha256 of the bundle, 12 hex>.js` unless that
 * file is already there: a compile cache like tsx's own, one file per version of the sources (a
 * per-run file would be left behind by hosts whose exit handlers do not run, such as jest).
 * Why: C15 starts this process about 15 times per run (5 kill cycles + set-up); the SQLite
 * adapter measured its bundle starting in 0.37 x the time through tsx's CommonJS hook
 * (packages/adapter-sqlite/src/process/bundle.ts); not re-measured for LanceDB. Same sources, same
 * engine; esbuild is what tsx transpiles with. Throws TARGET_UNAVAILABLE naming `where` when the
 * bundle cannot be built or written.
 */
export function storeProcessScript(where: string): string {
  if (built) return built;
  try {
    // EXTERNAL packages stay `require("<their installed entry file>")`, so the bundle runs from the temp dir.
    const entries = Object.fromEntries(EXTERNAL.map((p) => [p, require.resolve(p)]));
    const out = buildSync({
      entryPoints: [SERVER],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      outfile: 'server.js',
      alias: entries,
      external: Object.values(entries),
      define: { MM_LANCEDB_PACKAGE_DIR: JSON.stringify(path.resolve(__dirname, '..', '..')) },
      logLevel: 'silent',
    });
    const code = out.outputFiles[0]!.contents;
    const file = path.join(process.env.MM_LOCAL_TMPDIR || tmpdir(), `mm-lancedb-server-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.js`);
    if (!existsSync(file)) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, code);
      renameSync(tmp, file); // atomic: a concurrent run never starts a half-written script
    }
    built = file;
    return file;
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: bundling the LanceDB store process (${SERVER}) failed: ${(err as Error).message}`, { cause: err });
  }
}
