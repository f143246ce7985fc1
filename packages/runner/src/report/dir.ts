import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * `mkdir -p dir`, one missing level at a time from the nearest existing ancestor. Not
 * `mkdirSync(dir, { recursive: true })`: Node 20's recursive mkdir loops forever, at full CPU and
 * deaf to SIGINT / SIGTERM, when a parent exists but refuses a child with ENOENT (measured:
 * `node -e 'fs.mkdirSync("/proc/nope/x", { recursive: true })'` never returns; `/proc` is such a
 * parent). Throws the file system's error for the first level that cannot be made (ENOENT,
 * ENOTDIR, EACCES, EROFS, EEXIST for a file in the way), naming its path.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let p = path.resolve(dir); !existsSync(p); p = path.dirname(p)) {
    missing.unshift(p);
    if (path.dirname(p) === p) break;
  }
  for (const p of missing) {
    try {
      mkdirSync(p);
    } catch (e) {
      // Made by someone else in between: fine when it is a directory now.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !isDirectory(p)) throw e;
    }
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** What the common error codes mean for a directory the tool must write into. */
const WHY: Record<string, string> = {
  EEXIST: 'a file is in the way (it or a parent is not a directory)',
  ENOTDIR: 'a parent of it is a file, not a directory',
  ENOENT: 'a parent of it cannot hold directories (or vanished)',
  EACCES: 'no permission to write there',
  EROFS: 'read-only file system',
};

/**
 * Make sure `dir` exists (`makeDirs`) and is a writable directory BEFORE any backend starts, so a
 * typo does not cost a whole run's results. Throws USAGE `--report-dir <dir>: cannot write <what>
 * there: <reason> (<code>)`; `what` is e.g. `reports`, `the diff`.
 */
export function ensureWritableDir(dir: string, what: string): void {
  try {
    makeDirs(dir);
    if (!statSync(dir).isDirectory()) throw new Error('it is a file, not a directory');
    accessSync(dir, constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new MemoryMatrixError('USAGE', `--report-dir ${dir}: cannot write ${what} there: ${(code && WHY[code]) ?? (e as Error).message}${code ? ` (${code})` : ''}`, { cause: e });
  }
}
