import { readFileSync } from 'node:fs';
import { CATALOG_FILE } from '@memory-matrix/catalog';
import { MemoryMatrixError, type BackendDriver, type ContainerKind } from '@memory-matrix/spec';
import { fieldLine, findDriverPackages, workspaceRoot, type DriverPackage } from './discovery';
import { checkDriverContract, installOwnPackagesFallback, loadDriverModule } from './driver-module';
import { readYamlMapping } from './yaml-file';

/**
 * The registry of backend drivers. It names no backend: the drivers are found from their packages
 * (discovery.ts: a package.json `memoryMatrix` field naming the driver export, in the workspace's
 * packages/ and in installed `@memory-matrix/*` and `memory-matrix-driver-*` packages), loaded on
 * first use, and listed sorted by driver name. The catalog (catalog.ts) takes its backend names
 * and container kinds from here, and the providers find a target's driver here. Adding a backend =
 * one package with the field + its targets in matrix/targets.yaml (docs/adding-a-backend.md).
 *
 * A driver kept outside the repository (a user's own module, a test fixture) is added without
 * a package: memory-matrix.yaml `adapters:` (user-config.ts), or `MM_DRIVERS` naming
 * modules (comma-separated paths, relative to the current directory, or package names) whose
 * `driver` export (or default export) is a `BackendDriver`, loaded on first use (driver-module.ts).
 * `registerDriver()` adds one in process.
 */

/** Whether every driver package found was loaded (a load that threw is tried again on the next use). */
let packagesLoaded = false;
/** The backends the built-in catalog's targets name (read once, by the first `missingDrivers` outside the workspace). */
let catalogBackends: Set<string> | undefined;

// Drivers are generic over their parsed adapterOptions; the registry keeps them as BackendDriver<unknown>.
type AnyDriver = BackendDriver<unknown>;

const drivers = new Map<string, AnyDriver>();
/** Driver name → the folder of the package that registers it (found packages only). */
const packageDirs = new Map<string, string>();
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
 * Load the drivers of the packages found (discovery.ts) and those `MM_DRIVERS` names (again when
 * it changed). Throws USAGE naming a driver package's package.json and its `memoryMatrix.driver`
 * when the main module exports no such driver or one that breaks the contract, and naming a
 * `MM_DRIVERS` module that is not found, fails to load, or is not a driver (driver-module.ts);
 * TARGET_UNAVAILABLE naming a driver package that fails to load (a broken install is an error,
 * not a missing backend).
 */
function ensureLoaded(): void {
  if (!packagesLoaded) {
    const { found, shadowed } = findDriverPackages();
    const loaded = found.map((p) => ({ d: loadDriverPackage(p), dir: p.dir })).sort((a, b) => (a.d.name < b.d.name ? -1 : a.d.name > b.d.name ? 1 : 0));
    for (const { d, dir } of loaded) {
      add(d);
      packageDirs.set(d.name, dir);
    }
    for (const s of shadowed) process.stderr.write(`memory-matrix: driver package ${s.name} found twice: using ${s.usedDir}, not ${s.dir}\n`);
    packagesLoaded = true;
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

/**
 * The driver of package `p`: its main module's `p.exportName` export, checked against the driver
 * contract (driver-module.ts `checkDriverContract`). Throws TARGET_UNAVAILABLE when the module
 * fails to load, USAGE `<package.json>:<line>: memoryMatrix.driver …` when it exports no such
 * driver or the driver breaks the contract.
 */
export function loadDriverPackage(p: DriverPackage): AnyDriver {
  if (p.source === 'installed') installOwnPackagesFallback(); // a driver package outside the workspace may import @memory-matrix/* it does not install
  const where = `${p.manifest}:${fieldLine(readFileSync(p.manifest, 'utf8'), 'driver')}: memoryMatrix.driver ${JSON.stringify(p.exportName)}`;
  let mod: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- driver packages are found at run time
    mod = require(p.dir) as Record<string, unknown>;
  } catch (err) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `adapter package ${p.name} (${p.dir}) is installed but does not load: ${String((err as Error).message ?? err).split('\n')[0]}`, { cause: err });
  }
  const d = mod?.[p.exportName];
  if (d === undefined || d === null) {
    const names = Object.keys(mod ?? {}).filter((k) => k !== '__esModule');
    throw new MemoryMatrixError('USAGE', `${where}: ${p.name}'s main module ${require.resolve(p.dir)} exports no ${p.exportName} (it exports ${names.length ? names.join(', ') : 'nothing'})`);
  }
  checkDriverContract(d, where);
  return d;
}

/**
 * Backends the built-in catalog (`@memory-matrix/catalog` targets.yaml) names that no driver found
 * or registered has — an installed copy without the optional adapter packages: backend name → the
 * package that brings it by the adapters' naming convention, e.g. `sqlite` →
 * `@memory-matrix/adapter-sqlite`. Always empty in the workspace, where every package is found:
 * there a backend without a driver is the catalog error "unknown backend". Throws USAGE naming the
 * built-in catalog when it cannot be read as YAML.
 */
export function missingDrivers(): ReadonlyMap<string, string> {
  ensureLoaded();
  const out = new Map<string, string>();
  if (workspaceRoot() !== undefined) return out;
  catalogBackends ??= backendsOf(CATALOG_FILE);
  for (const b of catalogBackends) if (!drivers.has(b)) out.set(b, `@memory-matrix/adapter-${b}`);
  return out;
}

/** The `backend:` values of the targets of catalog `file`. */
function backendsOf(file: string): Set<string> {
  const { raw } = readYamlMapping(file, { name: 'target catalog', short: 'catalog', expected: 'a mapping with defaults, targets and profiles' });
  const targets = raw.targets !== null && typeof raw.targets === 'object' ? Object.values(raw.targets as Record<string, unknown>) : [];
  return new Set(targets.flatMap((t) => (t !== null && typeof t === 'object' && typeof (t as { backend?: unknown }).backend === 'string' ? [(t as { backend: string }).backend] : [])));
}

/** Every registered driver: those of the packages found (sorted by name), then MM_DRIVERS and memory-matrix.yaml ones. */
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

/** The folder of the package that registers driver `name` (discovery.ts), or undefined for a driver added otherwise (MM_DRIVERS, memory-matrix.yaml, `registerDriver`). */
export function driverPackageDir(name: string): string | undefined {
  ensureLoaded();
  return packageDirs.get(name);
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
