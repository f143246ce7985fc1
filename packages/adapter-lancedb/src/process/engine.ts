import { MemoryMatrixError, type ConnectOptions, type Endpoint, type LocalEndpoint, type LocalEngine, type LocalFaultControls } from '@memory-matrix/spec';
import { lancedbPackageVersions } from '../driver-versions';
import { storeProcessScript } from './bundle';
import { ProcessStore } from './client';
import { ProcessConnection } from './connection';

/** Connections opened with a `clientName`, per store process (`ep.containerId`), for `dropConnections` / `awaitWriteInFlight`. */
const clients = new Map<string, Set<ProcessConnection>>();
const keyOf = (ep: LocalEndpoint, clientName: string): string => `${ep.containerId}\u0000${clientName}`;

function connectionsOf(ep: LocalEndpoint, clientName: string): ProcessConnection[] {
  const set = clients.get(keyOf(ep, clientName));
  if (!set) return [];
  for (const c of set) if (c.closed) set.delete(c);
  return [...set];
}

/**
 * A new client of the store process at `ep`: one TCP connection, which the process serves with a
 * LanceDB connection of its own. `opts.timeouts.connectMs` limits the TCP connect (default
 * 5 000 ms), `queryMs` each request (absent: none); `statementMs` has no LanceDB equivalent and is
 * not applied. A `clientName` registers the connection for `dropConnections`/`awaitWriteInFlight`.
 * Throws INVALID_INPUT for a bad name, BACKEND_ERROR when the process does not answer.
 */
export async function connectLancedbProcess(ep: LocalEndpoint, opts?: ConnectOptions): Promise<ProcessStore> {
  if (opts?.clientName !== undefined && !/^[\x20-\x7e]{1,63}$/.test(opts.clientName)) {
    throw new MemoryMatrixError('INVALID_INPUT', `connect: clientName must be 1-63 printable ASCII characters, got ${JSON.stringify(opts.clientName)}`);
  }
  const conn = await ProcessConnection.open(ep.host, ep.port, ep.where, { connectMs: opts?.timeouts?.connectMs, queryMs: opts?.timeouts?.queryMs });
  if (opts?.clientName !== undefined) {
    const k = keyOf(ep, opts.clientName);
    if (!clients.has(k)) clients.set(k, new Set());
    clients.get(k)!.add(conn);
  }
  return new ProcessStore(conn);
}

/** ONE readiness attempt: connect, `serverInfo()` (opens the LanceDB connection), close. */
async function probe(ep: Endpoint, attemptMs: number): Promise<void> {
  const t = Math.max(200, Math.min(5_000, attemptMs));
  const s = await connectLancedbProcess({ ...ep, containerId: 'probe' }, { timeouts: { connectMs: t, queryMs: t } });
  try {
    await s.serverInfo();
  } finally {
    await s.close();
  }
}

/**
 * The LanceDB store as a PROCESS the run starts (the `faultProcess` of engine `lancedb-0.37`,
 * driver.ts): `node <server.ts bundled, bundle.ts> <dataDir> <host> <port> keep|nokeep <settings>`,
 * the process that owns the database directory (server.ts), after the SQLite adapter's store
 * process (packages/adapter-sqlite/src/process/). The generic local fault instance
 * (packages/backends/src/faults/local-instance.ts) kills it with SIGKILL, restarts it on the same
 * directory and pauses it with SIGSTOP. Shutdown is SIGTERM. Connections are cut and writes watched
 * at the client's end of the wire: LanceDB has no server-side session; a write is in flight once
 * its request is sent and unanswered.
 */
export const lancedbProcessEngine: LocalEngine & { readonly faults: LocalFaultControls } = {
  description: 'LanceDB 0.37 in a store process that owns the database directory',
  defaultStartTimeoutMs: 30_000,
  preflight(where) {
    const versions = lancedbPackageVersions(where);
    return {
      script: storeProcessScript(where),
      args: (dataDir, host, port, keep, settings) => [dataDir, host, String(port), keep ? 'keep' : 'nokeep', JSON.stringify(settings ?? {})],
      facts: versions,
    };
  },
  probe,
  async versions(ep) {
    const s = await connectLancedbProcess({ ...ep, containerId: 'versions' });
    try {
      const info = await s.serverInfo();
      return { serverVersion: `${info.server} (store process)`, components: info.components };
    } finally {
      await s.close();
    }
  },
  connect: (ep, opts) => connectLancedbProcess(ep, opts),
  faults: {
    shutdownSignal: 'SIGTERM',
    /** The database directory and read consistency of the process (LanceDB has no durability settings to read back). */
    async effective(_dataDir, _launch, ep) {
      const s = await connectLancedbProcess(ep, { timeouts: { connectMs: 5_000, queryMs: 10_000 } });
      try {
        return await s.settings();
      } finally {
        await s.close();
      }
    },
    async dropConnections(ep, clientName) {
      return connectionsOf(ep, clientName).reduce((n, c) => n + c.cut(`connection of client ${clientName} cut by memory-matrix (fault injection)`), 0);
    },
    async awaitWriteInFlight(ep, clientName, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      // Not readiness: a 1 ms watch of client-side state for a window as long as one request.
      for (;;) {
        if (connectionsOf(ep, clientName).some((c) => c.writeInFlight())) return;
        if (Date.now() >= deadline) break;
        await new Promise((r) => setTimeout(r, 1));
      }
      throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: no write of client ${clientName} in flight within ${timeoutMs} ms (no data-changing request sent and unanswered)`);
    },
  },
};
