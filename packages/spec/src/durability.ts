import type { MemoryStore } from './adapter';
import type { ClientTimeouts, ConnectOptions, WriteLockHold } from './connect-options';
import type { ServerAddress } from './driver';
import type { Figure } from './figures';
import { MemoryMatrixError } from './errors';

export type { ClientTimeouts, ConnectOptions, WriteLockHold };

/**
 * Fault control: what a durability/fault check (C15, C16, C23) may do to the target it runs on.
 * A provider that can kill, restart, pause and reconnect to its backend implements `FaultControl`
 * (the container provider does); embedded and url targets do not, and the checks skip with
 * `capability: faults`. Faults never touch the cell's shared backend: each `start` gives a NEW
 * instance of the same target (same image, own labelled storage) that the check owns and stops.
 */

/**
 * A durability configuration users actually choose, from the catalog (`durability:` of a target).
 * - `durable`: the backend documents that an acknowledged write survives a crash (kill -9) in this
 *   configuration; C15 fails when such a configuration loses one, and only reports for the others.
 * - `settings`: server settings applied after the first start and verified (`SHOW` for pg).
 * - `args`: appended to the image's command (images whose command forwards arguments).
 * - `note`: what the backend documents for this configuration (printed with the figures).
 */
export interface DurabilityConfiguration {
  name: string;
  durable: boolean;
  settings?: Record<string, string>;
  args?: string[];
  note?: string;
}

/**
 * One running instance of a target started for faults, on storage (a volume) it owns.
 * Every method throws BACKEND_ERROR naming the target and configuration when the fault cannot be
 * applied (e.g. the engine refuses), TARGET_UNAVAILABLE when the server does not come back.
 */
export interface FaultTarget {
  /** `backend@version`. */
  readonly target: string;
  readonly configuration: DurabilityConfiguration;
  /** Settings in effect as the server reports them after start, e.g. `{ fsync: 'on', synchronous_commit: 'off' }`. */
  readonly effective: Record<string, string>;
  /** A NEW store on every call; after `restart()` it reaches the server at its new address. */
  connect(opts?: ConnectOptions): Promise<MemoryStore>;
  /**
   * The server's current address for a client driver (after `restart()`, the new one); absent
   * when the server's driver has no connection URL. TARGET_UNAVAILABLE while it is not running.
   */
  address?(): Promise<ServerAddress>;
  /** `kill -9` of the server (container: `docker kill -s KILL`); resolves once it is dead. Storage kept. */
  kill(): Promise<void>;
  /** Clean shutdown (the server's own fast shutdown); storage kept. */
  shutdown(): Promise<void>;
  /** Start again on the same storage; resolves when ready (log line and a real query); ms taken. */
  restart(): Promise<{ restartMs: number }>;
  /** Freeze every process of the server (container: `docker pause`, issued again when the engine's cgroup v1 freezer gives up); connections stay open. BACKEND_ERROR when it cannot be frozen. */
  pause(): Promise<void>;
  /** Undo `pause`. Idempotent. */
  unpause(): Promise<void>;
  /** Terminate the server sessions of clients connected with `clientName`; resolves with how many. */
  dropConnections(clientName: string): Promise<number>;
  /**
   * Resolves once a session of `clientName` is inside a write that has changed data but not
   * committed (pg: an active session with a transaction id). Throws BACKEND_ERROR after `timeoutMs`.
   * Where even one round trip lets a short write commit, the watch may end the write itself as it
   * sees it (PostgreSQL terminates that session server-side); the `dropConnections(clientName)`
   * that follows counts it among the sessions it reports.
   * `onWatching` is called once the watch is in place (its admin connection open, Redis's write
   * hold set): a caller starts its write there, so a write shorter than opening that connection
   * cannot finish unseen (measured: a 3,000-row upsert on pgvector@pg18 under load resolved before
   * the watcher had connected, and C23 reported "no write … in flight within 15000 ms").
   */
  awaitWriteInFlight(clientName: string, timeoutMs: number, onWatching?: () => void): Promise<void>;
  /** The collection's data in the backend's own dump format (pg: `pg_dump -Fc` of its table). */
  exportCollection?(collection: string): Promise<Uint8Array>;
  /** Load a dump made by `exportCollection` (of this or an older version); BACKEND_ERROR when unreadable. */
  importCollection?(collection: string, dump: Uint8Array): Promise<void>;
  /**
   * Take the storage's write lock on a NEW connection of this instance's process and keep it until
   * `release()` (SQLite: `BEGIN IMMEDIATE` … `COMMIT`, so another process's writer waits out its
   * `busy_timeout` and gets SQLITE_BUSY). Absent where the store has no write lock one client can
   * hold (LanceDB's optimistic commits). Throws BACKEND_ERROR when the lock cannot be taken.
   */
  holdWriteLock?(): Promise<WriteLockHold>;
  /** Remove the instance and its storage; idempotent. Also unpauses first. */
  stop(): Promise<void>;
}

/** What a provider offers a cell's checks. See the module comment. */
export interface FaultControl {
  /** `backend@version` of the cell. */
  readonly target: string;
  /** The catalog's durability configurations, the first being the target's default. */
  readonly configurations: readonly DurabilityConfiguration[];
  /**
   * A new instance of the target in configuration `name`, on new storage, or on the storage of
   * `opts.storageOf` (a stopped/killed instance of this or another target of this control: used to
   * open data written by an older version). Throws INVALID_INPUT for an unknown name,
   * TARGET_UNAVAILABLE when the server does not start (its last log lines in the message).
   */
  start(name: string, opts?: { storageOf?: FaultTarget }): Promise<FaultTarget>;
  /**
   * True when the target's store lives in files that several processes open at once (SQLite): then
   * `start(name, { storageOf })` may name a RUNNING instance, and starts one more process on the
   * same files (C22 runs its writers that way). Absent/false: a server owns its storage, and
   * `storageOf` must be stopped or killed first.
   */
  readonly sharedStorage?: boolean;
  /** The catalog's `upgradeFrom`: the older target whose data this one must read (C16). */
  readonly upgradeFrom?: { readonly target: string; start(): Promise<FaultTarget> };
  /** Stop every instance started here that is still running, and remove its storage. Idempotent. */
  dispose(): Promise<void>;
}

/** One configuration's C15 figures (counts are of memories unless named batches). */
export interface DurabilityFigures {
  configuration: string;
  durable: boolean;
  /** Memories whose write was acknowledged (upsert resolved) before a kill. */
  acknowledged: number;
  acknowledgedBatches: number;
  /** Acknowledged but absent after restart. */
  lost: number;
  /** Present but never acknowledged, from a batch in flight at the kill (acceptable). */
  phantomInFlight: number;
  /** Present but never sent, or rows the audit cannot attribute (always a failure). */
  phantomUnknown: number;
  /** Ids stored more than once (count − distinct ids, or repeated in a recall). */
  duplicated: number;
  /** Present with a vector, text or metadata different from what was written. */
  changed: number;
  cycles: number;
}

/** A durability row before its first kill cycle: every count 0, for `configuration` (its row name) and whether it promises durability. */
export function emptyDurabilityFigures(configuration: string, durable: boolean): DurabilityFigures {
  return { configuration, durable, acknowledged: 0, acknowledgedBatches: 0, lost: 0, phantomInFlight: 0, phantomUnknown: 0, duplicated: 0, changed: 0, cycles: 0 };
}

const FIELDS: ReadonlyArray<keyof DurabilityFigures> = ['durable', 'acknowledged', 'acknowledgedBatches', 'lost', 'phantomInFlight', 'phantomUnknown', 'duplicated', 'changed', 'cycles'];
const PREFIX = 'durability/';

/** Flatten per-configuration figures into check figures: `durability/<configuration>/<field>`. */
export function durabilityFigures(rows: DurabilityFigures[]): Record<string, Figure> {
  const out: Record<string, Figure> = {};
  for (const r of rows) for (const f of FIELDS) out[`${PREFIX}${r.configuration}/${f}`] = r[f];
  return out;
}

/** The inverse of `durabilityFigures` (report writers read C15's figures with it); [] when none. */
export function readDurabilityFigures(figures: Record<string, Figure>): DurabilityFigures[] {
  const rows = new Map<string, Record<string, Figure>>();
  for (const [k, v] of Object.entries(figures)) {
    if (!k.startsWith(PREFIX)) continue;
    const cut = k.lastIndexOf('/');
    const name = k.slice(PREFIX.length, cut);
    if (!rows.has(name)) rows.set(name, {});
    rows.get(name)![k.slice(cut + 1)] = v;
  }
  return [...rows].map(([configuration, f]) => ({
    configuration,
    durable: f.durable === true,
    acknowledged: Number(f.acknowledged ?? 0),
    acknowledgedBatches: Number(f.acknowledgedBatches ?? 0),
    lost: Number(f.lost ?? 0),
    phantomInFlight: Number(f.phantomInFlight ?? 0),
    phantomUnknown: Number(f.phantomUnknown ?? 0),
    duplicated: Number(f.duplicated ?? 0),
    changed: Number(f.changed ?? 0),
    cycles: Number(f.cycles ?? 0),
  }));
}

/**
 * The cell's fault control, for checks that need it. Throws CAPABILITY_MISSING naming the target
 * when the capabilities say `faults` but the caller passed no `FaultControl` in the cell config.
 */
export function requireFaults(faults: FaultControl | undefined, target: string): FaultControl {
  if (!faults) {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${target}: capability faults is declared but the cell config carries no FaultControl (pass the provider's \`faults\` as CellConfig.faults)`);
  }
  return faults;
}
