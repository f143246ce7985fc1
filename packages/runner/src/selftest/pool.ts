import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import type { CatalogueRun } from './model';
import type { WorkerReply, WorkerRequest } from './worker';

/** One worker child process and the run it is carrying out, if any. */
interface Worker {
  proc: ChildProcess;
  /** The run in progress: settled by the child's reply, or rejected when the child exits first. */
  current?: { what: string; log: (line: string) => void; resolve: (r: CatalogueRun) => void; reject: (e: Error) => void };
  /** The last stderr lines of the current run (for the error of a child that died). */
  tail: string;
}

/**
 * Child processes of one selftest (`--parallel n`), each carrying out one `WorkerRequest`
 * (worker.ts) at a time, over its IPC channel. The children are kept for the next run: a child
 * loads the runner, every driver and the golden dataset once, not once per mutant (at load average
 * 25 on the 2-core machine a child's start alone took 20-40 s, longer than most mutant runs under
 * `--first`). At most as many children as calls to `run` in flight at once (the caller bounds them).
 * `stop` sends SIGTERM to every child, by pid (each stops its own backend); `dispose` closes their
 * IPC channels, on which they exit.
 */
export class WorkerPool {
  private readonly workers = new Set<Worker>();
  private stopped = false;

  /**
   * Carry out `req` in an idle child (a new one when none is idle); `log` gets the child's stderr
   * lines during this run. Rejects with BACKEND_ERROR naming the run and the child's last stderr
   * lines when it exits before replying, or with the child's own error (code and message) when it
   * replied with one.
   */
  run(req: WorkerRequest, log: (line: string) => void): Promise<CatalogueRun> {
    if (this.stopped) return Promise.reject(new MemoryMatrixError('BACKEND_ERROR', `${req.target} ${req.mutant ?? 'clean run'}: not started, the selftest is stopping`));
    const w = [...this.workers].find((x) => !x.current && x.proc.connected) ?? this.spawn();
    const what = `${req.target} ${req.mutant ?? 'clean run'}`;
    return new Promise((resolve, reject) => {
      w.current = { what, log, resolve, reject };
      w.tail = '';
      w.proc.send(req);
    });
  }

  private spawn(): Worker {
    const proc = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), require.resolve(`./worker${path.extname(__filename)}`)], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const w: Worker = { proc, tail: '' };
    this.workers.add(w);
    let partial = '';
    proc.stderr!.on('data', (d: Buffer) => {
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop()!;
      for (const l of lines) {
        w.current?.log(l);
        w.tail = (w.tail + l + '\n').slice(-2000);
      }
    });
    proc.on('message', (m: WorkerReply) => {
      const c = w.current;
      w.current = undefined;
      if (!c) return;
      if ('run' in m) c.resolve(m.run);
      else c.reject(Object.assign(new MemoryMatrixError('BACKEND_ERROR', `${c.what}: ${m.error.message}`), { code: m.error.code ?? 'BACKEND_ERROR' }));
    });
    const gone = (how: string): void => {
      this.workers.delete(w);
      const c = w.current;
      w.current = undefined;
      if (c) c.reject(new MemoryMatrixError('BACKEND_ERROR', `${c.what}: the worker process ${how} without a result${w.tail ? `: ${w.tail.trim().split('\n').slice(-5).join(' | ')}` : ''}`));
    };
    proc.on('error', (e) => gone(`failed (${e.message})`));
    proc.on('close', (code, signal) => gone(`exited ${signal ?? code}`));
    return w;
  }

  /** SIGTERM to every child still running (by pid); no further run starts. Idempotent. */
  stop(): void {
    this.stopped = true;
    for (const w of this.workers) if (w.proc.pid !== undefined && w.proc.exitCode === null) w.proc.kill('SIGTERM');
  }

  /** Close every child's IPC channel (an idle child exits on it). Call after every run settled. */
  dispose(): void {
    for (const w of this.workers) if (w.proc.connected) w.proc.disconnect();
  }
}
