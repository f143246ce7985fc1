import { storeProcessEngine, type Capabilities } from '@memory-matrix/spec';
import { ADAPTER } from '../context';
import { lancedbPackageVersions } from '../driver-versions';
import { LANCEDB_CAPABILITIES } from '../lancedb-adapter';
import { storeProcessScript } from './bundle';

/**
 * What a store in the store process offers: the adapter's capabilities without `snapshots` (the
 * wire carries memories and chat history; C26 opens the directory in its own processes instead).
 */
export const PROCESS_STORE_CAPABILITIES: Capabilities = { ...LANCEDB_CAPABILITIES, snapshots: false };

const processEngine = storeProcessEngine({
  adapter: ADAPTER,
  capabilities: PROCESS_STORE_CAPABILITIES,
  description: 'LanceDB 0.37 in a store process that owns the database directory',
  defaultStartTimeoutMs: 30_000,
  script: storeProcessScript,
  facts: lancedbPackageVersions,
  serverVersion: (info) => `${info.server} (store process)`,
});

/**
 * The LanceDB store as a PROCESS the run starts (the `faultProcess` of engine `lancedb-0.37`,
 * driver.ts): the process that owns the database directory (server.ts), started, killed (SIGKILL),
 * restarted and paused by the generic local fault instance (spec `storeProcessEngine`). `effective`
 * reports the directory and the read consistency (LanceDB has no durability settings to read
 * back). LanceDB has no server-side session: connections are cut and writes watched at the
 * client's end of the wire.
 */
export const lancedbProcessEngine = processEngine.engine;

/**
 * A new client of the LanceDB store process at `ep` (spec `StoreProcessEngine.connect`): one TCP
 * connection, served by a LanceDB connection of its own in the process. Throws INVALID_INPUT (bad
 * `clientName`), BACKEND_ERROR (the process does not answer).
 */
export const connectLancedbProcess = processEngine.connect;
