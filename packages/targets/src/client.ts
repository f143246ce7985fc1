import { MemoryMatrixError, type ClientFacet, type ConnectOptions, type FaultControl, type FaultTarget, type MemoryStore } from '@memory-matrix/spec';
import type { ResolvedTarget } from './catalog';
import { checkExpected } from './embedded/versions';
import { driverOf } from './registry';
import type { StartedBackend } from './types';

/**
 * Start a CLIENT target (catalog `server:`; a driver with a `client` facet, such as LangChain.js
 * over pgvector, or a user's own memory module): the server target is started by `startServer`
 * exactly as on its own — same provider, image, durability configurations and fault instances —
 * and every store the cell opens, its own and those of fault instances (C15, C23 kill or pause the
 * server under the client; C16 opens the older server), is a store of the client, connected to the
 * server's current address. The server's own adapter is never used for the checks.
 *
 * `info.components` are the server's plus the client's package versions (its `preflight`), and
 * the client's versions are checked against the client target's `expect`.
 * Throws TARGET_UNAVAILABLE naming the target: the client's packages are not installed as pinned,
 * the server does not start, or the server's driver gives no address a client can use (the server
 * is stopped again).
 */
export async function startClientTarget(target: ResolvedTarget, startServer: (server: ResolvedTarget) => Promise<StartedBackend>): Promise<StartedBackend> {
  const server = target.serverTarget;
  if (!server) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: a client target without a server target`);
  const facet = clientFacetOf(target);
  const where = `${target.name} (${facet.description})`;
  const components = facet.preflight(where, target.driverOptions);
  checkExpected(components, target.expect, where);
  const t0 = performance.now();
  const started = await startServer(server);
  try {
    if (!started.address) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: the ${server.provider} provider of ${server.name} gives no address for a client`);
    await started.address(); // fail now, not at the first check, when the server has no URL
  } catch (err) {
    await started.stop().catch(() => undefined); // the address error is the one that matters
    throw err;
  }
  const stores = new Tracked();
  const connect = async (opts?: ConnectOptions) => stores.add(await facet.connect(await started.address!(), opts, target.driverOptions));
  let stopping: Promise<void> | undefined;
  return {
    target: target.name,
    provider: started.provider,
    info: { ...started.info, components: { ...started.info.components, ...components } },
    startMs: started.startMs ?? performance.now() - t0,
    connect,
    address: () => started.address!(),
    ...(started.faults ? { faults: clientFaults(started.faults, target, facet) } : {}),
    stop() {
      stopping ??= (async () => {
        await stores.closeAll();
        await started.stop();
      })();
      return stopping;
    },
  };
}

/** The client facet of a client target's driver; TARGET_UNAVAILABLE when the driver has none (the catalog refuses that first). */
function clientFacetOf(target: ResolvedTarget): ClientFacet<unknown> {
  const facet = driverOf(target.backend).client;
  if (!facet) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: driver ${target.backend} is not a client driver (no client facet)`);
  return facet;
}

/** Stores opened through a client, closed with their owner (close() of a store is idempotent by contract). */
class Tracked {
  private readonly open = new Set<MemoryStore>();
  add(store: MemoryStore): MemoryStore {
    this.open.add(store);
    const close = store.close.bind(store);
    store.close = async () => {
      this.open.delete(store);
      await close();
    };
    return store;
  }
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.open].map((s) => s.close()));
  }
}

/**
 * The server's fault control with every instance's stores opened through the client. Instances
 * passed back in (`storageOf`) are unwrapped to the server's own.
 */
function clientFaults(inner: FaultControl, target: ResolvedTarget, facet: ClientFacet<unknown>): FaultControl {
  const innerOf = new WeakMap<FaultTarget, FaultTarget>();
  const wrap = (ft: FaultTarget): FaultTarget => {
    const w = clientInstance(ft, target, facet);
    innerOf.set(w, ft);
    return w;
  };
  return {
    target: target.name,
    configurations: inner.configurations,
    ...(inner.sharedStorage !== undefined ? { sharedStorage: inner.sharedStorage } : {}),
    async start(name, opts) {
      const storageOf = opts?.storageOf && (innerOf.get(opts.storageOf) ?? opts.storageOf);
      return wrap(await inner.start(name, storageOf ? { storageOf } : undefined));
    },
    ...(inner.upgradeFrom ? { upgradeFrom: { target: inner.upgradeFrom.target, start: async () => wrap(await inner.upgradeFrom!.start()) } } : {}),
    dispose: () => inner.dispose(),
  };
}

/** One fault instance of the server, its stores opened through the client at the instance's current address. */
function clientInstance(ft: FaultTarget, target: ResolvedTarget, facet: ClientFacet<unknown>): FaultTarget {
  const stores = new Tracked();
  const address = ft.address?.bind(ft);
  if (!address) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${target.name}: fault instances of ${ft.target} give no address for a client`);
  return {
    target: ft.target,
    configuration: ft.configuration,
    get effective() {
      return ft.effective;
    },
    address,
    connect: async (opts) => stores.add(await facet.connect(await address(), opts, target.driverOptions)),
    kill: () => ft.kill(),
    shutdown: () => ft.shutdown(),
    restart: () => ft.restart(),
    pause: () => ft.pause(),
    unpause: () => ft.unpause(),
    dropConnections: (clientName) => ft.dropConnections(clientName),
    awaitWriteInFlight: (clientName, timeoutMs, onWatching) => ft.awaitWriteInFlight(clientName, timeoutMs, onWatching),
    ...(ft.exportCollection ? { exportCollection: (c: string) => ft.exportCollection!(c) } : {}),
    ...(ft.importCollection ? { importCollection: (c: string, dump: Uint8Array) => ft.importCollection!(c, dump) } : {}),
    ...(ft.holdWriteLock ? { holdWriteLock: () => ft.holdWriteLock!() } : {}),
    async stop() {
      await stores.closeAll();
      await ft.stop();
    },
  };
}
