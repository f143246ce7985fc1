import { spawn } from 'node:child_process';

/** The docker CLI the project uses everywhere (`MM_DOCKER_BIN`, default `docker`; packages/targets images/docker.ts). */
const dockerBin = (): string => process.env.MM_DOCKER_BIN || 'docker';

/** Runs `docker <args>` (10 s limit); resolves with exit code and output, never rejects. */
function docker(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn(dockerBin(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      resolve({ code: null, out: String(err) });
      return;
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, out: String(err) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Last `n` non-empty log lines of a container (stdout and stderr), joined with ` | `. */
export async function lastLogLines(containerId: string, n = 15): Promise<string> {
  const r = await docker(['logs', '--tail', String(n), containerId]);
  return r.out
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(-n)
    .join(' | ');
}

/** Crash reports per container, so every store of a crashed server (and every later one) says the same. */
const reports = new Map<string, string>();

/**
 * The crash probe of a container-served store (context.ts CrashProbe): after a failed call, asks
 * Docker whether the container still runs. When it does not (exited, killed, removed), the report
 * is `TARGET_CRASHED: <where>: the Milvus server is gone (container <id> <state>, exit <code>[,
 * OOM-killed]); last log lines: …`, remembered for the container. Undefined while it runs.
 */
export function containerCrashProbe(containerId: string, where: string): () => Promise<string | undefined> {
  return async () => {
    const known = reports.get(containerId);
    if (known) return known;
    const r = await docker(['inspect', '-f', '{{.State.Status}} {{.State.ExitCode}} {{.State.OOMKilled}}', containerId]);
    let state: string;
    if (r.code === 0) {
      const [status, exit, oom] = r.out.trim().split(/\s+/);
      if (status === 'running' || status === 'paused' || status === 'restarting') return undefined;
      state = `${status}, exit ${exit}${oom === 'true' ? ', OOM-killed' : ''}`;
    } else if (/no such (object|container)/i.test(r.out)) state = 'removed';
    else return undefined; // Docker cannot say: not a crash we can prove
    const logs = state === 'removed' ? '' : await lastLogLines(containerId);
    const report = `TARGET_CRASHED: ${where}: the Milvus server is gone (container ${containerId.slice(0, 12)} ${state}); last log lines: ${logs || '(none)'}`;
    reports.set(containerId, report);
    return report;
  };
}

/** The remembered crash report of a container, if any (a new store on a crashed server fails at once with it). */
export function crashReportOf(containerId: string): string | undefined {
  return reports.get(containerId);
}
