import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

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
