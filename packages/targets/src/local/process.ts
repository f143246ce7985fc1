import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { guardProcess } from './guard';

/** A free TCP port on 127.0.0.1 (bound once by the kernel, then released for the server). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A server process started on this host by the local provider. */
export interface LocalProcess {
  child: ChildProcess;
  pid: number;
  /** Temp data dir (`<MM_LOCAL_TMPDIR or os.tmpdir()>/mm-local-<name>-XXXXXX`), removed by `stop()`. */
  dataDir: string;
  /** Last ~4 KB of the server's stdout+stderr (for messages). */
  output(): string;
  /** Whether the process has exited. */
  exited(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 000); removes the data dir; idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawn `node <script> ...args(dataDir)` with a fresh temp data dir; the process and its dir are
 * registered with the exit guard (killed / removed on exit, crash, SIGINT, SIGTERM).
 */
export function spawnLocal(name: string, script: string, args: (dataDir: string) => string[]): LocalProcess {
  const dataDir = mkdtempSync(join(process.env.MM_LOCAL_TMPDIR || tmpdir(), `mm-local-${name}-`));
  let out = '';
  const child = spawn(process.execPath, [script, ...args(dataDir)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (b: Buffer) => (out = (out + b.toString()).slice(-4096));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const forget = guardProcess(child, dataDir);
  let stopping: Promise<void> | undefined;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    pid: child.pid ?? -1,
    dataDir,
    output: () => stripVTControlCharacters(out),
    exited,
    stop(graceMs = 5_000) {
      stopping ??= (async () => {
        if (!exited()) {
          const gone = new Promise<void>((r) => child.once('exit', () => r()));
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await gone;
          clearTimeout(t);
        }
        rmSync(dataDir, { recursive: true, force: true });
        forget();
      })();
      return stopping;
    },
  };
}
