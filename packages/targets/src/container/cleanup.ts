import { spawnSync } from 'node:child_process';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { dockerBin } from '../images/docker';
import { describeExit, execStreaming, succeeded } from '../images/exec';
import { CONTAINER_LABELS, OWNER, labelFilterArgs } from './labels';

/** A container of this project, as `docker ps -a` lists it. */
export interface ProjectContainer {
  /** Short container id (12 hex). */
  id: string;
  /** Value of `memory-matrix.run`. */
  runId: string;
  /** Value of `memory-matrix.target`, `backend@version`. */
  target: string;
  /** Docker state: `created`, `running`, `exited`, … */
  state: string;
  /** Container name. */
  name: string;
  /** Value of `memory-matrix.pid`: the process that started it (NaN when missing). */
  pid: number;
  /** Value of `memory-matrix.owner` (`<host>:<pid namespace>`; '' on containers of older versions). */
  owner: string;
}

const FORMAT = `{{.ID}}\t{{.Label "${CONTAINER_LABELS.run}"}}\t{{.Label "${CONTAINER_LABELS.target}"}}\t{{.State}}\t{{.Names}}\t{{.Label "${CONTAINER_LABELS.pid}"}}\t{{.Label "${CONTAINER_LABELS.owner}"}}`;

/** Label conditions for one run, or for the whole project when `runId` is undefined. */
function runConditions(runId?: string): string[] {
  return [runId === undefined ? CONTAINER_LABELS.run : `${CONTAINER_LABELS.run}=${runId}`];
}

/**
 * Containers (running or not) of run `runId`, or of every run of this project when `runId` is
 * undefined. Throws `TARGET_UNAVAILABLE` when no Docker engine answers.
 */
export async function listRunContainers(runId?: string): Promise<ProjectContainer[]> {
  const args = ['ps', '-a', ...labelFilterArgs(runConditions(runId)), '--format', FORMAT];
  const r = await execStreaming(dockerBin(), args, { captureStdout: true, timeoutMs: 30_000 }).catch((err: Error) => {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `docker ps (cleanup of run ${runId ?? '*'}): ${err.message}`, { cause: err });
  });
  if (!succeeded(r)) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `docker ps (cleanup of run ${runId ?? '*'}): ${describeExit(r)}`);
  return r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [id = '', run = '', target = '', state = '', name = '', pid = '', owner = ''] = l.split('\t');
      return { id, runId: run, target, state, name, pid: pid === '' ? NaN : Number(pid), owner };
    });
}

/**
 * True when `pid` names a running process on this machine (signal 0 probe; EPERM also means it
 * exists). With a remote Docker daemon the label's pid belongs to another machine; a false
 * "alive" then only keeps a container, it never removes one that is in use.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process that started a container/volume is gone: its owner label names this host
 * and PID namespace (or is absent: older versions) and its pid is not alive here. An owner in
 * another namespace or host is never judged dead from here.
 */
export function ownerDead(owner: string, pid: number): boolean {
  if (owner !== '' && owner !== OWNER) return false;
  return !processAlive(pid);
}

/**
 * Force-removes (with anonymous volumes) containers of this project and resolves with what was
 * removed.
 * - `runId` given: every container of that run.
 * - `runId` undefined (start of a run: clear what a crashed run left): every container of the
 *   project whose starting process (`memory-matrix.pid`) is no longer alive on this machine;
 *   containers of live processes (a parallel run, a sibling jest worker, this process) are kept
 *   unless `opts.includeLiveOwners` is true.
 * Throws `TARGET_UNAVAILABLE` when no engine answers or `docker rm` fails (message names the
 * containers).
 */
export async function removeRunContainers(runId?: string, opts: { includeLiveOwners?: boolean } = {}): Promise<ProjectContainer[]> {
  let found = await listRunContainers(runId);
  if (runId === undefined && !opts.includeLiveOwners) found = found.filter((c) => ownerDead(c.owner, c.pid));
  if (found.length === 0) return [];
  const r = await execStreaming(dockerBin(), ['rm', '-f', '-v', ...found.map((c) => c.id)], { timeoutMs: 60_000 });
  // A container that vanished between ps and rm ("No such container") is already what we want.
  const realErrors = r.tail.filter((l) => /error/i.test(l) && !/no such container/i.test(l));
  if (!succeeded(r) && realErrors.length > 0) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `docker rm of ${found.map((c) => `${c.target}/${c.id}`).join(', ')} (run ${runId ?? '*'}): ${describeExit(r)}`);
  }
  return found;
}

/**
 * Synchronous removal for exit and signal handlers (where nothing async can run): removes the
 * given container ids plus every container matching one of `conditionSets` (each set is a list
 * of label conditions that must all hold). Best effort by design: it runs while the process is
 * dying and has nobody to report to, so it returns docker's stderr (empty on success) instead of
 * throwing.
 */
export function removeContainersSync(ids: string[], conditionSets: string[][]): string {
  const all = [...ids];
  let err = '';
  for (const conditions of conditionSets) {
    const ps = spawnSync(dockerBin(), ['ps', '-aq', ...labelFilterArgs(conditions)], { encoding: 'utf8', timeout: 15_000 });
    all.push(
      ...(ps.stdout ?? '')
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean),
    );
    err += ps.stderr ?? '';
  }
  // `docker ps -q` gives 12-hex ids, the registry full ids: dedupe by prefix.
  const unique = all.filter((id, i) => !all.some((o, j) => j < i && (o.startsWith(id) || id.startsWith(o))));
  if (unique.length === 0) return err.trim();
  const rm = spawnSync(dockerBin(), ['rm', '-f', '-v', ...unique], { encoding: 'utf8', timeout: 30_000 });
  return (err + (rm.stderr ?? '')).trim();
}
