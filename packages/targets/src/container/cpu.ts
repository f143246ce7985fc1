import { getContainerRuntimeClient } from 'testcontainers';

/**
 * CPU time of the containers this process started, for the run's cost figure (report.json `cpu`).
 * A container's CPU counter (the Engine API's `cpu_stats.cpu_usage.total_usage`, ns, from its
 * cgroup's cpuacct) starts again at 0 each time it starts, so the counter is read right before
 * each stop, kill and removal (`endCpuSegment`) and the segments are summed. A counter the engine
 * cannot give (already gone, an engine without stats) counts as 0 for that segment: the figure is
 * then a lower bound, which `containerCpuMs` says.
 */
const done = new Map<string, number>();
let missed = 0;

/** The container's CPU counter now, ns, or null when the engine cannot say (gone, no stats). Never throws. */
async function cpuNs(id: string): Promise<number | null> {
  try {
    const d = (await getContainerRuntimeClient()).container.dockerode;
    const s = (await d.getContainer(id).stats({ stream: false })) as { cpu_stats?: { cpu_usage?: { total_usage?: number } } };
    const ns = s.cpu_stats?.cpu_usage?.total_usage;
    return typeof ns === 'number' && Number.isFinite(ns) ? ns : null;
  } catch {
    return null;
  }
}

/**
 * Add the CPU time container `id` used since it last started to this process's total; call it
 * right before the container stops (stop, kill, removal). Never throws (a counter it cannot read is
 * counted as missed).
 */
export async function endCpuSegment(id: string): Promise<void> {
  const ns = await cpuNs(id);
  if (ns === null) missed++;
  else done.set(id, (done.get(id) ?? 0) + ns);
}

/** CPU time of every container this process stopped, ms, and how many segments could not be read (then the figure is a lower bound). */
export function containerCpuMs(): { ms: number; unread: number } {
  let ns = 0;
  for (const v of done.values()) ns += v;
  return { ms: ns / 1e6, unread: missed };
}
