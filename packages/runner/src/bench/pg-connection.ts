import { MemoryMatrixError } from '@memory-matrix/spec';
import type { StartedBackend } from '@memory-matrix/targets';

/**
 * The host endpoint of a backend the bench started in a container: `connection` (mapped port on
 * 127.0.0.1) and `connectionString` are fields of the container provider's started object
 * (packages/targets/src/container/start.ts). Throws TARGET_UNAVAILABLE naming the target when
 * the backend was started by another provider (the reference bulk paths need a server socket).
 */
export function endpointOf(b: StartedBackend, target: string): { host: string; port: number; connectionString?: string } {
  const c = b as StartedBackend & { connection?: { host: string; port: number }; connectionString?: string };
  if (!c.connection) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target}: bench load ratios need a container target (provider ${b.provider} exposes no server endpoint)`);
  return { ...c.connection, ...(c.connectionString ? { connectionString: c.connectionString } : {}) };
}
