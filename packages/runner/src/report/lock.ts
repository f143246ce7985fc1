import { openSync, readFileSync, unlinkSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { redactUrl } from '@memory-matrix/targets';

/**
 * The lock file a command keeps in its report dir while it writes there: the owner's pid on the
 * first line, the command (`run`, `selftest`, `merge`, `diff`, `migrate`) on the second, its
 * command line (`lockCommandLine`) on the third. A lock of an older version holds only the pid
 * (its command was a run), or the pid and the command.
 */
export const REPORT_LOCK = '.memory-matrix.lock';

/** The commands that write into a report dir and take its lock. */
export type ReportDirCommand = 'run' | 'selftest' | 'merge' | 'diff' | 'migrate';

/**
 * Take `dir`'s report lock for this process, so that a second command given the same `--report-dir`
 * (a run, a selftest, a merge, a diff or a migrate) stops at once instead of overwriting the first one's reports
 * with its own halfway through. `command` is this process's command, written into the lock so that
 * the one refused can name it; `flag` is the option that named `dir`. A lock left by a process that is
 * gone (killed -9, a crashed machine) is taken over. The lock is removed when this process exits
 * (also after process.exit from a signal handler), or by the returned function (idempotent; it removes
 * the lock only while it is still this process's). `dir` must exist (ensureReportDir). Throws USAGE
 * `<flag> <dir>: another memory-matrix <its command> (pid <its pid>: <its command line>) is writing its reports there; …`
 * (a lock of an older version, without a command line: `(pid <its pid>)`)
 * when a live process holds it, USAGE when another process took it in the same instant, and the file
 * system's error (ENOENT `dir` missing, EACCES, EROFS) when the lock file cannot be made; after any of
 * these nothing of this process is left in `dir`. Re-entrant for the same process (the returned
 * function then does nothing: the first taker releases).
 */
export function lockReportDir(dir: string, flag = '--report-dir', command: ReportDirCommand = 'run'): () => void {
  const file = path.join(dir, REPORT_LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeFileSync(fd, `${process.pid}\n${command}\n${lockCommandLine(process.argv.slice(2))}\n`);
      } catch (w) {
        closeSync(fd);
        unlinkSync(file); // an empty lock would only look stale to the next taker: leave nothing
        throw w;
      }
      closeSync(fd);
      const release = (): void => {
        try {
          if (readOwner(file).pid === process.pid) unlinkSync(file);
        } catch {
          // already gone: nothing to release
        }
        process.removeListener('exit', release);
      };
      process.on('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = readOwner(file);
      if (owner.pid === process.pid) return () => undefined;
      if (Number.isInteger(owner.pid) && owner.pid > 0 && alive(owner.pid)) {
        throw new MemoryMatrixError(
          'USAGE',
          `${flag} ${dir}: another memory-matrix ${owner.command} (pid ${owner.pid}${owner.line ? `: ${owner.line}` : ''}) is writing its reports there; wait for it to end or give this ${command} its own ${flag}`,
        );
      }
      // The owner is gone: its lock is stale.
      try {
        unlinkSync(file);
      } catch {
        // removed meanwhile by another process taking it over: the next attempt decides
      }
    }
  }
  throw new MemoryMatrixError('USAGE', `${flag} ${dir}: another memory-matrix process took its report lock (${REPORT_LOCK}) at the same moment`);
}

/** The lock's pid (NaN when unreadable or empty), command (`run` when the lock names none) and command line ('' when it holds none). */
function readOwner(file: string): { pid: number; command: string; line: string } {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // gone or unreadable: no owner
  }
  const [pid = '', command = '', line = ''] = text.split('\n').map((l) => l.trim());
  return { pid: /^\d+$/.test(pid) ? Number(pid) : Number.NaN, command: /^[a-z]+$/.test(command) ? command : 'run', line: line.startsWith('memory-matrix') ? line : '' };
}

/** Longest command line a lock records, characters (a longer one ends in `…`). */
const MAX_LINE = 300;

/**
 * The command line a lock records for `args` (argv after node and the script): `memory-matrix`
 * and the arguments, each shell-quoted when it holds anything but `[\w@%+=:,./-]`, passwords in
 * URLs redacted (targets `redactUrl`), on one line of at most MAX_LINE characters, e.g.
 * `memory-matrix --backend sqlite@3.53-vec0.1.9 --check C01 --report-dir r1`.
 */
export function lockCommandLine(args: readonly string[]): string {
  const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  const line = ['memory-matrix', ...args.map((a) => quote(redactUrl(a).replace(/[\r\n]+/g, ' ')))].join(' ');
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
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
