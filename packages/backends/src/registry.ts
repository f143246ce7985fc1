import { MemoryMatrixError, type BackendDriver, type ContainerKind } from '@memory-matrix/spec';
import { loadDriverModule } from './driver-module';
import { chromaDriver } from '@memory-matrix/adapter-chroma';
import { langchainChromaDriver } from '@memory-matrix/adapter-langchain-chroma';
import { langchainRedisHistoryDriver } from '@memory-matrix/adapter-langchain-redis-history';
import { langchainPgvectorDriver } from '@memory-matrix/adapter-langchain-pgvector';
import { milvusDriver } from '@memory-matrix/adapter-milvus';
import { lancedbDriver } from '@memory-matrix/adapter-lancedb';
import { pgvectorDriver } from '@memory-matrix/adapter-pgvector';
import { redisDriver } from '@memory-matrix/adapter-redis';
import { sqliteDriver } from '@memory-matrix/adapter-sqlite';

/**
 * THE registry of backend drivers: the one place outside the adapter packages that names
 * backends. The catalog (catalog.ts) takes its backend names and container kinds from it, and
 * the providers find a target's driver here. Adding a backend = one adapter package exporting a
 * `BackendDriver` + one line below + its targets in matrix/targets.yaml (docs/adding-a-backend.md).
 *
 * A driver kept outside the repository (a user's own module, a test fixture) is added without
 * editing this file: memory-matrix.yaml `adapters:` (user-config.ts), or `MM_DRIVERS` naming
 * modules (comma-separated paths, relative to the current directory, or package names) whose
 * `driver` export (or default export) is a `BackendDriver`, loaded on first use (driver-module.ts).
 * `registerDriver()` adds one in process.
 */
const BUILT_IN: ReadonlyArray<BackendDriver<unknown>> = [pgvectorDriver, redisDriver, chromaDriver, sqliteDriver, lancedbDriver, milvusDriver, langchainRedisHistoryDriver, langchainChromaDriver, langchainPgvectorDriver];

// Drivers are generic over their parsed adapterOptions; the registry keeps them as BackendDriver<unknown>.
type AnyDriver = BackendDriver<unknown>;

const drivers = new Map<string, AnyDriver>();
let loadedEnv: string | undefined;

/**
 * Add a driver. Throws INVALID_INPUT when its name or its container kind is already taken by
 * another driver (the same driver object again is a no-op).
 */
export function registerDriver(driver: BackendDriver<unknown>): void {
  const d = driver as AnyDriver;
  ensureLoaded();
  add(d);
}

function add(d: AnyDriver): void {
  const had = drivers.get(d.name);
  if (had === d) return;
  if (had) throw new MemoryMatrixError('INVALID_INPUT', `driver ${d.name} is registered twice`);
  const kind = d.container?.kind;
  if (kind !== undefined) {
    const other = [...drivers.values()].find((x) => x.container?.kind === kind);
    if (other) throw new MemoryMatrixError('INVALID_INPUT', `driver ${d.name}: container kind ${kind} is already the kind of driver ${other.name}`);
  }
  drivers.set(d.name, d);
}

/** Load the built-in drivers and those `MM_DRIVERS` names (again when it changed). Throws USAGE naming a module that is not found, fails to load, or is not a driver (driver-module.ts). */
function ensureLoaded(): void {
  if (drivers.size === 0) for (const d of BUILT_IN) add(d);
  const env = process.env.MM_DRIVERS ?? '';
  if (env === loadedEnv) return;
  loadedEnv = env;
  for (const spec of env
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    // Relative to the working directory; TypeScript and @memory-matrix/* as for memory-matrix.yaml adapters (driver-module.ts).
    const { driver: d } = loadDriverModule(spec, process.cwd(), 'MM_DRIVERS');
    add(d);
  }
}

/** Every registered driver, built-in first. */
export function listDrivers(): AnyDriver[] {
  ensureLoaded();
  return [...drivers.values()];
}

/** The names of the registered drivers (catalog `backend:` values). */
export function driverNames(): string[] {
  return listDrivers().map((d) => d.name);
}

/** The driver named `name`, or undefined. */
export function findDriver(name: string): AnyDriver | undefined {
  ensureLoaded();
  return drivers.get(name);
}

/** The driver named `name`; UNKNOWN_TARGET naming the known drivers otherwise. */
export function driverOf(name: string): AnyDriver {
  const d = findDriver(name);
  if (!d) throw new MemoryMatrixError('UNKNOWN_TARGET', `no backend driver "${name}" (registered: ${driverNames().join(', ')})`);
  return d;
}

/** The container kinds the drivers offer (catalog `start.kind` values), e.g. `postgres`. */
export function containerKindNames(): string[] {
  return listDrivers().flatMap((d) => (d.container ? [d.container.kind] : []));
}

/** The container kind named `kind` and its driver, or undefined. */
export function findContainerKind(kind: string): { driver: AnyDriver; kind: ContainerKind<unknown> } | undefined {
  const driver = listDrivers().find((d) => d.container?.kind === kind);
  return driver ? { driver, kind: driver.container! } : undefined;
}
