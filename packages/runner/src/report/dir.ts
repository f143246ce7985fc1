import { accessSync, constants, statSync } from 'node:fs';
import { MemoryMatrixError, makeDirs } from '@memory-matrix/spec';

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
