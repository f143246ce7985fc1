import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A cache of freshly initdb'd PGlite data directories, so an in-memory PGlite start skips initdb.
 *
 * Measured (this 2-CPU host, shared; load average 9.8–12.8 from other work; probe: PGlite.create
 * with the vector extension, CREATE EXTENSION vector, dumpDataDir('none'), PGlite.create with
 * loadDataDir of that dump):
 *   - PGlite 0.5.14 (PG 18): create 23.0 s (a second create in the same process 19.1 s), CREATE
 *     EXTENSION 0.2 s, dump 0.75 s (40.6 MB tar), create from the dump 3.1 s;
 *   - PGlite 0.2.17 (PG 16): create 19.1 s (again 14.2 s), CREATE EXTENSION 0.24 s, dump 0.68 s
 *     (28.4 MB), create from the dump 6.2 s.
 * So initdb is most of a start (WASM instantiation is the rest). The engine is unchanged: the same
 * PGlite loads the tarball of a cluster it just initialised itself (what PGlite's own `clone()`
 * does: `dumpDataDir('none')` then `create({ loadDataDir })`); the vector extension is still created
 * at each start (the dump is taken before it). Only starts without a `dataDir` use the cache (PGlite
 * refuses a tarball over an existing cluster, and a durability check's directory is its own).
 *
 * One file per key in `<os tmp>/memory-matrix-pglite-initdb/` (`<os tmp>`: `MM_SHARED_TMPDIR`, which the
 * CLI sets to the system temp dir before it points TMPDIR at its run's own temp root; else os.tmpdir()): the sha256 of the tarball (64 hex
 * digits and a newline), then the tarball. Written to a temp name and renamed into place (atomic:
 * concurrent runs see the old file, the new one or none); read back only when the sha256 matches
 * (a torn or foreign file is removed and rebuilt). `MM_PGLITE_INITDB_CACHE=0` turns it off.
 */
export const INITDB_CACHE_DIR = path.join(process.env.MM_SHARED_TMPDIR || os.tmpdir(), 'memory-matrix-pglite-initdb');

/** Format of the cache file; part of the key, so a change here never reads an old file. */
const FORMAT = 1;

/** True unless `MM_PGLITE_INITDB_CACHE=0`. */
export function initdbCacheEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MM_PGLITE_INITDB_CACHE !== '0';
}

/**
 * The cache file of an engine: `<dir>/<engine>-<package>@<version>…-f<FORMAT>.pgdata`, keyed by the
 * engine id and the installed version of every engine package (PGlite and its pgvector build:
 * enginePackageVersions), e.g. `pglite-0.5-pglite@0.5.14-pglite-pgvector@0.0.15-f1.pgdata`.
 */
export function initdbCacheFile(engine: string, versions: Record<string, string>, dir: string = INITDB_CACHE_DIR): string {
  const key = [engine, ...Object.entries(versions).map(([k, v]) => `${k}@${v}`), `f${FORMAT}`].join('-').replace(/[^A-Za-z0-9@._-]/g, '_');
  return path.join(dir, `${key}.pgdata`);
}

/**
 * The cached tarball at `file`, or undefined when there is none or it fails verification (shorter
 * than its header, or its sha256 differs from the header's): such a file is removed. Other read
 * errors than a missing file are thrown (the caller's start fails, naming the file).
 */
export function readInitdbCache(file: string): Buffer | undefined {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`PGlite initdb cache ${file}: ${(e as Error).message}`, { cause: e });
  }
  const header = raw.subarray(0, 65).toString('latin1');
  const body = raw.subarray(65);
  if (!/^[0-9a-f]{64}\n$/.test(header) || body.length === 0 || createHash('sha256').update(body).digest('hex') !== header.slice(0, 64)) {
    rmSync(file, { force: true });
    return undefined;
  }
  return body;
}

/** Store `tarball` at `file` (temp file in the same directory, then rename). Best effort: a full disk leaves no cache, never a torn file. */
export function writeInitdbCache(file: string, tarball: Buffer): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, Buffer.concat([Buffer.from(createHash('sha256').update(tarball).digest('hex') + '\n', 'latin1'), tarball]));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
