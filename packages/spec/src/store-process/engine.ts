import type { Capabilities } from '../capabilities';
import type { Endpoint, LocalEndpoint, LocalEngine, LocalFaultControls } from '../driver-facets';
import type { ConnectOptions, WriteLockHold } from '../durability';
import { MemoryMatrixError } from '../errors';
import type { ServerInfo } from '../types';
import { ProcessStore } from './client';
import { ProcessConnection } from './connection';

/** What an adapter tells `storeProcessEngine` about its store process. */
export interface StoreProcessEngineSpec {
  /** The adapter's name (`MemoryStore.adapter` of the clients). */
  adapter: string;
  /** The clients' capabilities: the adapter's, less what the wire does not carry (e.g. `snapshots`). */
  capabilities: Capabilities;
  /** `LocalEngine.description`. */
  description: string;
  /** Start deadline in ms before MM_START_TIMEOUT_SCALE and the host factor (`LocalEngine.defaultStartTimeoutMs`). */
  defaultStartTimeoutMs: number;
  /** The process's script (absolute path, e.g. a bundle of its server.ts); throws TARGET_UNAVAILABLE naming `where`. */
  script(where: string): string;
  /** The installed packages' versions, checked before the start (`LocalLaunch.facts`); throws TARGET_UNAVAILABLE naming `where`. */
  facts(where: string): Record<string, string>;
  /** The report's server version from what the process's store reports, e.g. `SQLite 3.53.2 + sqlite-vec 0.1.9 (store process)`. */
  serverVersion(info: ServerInfo): string;
  /** True when the process's service has `holdWriteLock` (server.ts): the fault instances then offer `FaultTarget.holdWriteLock`. */
  writeLock?: boolean;
}

/** An adapter's store process as a local engine with fault controls, and how to connect a new client to it. */
export interface StoreProcessEngine {
  engine: LocalEngine & { readonly faults: LocalFaultControls };
  /**
   * A new client of the store process at `ep`: one TCP connection, which the process serves with a
   * store of its own. `opts.timeouts.connectMs` limits the TCP connect (default 5 000 ms), `queryMs`
   * each request (absent: none); `statementMs` has no equivalent on the wire and is not applied. A
   * `clientName` registers the connection for `dropConnections` / `awaitWriteInFlight`. Throws
   * INVALID_INPUT for a bad name, BACKEND_ERROR when the process does not answer.
   */
  connect(ep: LocalEndpoint, opts?: ConnectOptions): Promise<ProcessStore>;
}

/**
 * The `faultProcess` engine of an embedded target whose store runs in a process the run starts:
 * `node <script> <dataDir> <host> <port> keep|nokeep <settings JSON>` (server.ts). The generic local
 * fault instance (packages/targets/src/faults/local-instance.ts) spawns it, kills it with SIGKILL
 * (C15), restarts it on the same directory and pauses it with SIGSTOP; the local provider's exit
 * guard and the process's own parent watch remove it when the run ends. Shutdown is SIGTERM (every
 * store closed). Connections are cut and writes watched at the client's end of the wire, as for
 * Chroma: an embedded engine has no server-side session to terminate; a write is in flight once
 * its request is sent and unanswered. `effective` is what the process's store reads back (op
 * `effective`, server.ts).
 */
export function storeProcessEngine(spec: StoreProcessEngineSpec): StoreProcessEngine {
  /** Connections opened with a `clientName`, per store process (`ep.containerId`), for `dropConnections` / `awaitWriteInFlight`. */
  const clients = new Map<string, Set<ProcessConnection>>();
  const keyOf = (ep: LocalEndpoint, clientName: string): string => `${ep.containerId}\u0000${clientName}`;

  function connectionsOf(ep: LocalEndpoint, clientName: string): ProcessConnection[] {
    const set = clients.get(keyOf(ep, clientName));
    if (!set) return [];
    for (const c of set) if (c.closed) set.delete(c);
    return [...set];
  }

  async function connect(ep: LocalEndpoint, opts?: ConnectOptions): Promise<ProcessStore> {
    if (opts?.clientName !== undefined && !/^[\x20-\x7e]{1,63}$/.test(opts.clientName)) {
      throw new MemoryMatrixError('INVALID_INPUT', `connect: clientName must be 1-63 printable ASCII characters, got ${JSON.stringify(opts.clientName)}`);
    }
    const conn = await ProcessConnection.open(ep.host, ep.port, ep.where, { connectMs: opts?.timeouts?.connectMs, queryMs: opts?.timeouts?.queryMs });
    if (opts?.clientName !== undefined) {
      const k = keyOf(ep, opts.clientName);
      if (!clients.has(k)) clients.set(k, new Set());
      clients.get(k)!.add(conn);
    }
    return new ProcessStore(conn, spec.adapter, spec.capabilities);
  }

  /** ONE readiness attempt: connect, `serverInfo()` (the process opens its store), close. */
  async function probe(ep: Endpoint, attemptMs: number): Promise<void> {
    const t = Math.max(200, Math.min(5_000, attemptMs));
    const s = await connect({ ...ep, containerId: 'probe' }, { timeouts: { connectMs: t, queryMs: t } });
    try {
      await s.serverInfo();
    } finally {
      await s.close();
    }
  }

  const engine: StoreProcessEngine['engine'] = {
    description: spec.description,
    defaultStartTimeoutMs: spec.defaultStartTimeoutMs,
    preflight(where) {
      const facts = spec.facts(where);
      return {
        script: spec.script(where),
        args: (dataDir, host, port, keep, settings) => [dataDir, host, String(port), keep ? 'keep' : 'nokeep', JSON.stringify(settings ?? {})],
        facts,
      };
    },
    probe,
    async versions(ep) {
      const s = await connect({ ...ep, containerId: 'versions' });
      try {
        const info = await s.serverInfo();
        return { serverVersion: spec.serverVersion(info), components: info.components };
      } finally {
        await s.close();
      }
    },
    connect: (ep, opts) => connect(ep, opts),
    faults: {
      shutdownSignal: 'SIGTERM',
      async effective(_dataDir, _launch, ep) {
        const s = await connect(ep, { timeouts: { connectMs: 5_000, queryMs: 10_000 } });
        try {
          return await s.effective();
        } finally {
          await s.close();
        }
      },
      async dropConnections(ep, clientName) {
        return connectionsOf(ep, clientName).reduce((n, c) => n + c.cut(`connection of client ${clientName} cut by memory-matrix (fault injection)`), 0);
      },
      async awaitWriteInFlight(ep, clientName, timeoutMs, onWatching) {
        const deadline = Date.now() + timeoutMs;
        onWatching?.(); // client-side state: watched from the first poll
        // Not readiness: a 1 ms watch of client-side state for a window as long as one request.
        for (;;) {
          if (connectionsOf(ep, clientName).some((c) => c.writeInFlight())) return;
          if (Date.now() >= deadline) break;
          await new Promise((r) => setTimeout(r, 1));
        }
        throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: no write of client ${clientName} in flight within ${timeoutMs} ms (no data-changing request sent and unanswered)`);
      },
      ...(spec.writeLock ? { holdWriteLock: (ep: LocalEndpoint) => holdWriteLock(ep) } : {}),
    },
  };

  /** `FaultTarget.holdWriteLock` on the process at `ep`: a connection of its own takes the lock (op `lock.hold`) and keeps it until `release()`. */
  async function holdWriteLock(ep: LocalEndpoint): Promise<WriteLockHold> {
    const conn = await ProcessConnection.open(ep.host, ep.port, ep.where, { connectMs: 5_000, queryMs: 30_000 });
    try {
      const { waitLimitMs } = await conn.call<{ waitLimitMs: number | null }>('lock.hold');
      let released: Promise<void> | undefined;
      return {
        waitLimitMs,
        release: () =>
          (released ??= conn
            .call<null>('lock.release')
            .finally(() => conn.close())
            .then(() => undefined)),
      };
    } catch (err) {
      await conn.close();
      throw err;
    }
  }
  return { engine, connect };
}
