import type { ConnectOptions, FaultControl, MemoryStore, ProviderName, ServerAddress } from '@memory-matrix/spec';

/** How a target is provided: in process, in a container, as a local process, or at a user URL (a driver facet each). */
export type ProviderKind = ProviderName;

/** What a started backend reports about itself (recorded per cell). */
export interface BackendInfo {
  /** The server's own version string, as the driver reads it (e.g. `SELECT version()`). */
  serverVersion: string;
  /** Component versions as the driver reports them (checked against the catalog's `expect`). */
  components: Record<string, string>;
  /** (container) the image reference started. */
  image?: string;
  /** (container) `sha256:…` id of that image at start. */
  imageId?: string;
}

/**
 * A running backend target, whatever its provider. Every provider returns this shape.
 * - `connect()`: a NEW client (new adapter store) on every call; the caller closes it (`stop()`
 *   also closes those still open).
 * - `stop()`: stops what the provider started and releases it; idempotent.
 * - `startMs`: wall time of the start, ms (for reports).
 * Errors: providers throw TARGET_UNAVAILABLE (cannot start, version mismatch) naming the target.
 */
export interface StartedBackend {
  /** `backend@version` when started from the catalog. */
  target?: string;
  provider: ProviderKind;
  info: BackendInfo;
  startMs?: number;
  /** A new client; `opts` (client name, timeouts) is applied where the driver's facet takes it. */
  connect(opts?: ConnectOptions): Promise<MemoryStore>;
  /**
   * Where a client driver reaches this server (a connection URL on loopback); TARGET_UNAVAILABLE
   * when the server's driver has none for this provider. Absent on handles that are not servers.
   */
  address?(): Promise<ServerAddress>;
  stop(): Promise<void>;
  /** Fault control (spec durability.ts) when the target has the `faults` capability; `stop()` disposes it. */
  faults?: FaultControl;
}
