import { spawn, type ChildProcess } from 'node:child_process';

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

/**
 * Runs `cmd args` without a shell and resolves when it ends (any exit code: the caller decides).
 * Rejects only when the program cannot be spawned (e.g. ENOENT), with the spawn error.
 */
export function execStreaming(cmd: string, args: string[], opts: ExecOptions = {}): Promise<ExecResult> {
  const tailLines = opts.tailLines ?? 20;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: [opts.stdinFrom ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
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
        ? setTimeout(() => {
            emit(`[killed after ${opts.timeoutMs} ms]`);
            child.kill('SIGKILL');
          }, opts.timeoutMs)
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
