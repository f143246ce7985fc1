import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { dockerBin } from '../images/docker';
import { describeExit, execStreaming, succeeded } from '../images/exec';
import { ownerDead } from '../container/cleanup';
import { registerRun } from '../container/guard';
import { CONTAINER_LABELS, containerLabels } from '../container/labels';
import { docker } from './docker-ops';

/**
 * Docker volumes of fault instances: named `mm-<runId>-<6 hex>`, labelled like containers
 * (`memory-matrix.run`, `.target`, `.pid`), removed when their instance stops, by the exit/signal
 * guard below when the process ends early, and by `removeLeftoverVolumes` at the start of the next
 * run when the process was killed with SIGKILL. Only volumes carrying these labels are touched.
 */

/** A project volume as `docker volume ls` lists it. */
export interface ProjectVolume {
  name: string;
  runId: string;
  target: string;
  /** The process that created it (NaN when missing). */
  pid: number;
  /** `<host>:<pid namespace>` of that process ('' on volumes of older versions). */
  owner: string;
}

const live = new Set<string>();
let guarded = false;

/** Create a labelled volume for `target` in run `runId`; resolves with its name. Throws BACKEND_ERROR. */
export async function createVolume(runId: string, target: string): Promise<string> {
  const name = `mm-${runId.replace(/[^a-zA-Z0-9_.-]/g, '-')}-${randomBytes(3).toString('hex')}`;
  const labels = Object.entries(containerLabels(runId, target)).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  registerRun(runId); // the container guard first: its exit handler removes the containers before ours removes the volumes
  installVolumeGuard();
  live.add(name);
  try {
    await docker(['volume', 'create', ...labels, name], `${target}: volume ${name}`);
  } catch (err) {
    live.delete(name);
    throw err;
  }
  return name;
}

/** Remove a volume (after every container using it is gone). Missing is not an error. Throws BACKEND_ERROR. */
export async function removeVolume(name: string, where: string): Promise<void> {
  const r = await execStreaming(dockerBin(), ['volume', 'rm', '-f', name], { timeoutMs: 30_000 });
  if (!succeeded(r) && !r.tail.some((l) => /no such volume/i.test(l))) {
    throw new MemoryMatrixError('BACKEND_ERROR', `${where}: docker volume rm ${name}: ${describeExit(r)}`);
  }
  live.delete(name);
}

/** Volumes of this project (all runs), or of one run. Throws TARGET_UNAVAILABLE when no engine answers. */
export async function listProjectVolumes(runId?: string): Promise<ProjectVolume[]> {
  const filter = runId === undefined ? CONTAINER_LABELS.run : `${CONTAINER_LABELS.run}=${runId}`;
  const format = `{{.Name}}\t{{.Label "${CONTAINER_LABELS.run}"}}\t{{.Label "${CONTAINER_LABELS.target}"}}\t{{.Label "${CONTAINER_LABELS.pid}"}}\t{{.Label "${CONTAINER_LABELS.owner}"}}`;
  const out = await docker(['volume', 'ls', '--filter', `label=${filter}`, '--format', format], 'volume cleanup').catch((err: Error) => {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', err.message, { cause: err });
  });
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [name = '', run = '', target = '', pid = '', owner = ''] = l.split('\t');
      return { name, runId: run, target, pid: pid === '' ? NaN : Number(pid), owner };
    });
}

/**
 * Start of a run: remove the volumes of project runs whose process is gone (killed with SIGKILL,
 * machine reset), together with any container still using them. Volumes of live processes (a
 * parallel run, this one) are kept. Resolves with what was removed; throws TARGET_UNAVAILABLE
 * when no engine answers, BACKEND_ERROR when a removal fails (naming the volume).
 */
export async function removeLeftoverVolumes(): Promise<ProjectVolume[]> {
  const dead = (await listProjectVolumes()).filter((v) => ownerDead(v.owner, v.pid));
  for (const v of dead) {
    // Retried (3 attempts, 1 s apart) because a `docker create` the dead process had already
    // issued can still complete and attach a new container to the volume after we looked.
    for (let attempt = 1; ; attempt++) {
      const users = (await docker(['ps', '-aq', '--filter', `volume=${v.name}`], `volume ${v.name}`)).split('\n').filter(Boolean);
      if (users.length) await docker(['rm', '-f', ...users], `volume ${v.name}: its containers`);
      try {
        await removeVolume(v.name, `left-over volume of run ${v.runId} (${v.target})`);
        break;
      } catch (err) {
        if (attempt >= 3 || !/in use/i.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }
  return dead;
}

/** Synchronous removal (exit and signal handlers): containers using the live volumes, then the volumes. Best effort. */
function removeLiveVolumesSync(): void {
  if (live.size === 0) return;
  const names = [...live];
  for (const name of names) {
    const ps = spawnSync(dockerBin(), ['ps', '-aq', '--filter', `volume=${name}`], { encoding: 'utf8', timeout: 15_000 });
    const ids = (ps.stdout ?? '')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    if (ids.length) spawnSync(dockerBin(), ['rm', '-f', ...ids], { timeout: 30_000 });
  }
  const rm = spawnSync(dockerBin(), ['volume', 'rm', '-f', ...names], { encoding: 'utf8', timeout: 30_000 });
  live.clear();
  if (rm.status !== 0 && rm.stderr) process.stderr.write(`[memory-matrix] volume cleanup: ${rm.stderr.trim()}\n`);
}

/**
 * Exit/signal guard for volumes, next to the container guard (container/guard.ts), installed with
 * the first volume. On SIGINT/SIGTERM it only cleans up: the container guard or the CLI decides
 * how the process ends.
 */
function installVolumeGuard(): void {
  if (guarded) return;
  guarded = true;
  process.on('exit', removeLiveVolumesSync);
  process.on('SIGINT', removeLiveVolumesSync);
  process.on('SIGTERM', removeLiveVolumesSync);
}

/** Names of volumes this process created and has not removed yet. */
export function liveVolumeNames(): string[] {
  return [...live];
}
