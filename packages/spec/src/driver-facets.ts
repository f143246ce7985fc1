import type { MemoryStore } from './adapter';
import type { ConnectOptions, WriteLockHold } from './connect-options';

/*
 * The provider facets of the driver contract (driver.ts `BackendDriver`): what a backend states
 * and speaks for each provider that starts it (`container`, `embedded`, `local`, `url`), and what
 * a started server reports about itself. Types only; the generic machinery that drives them is in
 * packages/targets. Errors as in driver.ts: `MemoryMatrixError` TARGET_UNAVAILABLE,
 * BACKEND_ERROR or INVALID_INPUT, naming the `where` a method is given.
 */

/** What a started server reports about itself (recorded per cell). */
export interface ReportedVersions {
  /** The server's own version string, e.g. `PostgreSQL 17.12 (Debian 17.12-0+deb13u1) on …`. */
  serverVersion: string;
  /** Component versions checked against the catalog's `expect`, e.g. `{ postgres: '17.12' }`. */
  components: Record<string, string>;
}

/** Result of a command run inside a container (`docker exec`). */
export interface ExecResult {
  /** Exit code; null when the command was killed (timeout). */
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** Set when the command was killed at its time limit: the limit as `describeLimit` names it (`120000 ms × host factor 2 = 240000 ms`). */
  killedAfter?: string;
}

/**
 * Where a server started by the generic machinery answers: always the mapped port on loopback
 * (a trust-auth server is never published on other interfaces).
 */
export interface Endpoint {
  host: '127.0.0.1';
  /** Host port (mapped container port, or the local process's port); changes at every restart. */
  port: number;
  /** `backend@version [configuration] (container …)`, leading every message about this server. */
  where: string;
}

/** A local server's endpoint: `containerId` is an opaque per-instance key (`local-<pid>-<n>`), not a container. */
export interface LocalEndpoint extends Endpoint {
  containerId: string;
}

/** A container endpoint: the server's address plus a way to run commands in its container. */
export interface ContainerEndpoint extends Endpoint {
  /** Full container id (an opaque key for per-server state; `local-…` for local fault instances). */
  containerId: string;
  /** `docker exec [-i] <id> <cmd…>` with binary stdout and optional stdin, killed after `timeoutMs` (default 120 000) × the host factor (`killedAfter` then says so). */
  exec(cmd: string[], opts?: { stdin?: Uint8Array; timeoutMs?: number }): Promise<ExecResult>;
}

/**
 * A container kind's facts (catalog `start.kind`): what the generic container lifecycle
 * (packages/targets/src/container) needs to start, probe, stop and fault one server kind. The
 * lifecycle creates the container from the target's image with the run's labels, publishes
 * `port` on 127.0.0.1 only, waits for `readyLog` and then retries `probe` until the start
 * deadline (`start.timeoutMs` or `defaultStartTimeoutMs`, × MM_START_TIMEOUT_SCALE × the host factor), reads
 * `versions`, checks them against `expect`, and opens stores with `connect`.
 */
export interface ContainerKind<AdapterOptions = Record<string, unknown>> {
  /** Catalog `start.kind`, e.g. `postgres`; unique across drivers. */
  readonly kind: string;
  /** Port the server listens on inside the container. */
  readonly port: number;
  /** Data directory inside the container (fault instances mount a volume there); catalog `start.dataDir` overrides. */
  readonly dataDir: string;
  /** Log line the server prints once per start when it accepts clients (counted to tell a restart's line from the last one). */
  readonly readyLog: RegExp;
  /** Signal of `docker stop` (pg: SIGINT = fast shutdown); default SIGTERM. */
  readonly stopSignal?: 'SIGINT' | 'SIGTERM' | 'SIGQUIT';
  /** /dev/shm size in bytes, when the server needs more than Docker's 64 MiB. */
  readonly shmBytes?: number;
  /** Start deadline in ms (before MM_START_TIMEOUT_SCALE and the host factor) when the catalog gives none. */
  readonly defaultStartTimeoutMs: number;
  /**
   * ONE attempt of a real query through `ep` (the readiness probe; the lifecycle retries it until
   * the deadline, because Docker's port proxy accepts and resets connections while the network is
   * wired). Resolves when the server answered; throws anything otherwise. `attemptMs`: the time
   * this attempt may take.
   */
  probe(ep: ContainerEndpoint, attemptMs: number): Promise<void>;
  /** What the ready server reports (version query, `--version` in the container). Throws BACKEND_ERROR / TARGET_UNAVAILABLE. */
  versions(ep: ContainerEndpoint): Promise<ReportedVersions>;
  /**
   * A NEW adapter store on a new client. `opts`: client name and timeouts (fault checks); absent →
   * the adapter's defaults. `adapterOptions`: the target's parsed `adapterOptions`.
   */
  connect(ep: ContainerEndpoint, opts: ConnectOptions | undefined, adapterOptions: AdapterOptions | undefined): Promise<MemoryStore>;
  /** A connection URL for tools outside the adapter (e.g. `postgres://postgres@127.0.0.1:5433/postgres`), when the kind has one. */
  connectionString?(ep: Endpoint): string;
  /** Fault controls (C15, C16, C23); absent = targets of this kind get no `faults` capability. */
  readonly faults?: FaultKindControls;
}

/**
 * What the fault machinery needs from a server kind besides the container lifecycle
 * (kill -9, restart on the same volume, pause are generic). Methods throw BACKEND_ERROR naming `ep.where`.
 */
export interface FaultKindControls {
  /** Extra check after each (re)start of a fault instance (e.g. Redis: its files are on the volume). TARGET_UNAVAILABLE otherwise. */
  verifyInstance?(ep: ContainerEndpoint): Promise<void>;
  /** Apply configuration settings after the first start; says whether they need a restart to take effect. */
  applySettings(ep: ContainerEndpoint, settings: Record<string, string>): Promise<'reloaded' | 'restart'>;
  /** Settings in effect: the given names plus the kind's durability-relevant ones, as the server reports them. */
  effectiveSettings(ep: ContainerEndpoint, names: string[]): Promise<Record<string, string>>;
  /** The settings a configuration's `args` carry (`-c k=v`, `--k v`), to verify after start. */
  settingsInArgs(args: string[]): Record<string, string>;
  /** Terminate the server sessions of clients connected with `clientName`; resolves with how many. */
  dropConnections(ep: ContainerEndpoint, clientName: string): Promise<number>;
  /** Resolves once a write of `clientName` is in flight at the server; BACKEND_ERROR after `timeoutMs`. Calls `onWatching` once the watch is in place (`FaultTarget.awaitWriteInFlight`). */
  awaitWriteInFlight(ep: ContainerEndpoint, clientName: string, timeoutMs: number, onWatching?: () => void): Promise<void>;
  /**
   * Before a server starts on storage another image wrote: the `docker run` arguments of a one-off
   * container of the new image that makes the data directory usable by it (e.g. its server user's
   * uid differs), as an operator moving a volume between images would.
   */
  adoptStorageCmd?(dataDir: string): { user: string; entrypoint: string; args: string[] };
  /** The collection's data in the backend's own dump format. */
  exportCollection?(ep: ContainerEndpoint, collection: string): Promise<Uint8Array>;
  /** Load a dump made by `exportCollection`; never overwrites (COLLECTION_EXISTS). */
  importCollection?(ep: ContainerEndpoint, collection: string, dump: Uint8Array): Promise<void>;
}

/** In-process engines by name (catalog `engine:` of an `embedded` target, e.g. `pglite-0.5`). */
export interface EmbeddedFacet<AdapterOptions = Record<string, unknown>> {
  readonly engines: Readonly<Record<string, EmbeddedEngine<AdapterOptions>>>;
}

/** One in-process engine. The generic embedded provider applies the start deadline, the `expect` check and store bookkeeping. */
export interface EmbeddedEngine<AdapterOptions = Record<string, unknown>> {
  /** e.g. `toy 1.0.0, in this process`. */
  readonly description: string;
  /**
   * Synchronous checks before anything starts: the engine's packages are installed as pinned,
   * this process can host it. Returns package versions to report as components (`{ pglite: '0.5.14' }`).
   * `adapterOptions`: the target's parsed ones (a driver that runs one of several library lines). Throws TARGET_UNAVAILABLE naming `where`.
   */
  preflight(where: string, adapterOptions?: AdapterOptions): Record<string, string>;
  /**
   * Start the engine. `dataDir`: keep the data there (reopened by the same directory); absent =
   * in memory. Throws anything on failure (the provider wraps it as TARGET_UNAVAILABLE).
   */
  open(opts: { where: string; dataDir?: string; adapterOptions?: AdapterOptions }): Promise<EmbeddedInstance>;
  /**
   * The same engine as a PROCESS of its own that owns the store's files (a store the application
   * opens in-process, put in a child process so that it can be killed): the fault instance of an
   * embedded target with `durability:` in the catalog (C15, C22 across processes). Started, killed
   * (SIGKILL), restarted and paused like a local server (packages/targets/src/faults/local-instance.ts);
   * absent = embedded targets of this engine get no `faults` capability.
   */
  readonly faultProcess?: LocalEngine<AdapterOptions> & { readonly faults: LocalFaultControls };
}

/** A started in-process engine. */
export interface EmbeddedInstance {
  /** What the engine reports (the provider adds the preflight's package versions). */
  versions(): Promise<ReportedVersions>;
  /** A NEW store on the same engine instance. */
  connect(opts?: ConnectOptions): Promise<MemoryStore>;
  /** Close the engine (flushing `dataDir`); called once, after every store was closed. */
  close(): Promise<void>;
  /**
   * Serve this in-process engine on a loopback port in its wire protocol (PGlite through
   * pglite-socket), for client drivers; resolves with the URL. Called at most once per instance;
   * `close()` stops the server too. Absent = client targets cannot run over this engine.
   */
  serve?(where: string): Promise<string>;
}

/** Local server processes by engine name (catalog `engine:` of a `local` target). */
export interface LocalFacet<AdapterOptions = Record<string, unknown>> {
  readonly engines: Readonly<Record<string, LocalEngine<AdapterOptions>>>;
}

/**
 * One local engine: a Node script the generic local provider spawns (`node <launcher> …args`),
 * with the exit guard, a temp data dir, a free loopback port and the start deadline. The launcher
 * must end itself (removing its data dir unless told to keep it) when its parent dies.
 */
export interface LocalEngine<AdapterOptions = Record<string, unknown>> {
  readonly description: string;
  /** Start deadline in ms (before MM_START_TIMEOUT_SCALE and the host factor) when the catalog gives none. */
  readonly defaultStartTimeoutMs: number;
  /**
   * Synchronous checks before the start (packages installed as pinned) and the launch facts.
   * Throws TARGET_UNAVAILABLE naming `where`.
   */
  preflight(where: string): LocalLaunch;
  /** ONE readiness attempt through `ep` (the provider retries until the deadline or the process exits). */
  probe(ep: Endpoint, attemptMs: number): Promise<void>;
  /** What the ready server reports; `launch` is the preflight's result. */
  versions(ep: Endpoint, launch: LocalLaunch): Promise<ReportedVersions>;
  /** A NEW store on a new client; `ep.containerId` is the instance's key (as for `faults`). */
  connect(ep: LocalEndpoint, opts: ConnectOptions | undefined, adapterOptions: AdapterOptions | undefined): Promise<MemoryStore>;
  /** A connection URL for client drivers (e.g. `http://127.0.0.1:<port>`); absent = client targets cannot run over this engine. */
  connectionString?(ep: Endpoint): string;
  /** Fault controls of a local instance (C16's older side, C15/C23); absent = none. */
  readonly faults?: LocalFaultControls;
}

/** How to launch one local engine. */
export interface LocalLaunch {
  /** Absolute path of the Node script to run. */
  script: string;
  /**
   * Its arguments for a data dir, host and port; `keep` = fault instance (the caller removes the dir);
   * `settings` = the durability configuration's catalog `settings` (fault instances; `{}` when none).
   */
  args(dataDir: string, host: string, port: number, keep: boolean, settings?: Record<string, string>): string[];
  /** What the preflight learned that `versions` reports, e.g. `{ bindings: '1.0.1' }`. */
  facts: Record<string, string>;
}

/** Fault facts of a local engine (kill = SIGKILL, pause = SIGSTOP are generic). */
export interface LocalFaultControls {
  /** The signal that asks the server to end (its "clean" shutdown), e.g. SIGTERM. */
  readonly shutdownSignal: 'SIGINT' | 'SIGTERM';
  /** Settings in effect to report for an instance on `dataDir` (e.g. the persist path and the engine), read from the ready server at `ep` where it can say. */
  effective(dataDir: string, launch: LocalLaunch, ep: LocalEndpoint): Record<string, string> | Promise<Record<string, string>>;
  dropConnections(ep: LocalEndpoint, clientName: string): Promise<number>;
  /** As `FaultKindControls.awaitWriteInFlight`: `onWatching` once the watch is in place. */
  awaitWriteInFlight(ep: LocalEndpoint, clientName: string, timeoutMs: number, onWatching?: () => void): Promise<void>;
  /** As `FaultTarget.holdWriteLock`, on the server at `ep`; absent when the store has no write lock a client can hold. */
  holdWriteLock?(ep: LocalEndpoint): Promise<WriteLockHold>;
}

/**
 * A server the user names: `backend@url=<url>`. Only objects the run creates are touched, and
 * `stop` removes them (even after Ctrl-C); the password never appears in messages.
 */
export interface UrlFacet<AdapterOptions = Record<string, unknown>> {
  /** URL schemes accepted, e.g. `['postgres:', 'postgresql:']`. */
  readonly protocols: readonly string[];
  /** e.g. `postgres://user@host:port/database` (for the USAGE error on a bad URL). */
  readonly example: string;
  /**
   * Preflight and open. `name`: the report-safe target name. Throws TARGET_UNAVAILABLE naming it
   * when the server cannot be used (before anything is written).
   */
  open(url: string, name: string, adapterOptions: AdapterOptions | undefined): Promise<UrlInstance>;
}

/** A user's server, opened. */
export interface UrlInstance {
  versions: ReportedVersions;
  /** A NEW store, working only in objects of this run. */
  connect(opts?: ConnectOptions): Promise<MemoryStore>;
  /** Remove every object this run created, end its sessions, close; BACKEND_ERROR naming the target when something stays. */
  stop(): Promise<void>;
}
