import type { PoolConfig } from 'pg';
import { MemoryMatrixError, type ConnectOptions } from '@memory-matrix/spec';

/**
 * `ConnectOptions` → `pg` pool settings, for every pgvector connect path that takes options
 * (container targets' `connect(opts)`, fault instances):
 * - `clientName` → `application_name` (visible in `pg_stat_activity`; `dropConnections` selects by it);
 * - `timeouts.connectMs` → `connectionTimeoutMillis` (TCP + startup handshake);
 * - `timeouts.queryMs` → `query_timeout`: the client stops waiting for an answer (the only limit
 *   that works against a frozen server, e.g. `docker pause`). pg then rejects with
 *   "Query read timeout"; inside a transaction the ROLLBACK waits up to the same limit and the
 *   connection is destroyed, so a call can take up to 2 × queryMs to reject;
 * - `timeouts.statementMs` → `statement_timeout`: the server cancels a longer statement (SQLSTATE 57014).
 * The adapter wraps every such error as BACKEND_ERROR naming the operation and table.
 * Throws INVALID_INPUT for a timeout that is not a positive integer of milliseconds.
 */
export function pgPoolOptions(opts: ConnectOptions = {}): PoolConfig {
  const out: PoolConfig = {};
  if (opts.clientName !== undefined) {
    if (!/^[\x20-\x7e]{1,63}$/.test(opts.clientName))
      throw new MemoryMatrixError('INVALID_INPUT', `connect: clientName must be 1-63 printable ASCII characters, got ${JSON.stringify(opts.clientName)}`);
    out.application_name = opts.clientName;
  }
  const t = opts.timeouts ?? {};
  for (const [field, value] of Object.entries(t)) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new MemoryMatrixError('INVALID_INPUT', `connect: timeouts.${field} must be a positive integer of milliseconds, got ${String(value)}`);
    }
  }
  if (t.connectMs !== undefined) out.connectionTimeoutMillis = t.connectMs;
  if (t.queryMs !== undefined) out.query_timeout = t.queryMs;
  if (t.statementMs !== undefined) out.statement_timeout = t.statementMs;
  return out;
}
