import { spawn } from 'node:child_process';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { dockerBin } from '../images/docker';
import { describeExit, execStreaming, succeeded } from '../images/exec';

/**
 * The Docker CLI calls the fault machinery makes, each bounded in time. They only ever name
 * containers and volumes this run created (the callers pass their own ids).
 */

/** Run `docker <args>`; resolves with stdout. Throws BACKEND_ERROR naming `where` and the command on a non-zero exit. */
export async function docker(args: string[], where: string, timeoutMs = 30_000): Promise<string> {
  const r = await execStreaming(dockerBin(), args, { captureStdout: true, timeoutMs }).catch((err: Error) => {
    throw new MemoryMatrixError('BACKEND_ERROR', `${where}: docker ${args[0]}: ${err.message}`, { cause: err });
  });
  if (!succeeded(r)) throw new MemoryMatrixError('BACKEND_ERROR', `${where}: docker ${args.slice(0, 3).join(' ')}: ${describeExit(r)}`);
  return r.stdout;
}

/** `State.Status` of a container (`running`, `exited`, `paused`, …) and its exit code. */
export async function containerState(id: string, where: string): Promise<{ status: string; exitCode: number }> {
  const out = await docker(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', id], where);
  const [status = '', code = '0'] = out.trim().split(' ');
  return { status, exitCode: Number(code) };
}

/** The host port mapped to `port/tcp` on 127.0.0.1. Throws BACKEND_ERROR when there is none. */
export async function mappedPort(id: string, port: number, where: string): Promise<number> {
  const out = await docker(['port', id, `${port}/tcp`], where);
  const m = /127\.0\.0\.1:(\d+)/.exec(out);
  if (!m) throw new MemoryMatrixError('BACKEND_ERROR', `${where}: no 127.0.0.1 mapping for ${port}/tcp (docker port said: ${out.trim() || 'nothing'})`);
  return Number(m[1]);
}

/** Lines of the container's log (stdout and stderr) matching `re`, and the last `tail` lines. */
export async function logMatches(id: string, re: RegExp, tail = 12): Promise<{ count: number; tail: string[] }> {
  let count = 0;
  const r = await execStreaming(dockerBin(), ['logs', id], { timeoutMs: 15_000, tailLines: tail, onLine: (l) => (re.test(l) ? count++ : 0) }).catch(() => undefined);
  return { count, tail: r ? r.tail.filter((l) => l.trim() !== '') : [] };
}

/** Result of `execBinary`: exit code, stdout bytes, stderr text. */
export interface BinaryExec {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * `docker exec [-i] <id> <cmd…>` with binary stdout (dumps) and optional stdin bytes, killed after
 * `timeoutMs`. Resolves with the exit code whatever it is; rejects only when docker cannot be spawned.
 */
export function execBinary(id: string, cmd: string[], opts: { stdin?: Uint8Array; timeoutMs?: number } = {}): Promise<BinaryExec> {
  return new Promise((resolve, reject) => {
    const args = ['exec', ...(opts.stdin ? ['-i'] : []), id, ...cmd];
    const child = spawn(dockerBin(), args, { stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-8_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    if (opts.stdin && child.stdin) {
      child.stdin.on('error', () => undefined); // EPIPE when the command dies early: its exit code says why
      child.stdin.end(Buffer.from(opts.stdin));
    }
  });
}

/** Poll `fn` every `everyMs` until it returns a value other than undefined, or `deadline` (epoch ms) passes (→ undefined). */
export async function pollUntil<T>(fn: () => Promise<T | undefined>, deadline: number, everyMs = 100): Promise<T | undefined> {
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
