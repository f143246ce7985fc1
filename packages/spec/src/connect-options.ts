// How a client connects to a started target (`ConnectOptions`, what providers' and fault
// instances' `connect` take) and the write lock a fault instance can hold (`WriteLockHold`).

/** Client-side limits of one connection, all in milliseconds; absent = no limit. */
export interface ClientTimeouts {
  /** Opening a connection (TCP + startup) must finish within this. */
  connectMs?: number;
  /** The client gives up waiting for one statement's answer (works when the server is frozen). */
  queryMs?: number;
  /** The server cancels a statement running longer than this (does nothing while the server is frozen). */
  statementMs?: number;
}

/** Options of `FaultTarget.connect` (and of container providers' `connect`). */
export interface ConnectOptions {
  /** Name the server sees for this client's sessions (pg `application_name`); `dropConnections` selects by it. */
  clientName?: string;
  timeouts?: ClientTimeouts;
}

/** A write lock held by `FaultTarget.holdWriteLock`. */
export interface WriteLockHold {
  /**
   * How long, ms, a writer of this storage waits for the lock before its write fails (SQLite: the
   * `busy_timeout` the holding connection reports, 5 000 by default); null when writers wait as
   * long as it takes.
   */
  readonly waitLimitMs: number | null;
  /** Let the lock go (commit the empty transaction) and close its connection; idempotent. */
  release(): Promise<void>;
}
