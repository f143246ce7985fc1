import { openSync, readFileSync, unlinkSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** The lock file a run keeps in its report dir while it runs: the owner's pid and a newline. */
export const REPORT_LOCK = '.memory-matrix.lock';

/**
 * Take `dir`'s report lock for this process, so that a second run given the same `--report-dir`
 * stops at once instead of overwriting the first run's reports with its own halfway through.
 * A lock left by a process that is gone (killed -9, a crashed machine) is taken over. The lock is
 * removed when this process exits (also after process.exit from a signal handler), or by the
 * returned function. `dir` must exist (ensureReportDir). Throws USAGE naming the flag, the dir and
 * the pid of the run that holds it; re-entrant for the same process.
 */
export function lockReportDir(dir: string, flag = '--report-dir'): () => void {
  const file = path.join(dir, REPORT_LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      const release = (): void => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone: nothing to release
        }
        process.removeListener('exit', release);
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number.parseInt(readOwner(file), 10);
      if (owner === process.pid) return () => undefined;
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new MemoryMatrixError('USAGE', `${flag} ${dir}: another memory-matrix run (pid ${owner}) is writing its reports there; wait for it to end or give this run its own ${flag}`);
      }
      // The owner is gone: its lock is stale.
      try {
        unlinkSync(file);
      } catch {
        // removed meanwhile by another run taking it over: the next attempt decides
      }
    }
  }
  throw new MemoryMatrixError('USAGE', `${flag} ${dir}: another memory-matrix run took its report lock (${REPORT_LOCK}) at the same moment`);
}

function readOwner(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending; EPERM = exists, not ours). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
