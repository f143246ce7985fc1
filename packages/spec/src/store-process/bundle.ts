import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryMatrixError } from '../errors';

/**
 * The part of esbuild's `buildSync` a bundle needs (the adapter passes esbuild's own, so that spec
 * does not depend on esbuild; esbuild's API: https://esbuild.github.io/api/#build).
 */
export type BundleBuild = (options: {
  entryPoints: string[];
  bundle: true;
  platform: 'node';
  format: 'cjs';
  target: string;
  write: false;
  outfile: string;
  alias: Record<string, string>;
  external: string[];
  define: Record<string, string>;
  logLevel: 'silent';
}) => { outputFiles?: Array<{ contents: Uint8Array }> };

/** What to bundle: an adapter's store process entry point. */
export interface StoreProcessBundle {
  /** Names the bundle file (`mm-<name>-server-<hash>.js`) and the error, e.g. `sqlite`. */
  name: string;
  /** The entry point (absolute path of the adapter's server.ts). */
  entry: string;
  /**
   * Packages the bundle loads from their installed location (native addons, packages that find
   * files beside themselves), each with its entry file as the adapter resolves it (`require.resolve`).
   */
  external: () => Record<string, string>;
  /** esbuild `define`s (identifier → JSON text), e.g. a package directory the bundle cannot find from the temp dir. */
  define?: Record<string, string>;
  /** esbuild's `buildSync`. */
  build: BundleBuild;
}

const built = new Map<string, string>();

/**
 * A store process's script as ONE CommonJS file: `entry` and everything it imports (the adapter,
 * @memory-matrix/spec) bundled by esbuild once per process of the run, written as
 * `<MM_LOCAL_TMPDIR or os.tmpdir()>/mm-<name>-server-<sha256 of the bundle, 12 hex>.js` unless that
 * file is already there: a compile cache like tsx's own, one file per version of the sources (a
 * per-run file would be left behind by hosts whose exit handlers do not run, such as jest). The
 * `external` packages stay `require("<their installed entry file>")`, so the bundle runs from the
 * temp dir. Why: C15 starts a store process about 40 times per run (3 configurations × 2 parts ×
 * (5 kill cycles + set-up)); measured on the SQLite store process (2 cores, load average ≈ 13,
 * spawn → listening, medians of 6 interleaved starts) the bundle started in 625 ms against 1,692 ms
 * through tsx's CommonJS hook (ratio 0.37): tsx resolves and loads each of spec's modules on every
 * start. Same sources, same engine; esbuild is what tsx transpiles with. Returns the file's
 * absolute path. Throws TARGET_UNAVAILABLE naming `where` when the bundle cannot be built or written.
 */
export function storeProcessBundle(b: StoreProcessBundle, where: string): string {
  const done = built.get(b.entry);
  if (done) return done;
  try {
    const entries = b.external();
    const out = b.build({
      entryPoints: [b.entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      outfile: 'server.js',
      alias: entries,
      external: Object.values(entries),
      define: b.define ?? {},
      logLevel: 'silent',
    });
    const code = out.outputFiles![0]!.contents;
    const file = path.join(process.env.MM_LOCAL_TMPDIR || tmpdir(), `mm-${b.name}-server-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.js`);
    if (!existsSync(file)) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, code);
      renameSync(tmp, file); // atomic: a concurrent run never starts a half-written script
    }
    built.set(b.entry, file);
    return file;
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: bundling the ${b.name} store process (${b.entry}) failed: ${(err as Error).message}`, { cause: err });
  }
}
