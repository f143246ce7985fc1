import type { ConnectOptions, MemoryStore } from '@memory-matrix/spec';
import { chromaFaultKind } from './chroma-kind';
import { postgresFaultKind } from './postgres-kind';
import { redisFaultKind } from './redis-kind';

/** Where a fault instance's server answers: the mapped port on loopback, and its container. */
export interface FaultEndpoint {
  host: '127.0.0.1';
  /** Mapped host port (changes at every `docker start`). */
  port: number;
  /** Full container id (for `docker exec`). */
  containerId: string;
  /** `backend@version [configuration]`, for messages. */
  where: string;
}

/**
 * What the fault machinery needs to know about one server kind (catalog `start.kind`). The
 * container side (create, kill, restart, pause, volumes, readiness by log line) is generic
 * (instance.ts); everything that speaks the server's protocol is here. Redis and Chroma plug in by
 * adding an implementation to `FAULT_KINDS`. Methods throw BACKEND_ERROR naming `ep.where`.
 */
export interface FaultKind {
  /** Port the server listens on inside the container. */
  port: number;
  /** Data directory inside the container (mounted from the instance's volume); catalog `start.dataDir` overrides. */
  dataDir: string;
  /** Printed once per start when the server accepts clients (counted to tell a restart's line from the last one). */
  readyLog: RegExp;
  /** Signal of `docker stop` for a clean shutdown (pg: SIGINT = fast shutdown). */
  stopSignal: string;
  /** /dev/shm size in bytes, when the server needs more than Docker's 64 MiB. */
  shmBytes?: number;
  /** A real query succeeds before `deadline` (epoch ms), retried; TARGET_UNAVAILABLE otherwise. */
  waitQuery(ep: FaultEndpoint, deadline: number): Promise<void>;
  /** Apply configuration settings after the first start; says whether they need a restart to take effect. */
  applySettings(ep: FaultEndpoint, settings: Record<string, string>): Promise<'reloaded' | 'restart'>;
  /** Settings in effect: the given names plus the kind's durability-relevant ones, as the server reports them. */
  effectiveSettings(ep: FaultEndpoint, names: string[]): Promise<Record<string, string>>;
  /** `-c k=v`-style arguments of a configuration, as settings to verify (kinds whose args carry settings). */
  settingsInArgs(args: string[]): Record<string, string>;
  /** A new adapter store on a new client. */
  connect(ep: FaultEndpoint, opts?: ConnectOptions): Promise<MemoryStore>;
  dropConnections(ep: FaultEndpoint, clientName: string): Promise<number>;
  awaitWriteInFlight(ep: FaultEndpoint, clientName: string, timeoutMs: number): Promise<void>;
  /**
   * Before a server starts on storage another image wrote (`storageOf`): the `docker run` arguments
   * of a one-off container of the new image that makes the data directory usable by it (e.g. its
   * server user's uid differs), as an operator moving a volume between images would.
   */
  adoptStorageCmd?(dataDir: string): { user: string; entrypoint: string; args: string[] };
  exportCollection?(ep: FaultEndpoint, collection: string): Promise<Uint8Array>;
  importCollection?(ep: FaultEndpoint, collection: string, dump: Uint8Array): Promise<void>;
}

/** Fault implementations by container kind. */
export const FAULT_KINDS: Partial<Record<string, FaultKind>> = {
  postgres: postgresFaultKind,
  chroma: chromaFaultKind,
  redis: redisFaultKind,
};

/** Whether container kind `kind` has a fault implementation (catalog capability `faults`). */
export function faultKindSupported(kind: string): boolean {
  return FAULT_KINDS[kind] !== undefined;
}
