import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
/**
 * Labels every container this project starts carries. Cleanup finds containers by them:
 * all of the project (`memory-matrix.run` present), one run (`memory-matrix.run=<runId>`), or
 * the ones one process started (`… AND memory-matrix.pid=<pid>`, used by the exit guard so a
 * finishing jest worker never removes a sibling worker's containers).
 */
export const CONTAINER_LABELS = {
  run: 'memory-matrix.run',
  target: 'memory-matrix.target',
  pid: 'memory-matrix.pid',
  owner: 'memory-matrix.owner',
} as const;

/**
 * Where the starting process lives: `<hostname>:<pid namespace>` (e.g. `ci-7:pid:[4026531836]`).
 * A pid means something only in its own namespace on its own host: cleanup judges a container's
 * owner dead only when this matches and the pid is gone, so runs in another container, another
 * PID namespace or on another machine sharing the engine keep their containers.
 */
export const OWNER: string = (() => {
  let ns = '';
  try {
    ns = readlinkSync('/proc/self/ns/pid');
  } catch {
    ns = 'unknown-ns';
  }
  return `${hostname()}:${ns}`;
})();

/** Labels for a container of `target` started by this process in run `runId`. */
export function containerLabels(runId: string, target: string): Record<string, string> {
  return {
    [CONTAINER_LABELS.run]: runId,
    [CONTAINER_LABELS.target]: target,
    [CONTAINER_LABELS.pid]: String(process.pid),
    [CONTAINER_LABELS.owner]: OWNER,
  };
}

/** `docker ps --filter` arguments selecting the given label conditions (AND). */
export function labelFilterArgs(conditions: string[]): string[] {
  return conditions.flatMap((c) => ['--filter', `label=${c}`]);
}
