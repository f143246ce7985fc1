import { spawn } from 'node:child_process';
import { describeLimit, hostCalibration, MemoryMatrixError, type ExecResult } from '@memory-matrix/spec';
import { getContainerRuntimeClient } from 'testcontainers';
import { dockerBin } from '../images/docker';
import { describeExit, execStreaming, succeeded } from '../images/exec';

/**
 * The Docker CLI calls the fault machinery makes, each bounded in time. They only ever name
 * containers and volumes this run created (the callers pass their own ids).
 */

/**
 * Run `docker <args>`, killed after `timeoutMs` (default 30 000) × the host factor (spec host.ts:
 * on a busy host the engine answers slowly, which is not the store's fault); resolves with stdout.
 * Throws BACKEND_ERROR naming `where` and the command on a non-zero exit.
 */
export async function docker(args: string[], where: string, timeoutMs = 30_000): Promise<string> {
  const factor = hostCalibration().factor;
  const r = await execStreaming(dockerBin(), args, { captureStdout: true, timeoutMs: Math.round(timeoutMs * factor) }).catch((err: Error) => {
    throw new MemoryMatrixError('BACKEND_ERROR', `${where}: docker ${args[0]}: ${err.message}`, { cause: err });
  });
  if (!succeeded(r)) throw new MemoryMatrixError('BACKEND_ERROR', `${where}: docker ${args.slice(0, 3).join(' ')}: ${describeExit(r)} (limit ${describeLimit(timeoutMs, factor)})`);
  return r.stdout;
}

/**
 * The Docker Engine API client testcontainers uses (dockerode over DOCKER_HOST or the local socket;
 * created once by testcontainers and cached there). The calls made while polling go through it
 * rather than the CLI: a `docker inspect` / `docker logs` process costs ≈ 50 ms of CPU here (20 in
 * a row: 0.59 s user + 0.42 s system), and a restart polled the CLI twice every 100 ms — one
 * C15 run on redis@8.0 spawned 242 CLI processes, 164 of them these reads.
 */
async function engine(): Promise<Awaited<ReturnType<typeof getContainerRuntimeClient>>['container']['dockerode']> {
  return (await getContainerRuntimeClient()).container.dockerode;
}

/** Engine API call for `where`; BACKEND_ERROR naming `where` and the call on failure. */
async function api<T>(where: string, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new MemoryMatrixError('BACKEND_ERROR', `${where}: docker ${what}: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  }
}

/** `docker inspect` of container `id` (Engine API); BACKEND_ERROR naming `where` when the engine cannot say. */
async function inspect(id: string, where: string) {
  const d = await engine();
  return api(where, `inspect ${id.slice(0, 12)}`, () => d.getContainer(id).inspect());
}

/** `State.Status` of a container (`running`, `exited`, `paused`, …) and its exit code (Engine API inspect). BACKEND_ERROR when the engine cannot say. */
export async function containerState(id: string, where: string): Promise<{ status: string; exitCode: number }> {
  const info = await inspect(id, where);
  return { status: info.State.Status, exitCode: info.State.ExitCode };
}

/** The host port mapped to `port/tcp` on 127.0.0.1 (Engine API inspect). Throws BACKEND_ERROR when there is none. */
export async function mappedPort(id: string, port: number, where: string): Promise<number> {
  const info = await inspect(id, where);
  const bindings = info.NetworkSettings?.Ports?.[`${port}/tcp`] ?? [];
  const local = bindings.find((b) => b.HostIp === '127.0.0.1');
  if (!local) throw new MemoryMatrixError('BACKEND_ERROR', `${where}: no 127.0.0.1 mapping for ${port}/tcp (the engine lists ${JSON.stringify(bindings)})`);
  return Number(local.HostPort);
}

/** `docker start` (Engine API) of a created or stopped container; BACKEND_ERROR naming `where` when the engine refuses. */
export async function startContainer(id: string, where: string): Promise<void> {
  const d = await engine();
  await api(where, `start ${id.slice(0, 12)}`, () => d.getContainer(id).start());
}

/** `docker kill -s KILL` (Engine API): SIGKILL to the container's main process; BACKEND_ERROR naming `where` when the engine refuses. */
export async function killContainer(id: string, where: string): Promise<void> {
  const d = await engine();
  await api(where, `kill -s KILL ${id.slice(0, 12)}`, () => d.getContainer(id).kill({ signal: 'SIGKILL' }));
}

/**
 * Lines of the container's log (stdout and stderr, Engine API logs) matching `re`, and the last
 * `tail` non-empty lines. An engine that cannot answer gives `{ count: 0, tail: [] }` (callers poll
 * again or report the wait that ran out).
 */
export async function logMatches(id: string, re: RegExp, tail = 12): Promise<{ count: number; tail: string[] }> {
  const d = await engine();
  const raw = await d
    .getContainer(id)
    .logs({ stdout: true, stderr: true, follow: false })
    .catch(() => undefined);
  if (!raw) return { count: 0, tail: [] };
  const lines = demuxLog(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw))).split(/\r?\n/);
  return { count: lines.filter((l) => re.test(l)).length, tail: lines.filter((l) => l.trim() !== '').slice(-tail) };
}

/**
 * The text of a container log as the Engine API sends it: for a container without a TTY, frames
 * of an 8-byte header (stream 0/1/2, three zero bytes, payload length uint32 big-endian) and the
 * payload, stdout and stderr interleaved in order (Docker Engine API, "Attach to a container",
 * stream format); a log that does not start with such a header (TTY) is the text itself.
 */
export function demuxLog(buf: Buffer): string {
  const framed = (at: number): boolean => at + 8 <= buf.length && buf[at]! <= 2 && buf[at + 1] === 0 && buf[at + 2] === 0 && buf[at + 3] === 0;
  if (buf.length === 0 || !framed(0)) return buf.toString('utf8');
  const parts: Buffer[] = [];
  let at = 0;
  while (framed(at)) {
    const size = buf.readUInt32BE(at + 4);
    parts.push(buf.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Result of `execBinary`: exit code, stdout bytes, stderr text. */
/** What `execBinary` resolves with: the contract's `ExecResult` (exit code or null, stdout bytes, stderr text, `killedAfter`). */
export type BinaryExec = ExecResult;

/**
 * `docker exec [-i] <id> <cmd…>` with binary stdout (dumps) and optional stdin bytes, killed after
 * `timeoutMs` (default 120 000) × the host factor (spec host.ts; `killedAfter` then names the limit:
 * at load average ≈ 70 a pg_dump of C16 was killed at a fixed 120 s). Resolves with the exit code
 * whatever it is; rejects only when docker cannot be spawned.
 */
export function execBinary(id: string, cmd: string[], opts: { stdin?: Uint8Array; timeoutMs?: number } = {}): Promise<BinaryExec> {
  return new Promise((resolve, reject) => {
    const args = ['exec', ...(opts.stdin ? ['-i'] : []), id, ...cmd];
    const child = spawn(dockerBin(), args, { stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => (err = (err + d.toString('utf8')).slice(-8_000)));
    const baseMs = opts.timeoutMs ?? 120_000;
    const factor = hostCalibration().factor;
    let killedAfter: string | undefined;
    const timer = setTimeout(
      () => {
        killedAfter = describeLimit(baseMs, factor);
        child.kill('SIGKILL');
      },
      Math.round(baseMs * factor),
    );
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err, ...(killedAfter ? { killedAfter } : {}) });
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
