import { spawn, type ChildProcess } from 'node:child_process';
import { armLimitTimer } from '@memory-matrix/spec';

/** Result of a finished child process: exit code (or the signal that ended it) and the output kept. */
export interface ExecResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Full stdout (only when `captureStdout` was set), else ''. */
  stdout: string;
  /** Last `tailLines` lines of stderr+stdout, for error messages. */
  tail: string[];
}

/** Options of {@link execStreaming}. */
export interface ExecOptions {
  /** Called once per output line (stdout and stderr), without the newline. */
  onLine?: (line: string) => void;
  /** Keep the whole stdout in the result (for commands whose answer is on stdout). */
  captureStdout?: boolean;
  /** Kill the process (SIGKILL) after this many milliseconds; 0/undefined = no limit. */
  timeoutMs?: number;
  /** Lines of output kept for error messages; default 20. */
  tailLines?: number;
  /** Connect this process's stdout to the child's stdin (for pipelines such as `tar | docker import`). */
  stdinFrom?: ChildProcess;
  /** Expose the spawned child (e.g. to pipe its stdout into another). */
  onSpawn?: (child: ChildProcess) => void;
}

/** Children of `execStreaming` still running: killed (SIGKILL) when this process exits, so a build cut short by Ctrl-C or an error leaves no debootstrap or `docker import` behind. */
const running = new Set<ChildProcess>();
let exitHook = false;
function track(child: ChildProcess): void {
  running.add(child);
  child.once('close', () => running.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const c of running) killGroup(c);
  });
}

/** SIGKILL to the child's process group (it leads one: `detached`), so what it started (debootstrap's dpkg, chroot) goes with it; the child alone when the group is gone. */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * Runs `cmd args` without a shell and resolves when it ends (any exit code: the caller decides).
 * Rejects only when the program cannot be spawned (e.g. ENOENT), with the spawn error. A child still
 * running when this process exits is killed with it.
 */
export function execStreaming(cmd: string, args: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  const tailLines = opts.tailLines ?? 20;
  return new Promise((resolve, reject) => {
    // A process group of its own: a time limit or this process' exit kills everything the command started.
    const child = spawn(cmd, args, { stdio: [opts.stdinFrom ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
    track(child);
    opts.onSpawn?.(child);
    if (opts.stdinFrom?.stdout && child.stdin) {
      opts.stdinFrom.stdout.pipe(child.stdin);
      // EPIPE when the reader dies early: its exit code reports the failure.
      child.stdin.on('error', () => undefined);
    }
    const tail: string[] = [];
    let stdout = '';
    const lineReader = (isStdout: boolean) => {
      let rest = '';
      return (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        if (isStdout && opts.captureStdout) stdout += text;
        const lines = (rest + text).split('\n');
        rest = lines.pop() ?? '';
        for (const l of lines) emit(l);
      };
    };
    const emit = (line: string) => {
      tail.push(line);
      if (tail.length > tailLines) tail.shift();
      opts.onLine?.(line);
    };
    child.stdout?.on('data', lineReader(true));
    child.stderr?.on('data', lineReader(false));
    const timer =
      opts.timeoutMs && opts.timeoutMs > 0
        ? armLimitTimer(
            () => {
              emit(`[killed after ${opts.timeoutMs} ms]`);
              killGroup(child);
            },
            opts.timeoutMs,
            { ref: true },
          )
        : undefined;
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, tail });
    });
  });
}

/** True when the result is a clean exit 0. */
export function succeeded(r: ExecResult): boolean {
  return r.code === 0 && r.signal === null;
}

/** One-line description of how a process ended plus its last output lines, for error messages. */
export function describeExit(r: ExecResult): string {
  const how = r.signal ? `killed by ${r.signal}` : `exit code ${r.code}`;
  const tail = r.tail
    .filter((l) => l.trim() !== '')
    .slice(-8)
    .join(' | ');
  return tail ? `${how}; last output: ${tail}` : how;
}
