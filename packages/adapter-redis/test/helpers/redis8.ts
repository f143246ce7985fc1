import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * A real Redis 8 (Vector Sets) for the adapter's own tests, without depending on
 * packages/targets (which depends on this package): `docker run` of the offline image the
 * catalog's redis@8.0 recipe built (`memory-matrix/redis:8.0-<hash8>`, the newest one), with the
 * project's container labels (run, target, pid, owner) so the matrix's cleanup treats it like its
 * own, port 6379 published on 127.0.0.1 only. `gate` is '' when it can run, else why not.
 */
export function redis8Gate(): { image: string; gate: string } {
  if (spawnSync('docker', ['info'], { timeout: 10_000 }).status !== 0) return { image: '', gate: 'no Docker engine answers (run .ci/docker-up.sh)' };
  const ls = spawnSync('docker', ['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}', 'memory-matrix/redis'], { encoding: 'utf8', timeout: 10_000 });
  const image =
    (ls.stdout ?? '')
      .split('\n')
      .find((l) => /^memory-matrix\/redis:8\.0-[0-9a-f]{8}$/.test(l.trim()))
      ?.trim() ?? '';
  return { image, gate: image ? '' : 'image memory-matrix/redis:8.0-<hash> not built (pnpm matrix images build -t redis@8.0)' };
}

/** Start the container; resolves with its id and the mapped port. Throws with docker's stderr. */
export function startRedis8(image: string, runId: string): { id: string; port: number } {
  let owner = 'unknown-ns';
  try {
    owner = readlinkSync('/proc/self/ns/pid');
  } catch {
    /* not Linux */
  }
  const labels = { 'memory-matrix.run': runId, 'memory-matrix.target': 'redis@8.0', 'memory-matrix.pid': String(process.pid), 'memory-matrix.owner': `${hostname()}:${owner}` };
  const args = [
    'run',
    '-d',
    '-p',
    '127.0.0.1::6379',
    ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
    image,
    'redis-server',
    '--port',
    '6379',
    '--bind',
    '0.0.0.0',
    '--protected-mode',
    'no',
    '--save',
    '',
    '--appendonly',
    'no',
  ];
  const run = spawnSync('docker', args, { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`docker run ${image}: ${run.stderr}`);
  const id = run.stdout.trim();
  const port = spawnSync('docker', ['port', id, '6379/tcp'], { encoding: 'utf8' }).stdout.split('\n')[0]?.split(':').pop();
  if (!port) throw new Error(`docker port ${id}: no mapping for 6379`);
  return { id, port: Number(port) };
}

/** Remove the container (and its anonymous volumes); idempotent. */
export function stopRedis8(id: string | undefined): void {
  if (id) spawnSync('docker', ['rm', '-f', '-v', id], { timeout: 60_000 });
}
