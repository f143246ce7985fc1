import type { MemoryStore } from '../adapter';
import { capabilityOverridesSchema, type Capabilities } from '../capabilities';
import type { BackendDriver } from '../driver';
import { MemoryMatrixError } from '../errors';
import { noneIndexSchema, offeredIndexTypes } from '../index-config';
import { DEFAULT_TOLERANCES, type Tolerances } from '../target-tolerances';
import type { IndexConfig } from '../types';
import type { CatalogTarget } from './catalog-target';

/** What a conformance suite runs a catalog target with, resolved as the catalog resolves it for `pnpm matrix` (packages/targets catalog.ts). */
export interface SuiteTarget {
  name: string;
  /** The driver's capabilities with the entry's `capabilities:` overrides; `faults` / `upgrade` false (no fault control in a jest suite). */
  capabilities: Capabilities;
  /** `DEFAULT_TOLERANCES`, then the catalog's `defaults.tolerances`, then the entry's `tolerances`. */
  tolerances: Tolerances;
  /** The index asked for (`override`), else the entry's `index`, else `defaults.index`, parsed by the driver's schema of its type (defaults applied). */
  index: IndexConfig;
  /** The entry's `adapterOptions` parsed by the driver's schema (defaults applied); undefined when the driver takes none. */
  adapterOptions: unknown;
}

/** A started engine of a suite: a NEW store per `connect()`, `close()` once after the cell closed its stores. */
export interface SuiteEngine {
  connect(): Promise<MemoryStore>;
  close(): Promise<void>;
}

const invalid = (t: CatalogTarget, key: string, message: string) => new MemoryMatrixError('INVALID_INPUT', `conformanceSuite: ${t.file}: targets.${t.name}${key ? `.${key}` : ''}: ${message}`);

/**
 * Resolve catalog target `t` for `driver`. `indexOverride`: an index to build instead of the
 * catalog's (a suite that keeps to the exact path). Throws INVALID_INPUT naming the file and key:
 * the entry's backend is not `driver.name`; a capability override that is no capability; a
 * tolerance that is not a finite number ≥ 0; an index type the driver does not declare, or
 * parameters its schema refuses; `adapterOptions` for a driver that takes none, or that its
 * schema refuses.
 */
export function resolveSuiteTarget(t: CatalogTarget, driver: BackendDriver<unknown>, indexOverride?: IndexConfig): SuiteTarget {
  if (t.entry.backend !== driver.name) throw invalid(t, 'backend', `the target is of backend ${t.entry.backend}, the suite was given driver ${driver.name}`);
  const over = capabilityOverridesSchema.safeParse(t.entry.capabilities ?? {});
  if (!over.success) throw invalid(t, 'capabilities', over.error.issues.map((i) => `${i.path.join('.') || i.code}: ${i.message}`).join('; '));
  const capabilities: Capabilities = { ...driver.capabilities, ...over.data, faults: false, upgrade: false };
  const tolerances = { ...DEFAULT_TOLERANCES, ...t.defaults.tolerances, ...t.entry.tolerances } as Record<string, unknown>;
  for (const [k, v] of Object.entries(tolerances)) if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalid(t, `tolerances.${k}`, `${JSON.stringify(v)} is not a finite number >= 0`);
  return { name: t.name, capabilities, tolerances: tolerances as unknown as Tolerances, index: suiteIndex(t, driver, capabilities, indexOverride), adapterOptions: adapterOptionsOf(t, driver) };
}

/** The index of the suite (see `SuiteTarget.index`); an inherited index of a type the driver lacks is `none` for a target that stores no vectors (as the catalog resolves it). */
function suiteIndex(t: CatalogTarget, driver: BackendDriver<unknown>, caps: Capabilities, override: IndexConfig | undefined): IndexConfig {
  const own = override ?? t.entry.index;
  const written = own ?? t.defaults.index ?? { type: 'none' };
  const offered = offeredIndexTypes(driver.indexes);
  if (!own && !caps.vectors && !offered.includes(written.type)) return { type: 'none' };
  const schema = written.type === 'none' ? noneIndexSchema : driver.indexes && Object.hasOwn(driver.indexes, written.type) ? driver.indexes[written.type] : undefined;
  const key = override ? 'index (the suite\'s "index" option)' : own ? 'index' : "index (the catalog's defaults.index)";
  if (!schema) throw invalid(t, key, `driver ${driver.name} has no index type ${JSON.stringify(written.type)}; it offers index types: ${offered.join(', ')}`);
  const parsed = schema.safeParse(written);
  if (!parsed.success) throw invalid(t, key, parsed.error.issues.map((i) => `${i.path.join('.') || 'index'}: ${i.message}`).join('; '));
  return parsed.data;
}

/** The entry's `adapterOptions` parsed by the driver's schema (see `SuiteTarget.adapterOptions`). */
function adapterOptionsOf(t: CatalogTarget, driver: BackendDriver<unknown>): unknown {
  if (!driver.adapterOptions) {
    if (t.entry.adapterOptions !== undefined) throw invalid(t, 'adapterOptions', `driver ${driver.name} takes no adapterOptions`);
    return undefined;
  }
  const o = driver.adapterOptions.safeParse(t.entry.adapterOptions ?? {});
  if (!o.success) throw invalid(t, 'adapterOptions', o.error.issues.map((i) => `${i.path.join('.') || i.code}: ${i.message}`).join('; '));
  return o.data;
}

/**
 * Start the target's embedded engine (`provider: embedded`, the entry's `engine` of
 * `driver.embedded`) without a data directory (the engine owns a temporary place and removes it
 * at `close()`): its `preflight` first (the packages installed as pinned), then `open`.
 * Throws INVALID_INPUT naming the file and key when the target is not embedded or names an engine
 * the driver lacks (pass `open` to `conformanceSuite` for other providers); TARGET_UNAVAILABLE
 * from the preflight; the engine's own error when it fails to open.
 */
export async function openEmbeddedEngine(t: CatalogTarget, driver: BackendDriver<unknown>, adapterOptions: unknown): Promise<SuiteEngine> {
  if (t.entry.provider !== 'embedded')
    throw invalid(t, 'provider', `${t.entry.provider ?? `server ${t.entry.server ?? '?'}`}: conformanceSuite starts embedded targets itself; for this one pass "open" (a function that starts it)`);
  const engines = driver.embedded?.engines ?? {};
  const engine = t.entry.engine !== undefined && Object.hasOwn(engines, t.entry.engine) ? engines[t.entry.engine]! : undefined;
  if (!engine) throw invalid(t, 'engine', `driver ${driver.name} has no embedded engine ${JSON.stringify(t.entry.engine ?? '')} (known: ${Object.keys(engines).join(', ') || 'none'})`);
  const where = `${t.name} (embedded ${t.entry.engine})`;
  engine.preflight(where, adapterOptions);
  const db = await engine.open({ where, adapterOptions });
  return { connect: () => db.connect(), close: () => db.close() };
}
