import { pgvectorDriver, sandboxProblem } from '@memory-matrix/adapter-pgvector';
import type { ServerAddress } from '@memory-matrix/spec';

/**
 * A real PostgreSQL 18.6 + pgvector 0.8.7 server for mem0's pgvector store: PGlite 0.5 (the
 * pgvector driver's `pglite-0.5` engine, as `pgvector@pglite-pg18` runs it) served on a loopback
 * port by pglite-socket, so mem0's PGVector talks the wire protocol to it through node-postgres as
 * to a container. `close()` stops the socket server and the engine.
 */
export async function servedPGlite(where = 'mem0 pgvector test'): Promise<{ address: ServerAddress; close(): Promise<void> }> {
  const engine = pgvectorDriver.embedded!.engines['pglite-0.5']!;
  const instance = await engine.open({ where });
  await instance.versions(); // creates the vector extension, as the provider's start does
  const url = await instance.serve!(where);
  return { address: { where, backend: 'pgvector', url }, close: () => instance.close() };
}

/**
 * Why PGlite cannot start here (jest without --experimental-vm-modules), or null. Under CI=true
 * that is an error (a test that needs a backend fails when it is missing); elsewhere the suite
 * skips, saying why.
 */
export function serverProblem(suite: string): string | null {
  const problem = sandboxProblem();
  if (!problem) return null;
  if (process.env.CI === 'true') throw new Error(`${suite} cannot run under CI: ${problem}`);
  console.warn(`SKIPPED ${suite}: ${problem}`);
  return problem;
}
