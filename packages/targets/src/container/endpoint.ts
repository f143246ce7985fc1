import type { ContainerEndpoint } from '@memory-matrix/spec';
import { execBinary } from '../faults/docker-ops';

/** A driver's view of a container: the mapped port on loopback and `docker exec` into it. */
export function containerEndpoint(containerId: string, port: number, where: string): ContainerEndpoint {
  return { host: '127.0.0.1', port, containerId, where, exec: (cmd, opts) => execBinary(containerId, cmd, opts) };
}
