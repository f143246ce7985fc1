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
} as const;

/** Labels for a container of `target` started by this process in run `runId`. */
export function containerLabels(runId: string, target: string): Record<string, string> {
  return {
    [CONTAINER_LABELS.run]: runId,
    [CONTAINER_LABELS.target]: target,
    [CONTAINER_LABELS.pid]: String(process.pid),
  };
}

/** `docker ps --filter` arguments selecting the given label conditions (AND). */
export function labelFilterArgs(conditions: string[]): string[] {
  return conditions.flatMap((c) => ['--filter', `label=${c}`]);
}
