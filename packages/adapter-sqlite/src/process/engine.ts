import { storeProcessEngine, type Capabilities } from '@memory-matrix/spec';
import { ADAPTER } from '../context';
import { sqlitePackageVersions } from '../driver-versions';
import { SQLITE_CAPABILITIES } from '../sqlite-adapter';
import { storeProcessScript } from './bundle';

/**
 * What a store in the store process offers: the adapter's capabilities without `snapshots` (the
 * wire carries memories and chat history; C26 opens the file in its own processes instead).
 */
export const PROCESS_STORE_CAPABILITIES: Capabilities = { ...SQLITE_CAPABILITIES, snapshots: false };

const processEngine = storeProcessEngine({
  adapter: ADAPTER,
  capabilities: PROCESS_STORE_CAPABILITIES,
  description: 'SQLite (better-sqlite3) + sqlite-vec 0.1 vec0 in a store process that owns the file',
  defaultStartTimeoutMs: 30_000,
  script: storeProcessScript,
  facts: sqlitePackageVersions,
  serverVersion: (info) => `${info.server} + sqlite-vec ${info.components['sqlite-vec']} (store process)`,
  writeLock: true,
});

/**
 * The SQLite store as a PROCESS the run starts (the `faultProcess` of engine `sqlite-vec-0.1`,
 * driver.ts): the process that owns `<dataDir>/memory.db` (server.ts), started, killed (SIGKILL),
 * restarted and paused by the generic local fault instance (spec `storeProcessEngine`). `effective`
 * reports journal_mode, synchronous and busy_timeout as a new connection of the process reads them
 * (PRAGMA), and the file. SQLite has no server-side session: connections are cut and writes watched
 * at the client's end of the wire.
 */
export const sqliteProcessEngine = processEngine.engine;

/**
 * A new client of the SQLite store process at `ep` (spec `StoreProcessEngine.connect`): one TCP
 * connection, served by a SQLite connection of its own in the process. Throws INVALID_INPUT (bad
 * `clientName`), BACKEND_ERROR (the process does not answer).
 */
export const connectSqliteProcess = processEngine.connect;
