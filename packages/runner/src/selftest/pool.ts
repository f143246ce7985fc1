import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import type { CatalogueRun } from './model';
import type { WorkerRequest } from './worker';

/**
 * Child processes of one selftest (`--parallel n`), each running one `WorkerRequest` (worker.ts).
 * `run` resolves with the child's `CatalogueRun`; `stop` sends SIGTERM to every child still
 * running, by pid (each stops its own backend), and removes the temp dir of the results.
 */
export class WorkerPool {
  private readonly children = new Set<ChildProcess>();
  private dirPath?: string;
  private n = 0;

  /** The results' temp dir, made at the first run. */
  private get dir(): string {
    return (this.dirPath ??= mkdtempSync(path.join(os.tmpdir(), 'mm-selftest-')));
  }

  /**
   * Run `req` (without `resultFile`) in a new child; `log` gets its stderr lines. Rejects with
   * BACKEND_ERROR naming the run and the child's last stderr when it exits without a result, or
   * with the child's own error (code and message) when it reported one.
   */
  run(req: Omit<WorkerRequest, 'resultFile'>, log: (line: string) => void): Promise<CatalogueRun> {
    const resultFile = path.join(this.dir, `run-${++this.n}.json`);
    const what = `${req.target} ${req.mutant ?? 'clean run'}`;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), require.resolve(`./worker${path.extname(__filename)}`), JSON.stringify({ ...req, resultFile })], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      this.children.add(child);
      let tail = '';
      let partial = '';
      child.stderr!.on('data', (d: Buffer) => {
        const lines = (partial + d.toString()).split('\n');
        partial = lines.pop()!;
        for (const l of lines) {
          log(l);
          tail = (tail + l + '\n').slice(-2000);
        }
      });
      child.on('error', reject);
      child.on('close', (code, signal) => {
        this.children.delete(child);
        let parsed: (CatalogueRun & { error?: undefined }) | { error: { code?: string; message: string } } | undefined;
        try {
          parsed = JSON.parse(readFileSync(resultFile, 'utf8')) as typeof parsed;
        } catch {
          parsed = undefined;
        }
        if (parsed && 'results' in parsed) return resolve(parsed);
        if (parsed?.error) return reject(Object.assign(new MemoryMatrixError('BACKEND_ERROR', `${what}: ${parsed.error.message}`), { code: parsed.error.code ?? 'BACKEND_ERROR' }));
        reject(new MemoryMatrixError('BACKEND_ERROR', `${what}: the worker process exited ${signal ?? code} without a result${tail ? `: ${tail.trim().split('\n').slice(-5).join(' | ')}` : ''}`));
      });
    });
  }

  /** SIGTERM to every running child (by pid), then remove the results' temp dir. Idempotent. */
  stop(): void {
    for (const c of this.children) if (c.pid !== undefined && c.exitCode === null) c.kill('SIGTERM');
    if (this.dirPath) rmSync(this.dirPath, { recursive: true, force: true });
  }

  /** Remove the results' temp dir (after every child ended). */
  dispose(): void {
    if (this.dirPath) rmSync(this.dirPath, { recursive: true, force: true });
  }
}
