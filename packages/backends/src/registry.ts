import { MemoryMatrixError, type BackendDriver, type ContainerKind } from '@memory-matrix/spec';
import { loadDriverModule } from './driver-module';

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
const BUILT_IN: ReadonlyArray<BuiltIn> = [
  { name: 'pgvector', pkg: '@memory-matrix/adapter-pgvector', exportName: 'pgvectorDriver' },
  { name: 'redis', pkg: '@memory-matrix/adapter-redis', exportName: 'redisDriver' },
  { name: 'chroma', pkg: '@memory-matrix/adapter-chroma', exportName: 'chromaDriver' },
  { name: 'sqlite', pkg: '@memory-matrix/adapter-sqlite', exportName: 'sqliteDriver' },
  { name: 'lancedb', pkg: '@memory-matrix/adapter-lancedb', exportName: 'lancedbDriver' },
  { name: 'milvus', pkg: '@memory-matrix/adapter-milvus', exportName: 'milvusDriver' },
  { name: 'langchain-redis-history', pkg: '@memory-matrix/adapter-langchain-redis-history', exportName: 'langchainRedisHistoryDriver' },
  { name: 'langchain-chroma', pkg: '@memory-matrix/adapter-langchain-chroma', exportName: 'langchainChromaDriver' },
  { name: 'langchain-pgvector', pkg: '@memory-matrix/adapter-langchain-pgvector', exportName: 'langchainPgvectorDriver' },
];

/**
 * A built-in driver: its backend name, the adapter package that exports it, and the export. The
 * package is loaded when the registry is first used; in an installed copy the adapters other than
 * pgvector and redis are optional peer packages (`npm install @memory-matrix/adapter-sqlite` …), and one that is
 * not installed leaves its backend in `missingDrivers()` (its catalog targets unavailable), never
 * an error. In the repository every adapter is installed.
 */
interface BuiltIn {
  name: string;
  pkg: string;
  exportName: string;
}

/** Built-in backends whose adapter package is not installed: backend name → package. */
const missing = new Map<string, string>();
/** Whether every built-in adapter was loaded or found missing (a load that threw is tried again on the next use). */
let builtInLoaded = false;

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

/**
 * Load the built-in drivers (an adapter package that is not installed is recorded in `missing`)
 * and those `MM_DRIVERS` names (again when it changed). Throws USAGE naming a module that is not
 * found, fails to load, or is not a driver (driver-module.ts), and TARGET_UNAVAILABLE naming an installed adapter package that fails to load (a broken
 * install is an error, not a missing backend).
 */
function ensureLoaded(): void {
  if (!builtInLoaded) {
    for (const b of BUILT_IN) loadBuiltIn(b);
    builtInLoaded = true;
  }
  const env = process.env.MM_DRIVERS ?? '';
  if (env === loadedEnv) return;
  for (const spec of env
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    // Relative to the working directory; TypeScript and @memory-matrix/* as for memory-matrix.yaml adapters (driver-module.ts).
    const { driver: d } = loadDriverModule(spec, process.cwd(), 'MM_DRIVERS');
    add(d);
  }
  loadedEnv = env; // only once every module loaded: a failed load is thrown again by the next caller, never skipped
}

function loadBuiltIn(b: BuiltIn): void {
  try {
    require.resolve(b.pkg);
  } catch {
    missing.set(b.name, b.pkg);
    return;
  }
  let d: unknown;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional adapter packages, loaded on first use
    d = (require(b.pkg) as Record<string, unknown>)[b.exportName];
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `adapter package ${b.pkg} (backend ${b.name}) is installed but does not load: ${(err as Error).message}`, { cause: err });
  }
  if (!d || typeof d !== 'object' || (d as AnyDriver).name !== b.name) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `adapter package ${b.pkg} exports no ${b.exportName} driver named ${b.name}`);
  add(d as AnyDriver);
}

/**
 * Built-in backends whose adapter package is not installed (an installed copy without the optional
 * adapters): backend name → the package that brings it, e.g. `sqlite` → `@memory-matrix/adapter-sqlite`.
 * Empty in the repository.
 */
export function missingDrivers(): ReadonlyMap<string, string> {
  ensureLoaded();
  return missing;
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
