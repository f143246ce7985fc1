import type { ConnectOptions, FaultControl, MemoryStore } from '@memory-matrix/spec';

/** How a target is provided: in process, in a container, as a local process, or at a user URL. */
export type ProviderKind = 'embedded' | 'container' | 'local' | 'url';

/** What a started backend reports about itself (recorded per cell). */
export interface BackendInfo {
  /** The server's own version string, e.g. `PostgreSQL 18.6 (PGlite 0.5.14) on wasm32-…` (`SELECT version()`). */
  serverVersion: string;
  /** Component versions, e.g. `{ postgres: '18.6', pgvector: '0.8.7', pglite: '0.5.14' }`. */
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
  /** A new client; providers that take `opts` (container pgvector) apply its client name and timeouts, others ignore it. */
  connect(opts?: ConnectOptions): Promise<MemoryStore>;
  stop(): Promise<void>;
  /** Fault control (spec durability.ts) when the target has the `faults` capability; `stop()` disposes it. */
  faults?: FaultControl;
}
