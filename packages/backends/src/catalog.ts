import { readFileSync } from 'node:fs';
import path from 'node:path';
import { capabilityOverridesSchema, CHECKS, DEFAULT_TOLERANCES, MemoryMatrixError, offeredProviders, type Capabilities, type IndexConfig, type Tolerances } from '@memory-matrix/spec';
import { checkRef } from './check-ref';
import { localFaultSupported } from './faults/local-instance';
import { knownFailuresSchema } from './known-failures';
import { containerKindNames, driverNames, driverOf, findContainerKind, findDriver, missingDrivers } from './registry';
import { parseUrlTarget, urlTargetName } from './url';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { CATALOG_FILE } from '@memory-matrix/catalog';

/** The default catalog file: the built-in catalog, `targets.yaml` of `@memory-matrix/catalog` (the repository's matrix/ folder). */
export { CATALOG_FILE };

const indexSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('hnsw'), m: z.number().int().min(2), efConstruction: z.number().int().min(4), efSearch: z.number().int().min(1) }),
  z.object({ type: z.literal('ivfflat'), lists: z.number().int().min(1), probes: z.number().int().min(1) }),
]);

const tolerancesSchema = z.object({
  scoreTolerance: z.number().positive(),
  tieEpsilon: z.number().nonnegative(),
  annRecallFloor: z.number().min(0).max(1),
  annRecallFloorPerQuery: z.number().min(0).max(1),
  annShortfallMax: z.number().min(0).max(1),
  faultClientTimeoutMs: z.number().int().positive(),
});

const offlineSchema = z
  .object({
    tag: z.string().min(1),
    suite: z.string().min(1),
    packages: z.array(z.string().min(1)).min(1),
    setup: z.array(z.string()).default([]),
    env: z.record(z.string()).default({}),
    cmd: z.array(z.string()).optional(),
    expose: z.array(z.number().int()).optional(),
    mirror: z.string().optional(),
  })
  .strict();

/** Names are checked against the registry at parse time (a driver from MM_DRIVERS counts too). */
const backendName = z.string().refine(
  (n) => findDriver(n) !== undefined,
  (n) => ({ message: `unknown backend ${JSON.stringify(n)} (registered drivers: ${driverNames().join(', ')})` }),
);
const containerKindName = z.string().refine(
  (k) => findContainerKind(k) !== undefined,
  (k) => ({ message: `unknown container kind ${JSON.stringify(k)} (the drivers offer: ${containerKindNames().join(', ')})` }),
);

const startSchema = z
  .object({
    /** The container kind (a registered driver's `container.kind`); default the target's driver's. */
    kind: containerKindName.optional(),
    timeoutMs: z.number().int().positive().default(60_000),
    /** Where the server keeps its data inside the container (fault instances mount a volume there); default per kind. */
    dataDir: z.string().startsWith('/').optional(),
  })
  .strict();

/** One durability configuration (spec `DurabilityConfiguration`); the name is a figure key part, so no `/` or spaces. */
const durabilitySchema = z
  .object({
    name: z.string().regex(/^[^/\s]+$/, 'no "/" or whitespace'),
    durable: z.boolean(),
    settings: z.record(z.string()).optional(),
    args: z.array(z.string()).optional(),
    note: z.string().optional(),
  })
  .strict();

const targetSchema = z
  .object({
    backend: backendName,
    provider: z.enum(['embedded', 'container', 'local', 'url']),
    engine: z.string().optional(),
    image: z.string().optional(),
    offline: offlineSchema.optional(),
    start: startSchema.optional(),
    expect: z.record(z.string()).default({}),
    index: indexSchema.optional(),
    tolerances: tolerancesSchema.partial().optional(),
    /** Options passed to the adapter for this target's configuration (e.g. Redis `quantization: noquant`); validated by the driver's `adapterOptions` schema. */
    adapterOptions: z.record(z.unknown()).optional(),
    /** Overrides of the driver's declared capabilities for this target (e.g. `vectors: false` on a server without vector support); strict: an unknown key is an error. */
    capabilities: capabilityOverridesSchema.optional(),
    note: z.string().optional(),
    /** (container, or embedded with a fault process) durability configurations for C15/C22/C23 (first = the default); gives the `faults` capability. */
    durability: z.array(durabilitySchema).min(1).optional(),
    /** An older target whose data this one must read (C16, run in this target's cell); gives `upgrade`. */
    upgradeFrom: z.string().optional(),
    /** Known upstream failures of this target (known-failures.ts; README "Known upstream failures"): the only way a failed check does not fail the run. */
    knownFailures: knownFailuresSchema.optional(),
  })
  .strict();

const profileSchema = z
  .object({
    description: z.string().default(''),
    targets: z.array(z.string()).min(1),
    /** Used instead of `targets` when no Docker engine answers. */
    fallbackTargets: z.array(z.string()).optional(),
    /** The profile's check tier: only these checks run (ids or names); the others are reported as skipped naming the profile. */
    checks: z.array(checkRef).min(1).optional(),
    /** The profile's check tier as an exclusion list: every check except these runs (not together with `checks`). */
    excludeChecks: z.array(checkRef).min(1).optional(),
    /** The profile that runs the checks this one leaves out (named in their skip reason: `profile pr-gate: runs in release`). */
    excludedRunIn: z.string().optional(),
    thresholds: z.record(z.number()).optional(),
    /**
     * Gate thresholds of `memory-matrix diff` (baseline vs candidate, per scan path): lowest top-k
     * overlap of one query and mean over the queries (fractions in [0, 1], tie-aware), largest
     * |Δ canonical score| of an id in both (score units), largest rank shift beyond the id's baseline
     * tie group (ranks). Beyond any → FAIL; a change within them → DRIFT.
     */
    diff: z
      .object({
        minOverlap: z.number().min(0).max(1),
        minMeanOverlap: z.number().min(0).max(1),
        maxScoreDelta: z.number().nonnegative(),
        maxRankShift: z.number().int().nonnegative(),
      })
      .strict()
      .optional(),
    /**
     * Release baselines the run judges each cell's index path against (C05, spec
     * checks/c05-baseline.ts): `dir` (relative to the catalog file's folder) holds `<target>.json`, the `record`
     * output of every target of the profile (and its fallbackTargets) for the golden dataset;
     * `meanRecallDrop` / `queryRecallDrop` are the largest falls of mean / one query's recall@k
     * below the baseline's that pass (fractions in [0, 1]).
     */
    baselines: z
      .object({ dir: z.string().min(1), meanRecallDrop: z.number().min(0).max(1), queryRecallDrop: z.number().min(0).max(1) })
      .strict()
      .optional(),
  })
  .strict();

const catalogSchema = z.object({
  defaults: z.object({ index: indexSchema, tolerances: tolerancesSchema.partial().default({}) }),
  targets: z.record(targetSchema),
  profiles: z.record(profileSchema),
});

export type TargetEntry = z.infer<typeof targetSchema>;
type StartEntry = z.infer<typeof startSchema>;
export type OfflineRecipe = z.infer<typeof offlineSchema>;
export type Profile = z.infer<typeof profileSchema>;

/** A catalog target with defaults applied: `name` is `backend@version`. */
export interface ResolvedTarget extends Omit<TargetEntry, 'capabilities' | 'start'> {
  name: string;
  /** Start settings; for a container target `kind` is always set (default: the driver's container kind). */
  start?: StartEntry;
  /** The catalog's `adapterOptions` as the driver's schema parsed them (defaults applied); what providers hand to the driver. `adapterOptions` stays as written (reports, baselines). */
  driverOptions?: unknown;
  version: string;
  index: IndexConfig;
  tolerances: Tolerances;
  /** The adapter's declared capabilities with the catalog's overrides applied. */
  capabilities: Capabilities;
  /** (url provider) the connection URL the user gave; never printed (see `redactUrl`). */
  url?: string;
  /** The resolved `upgradeFrom` target (C16), when the catalog names one. */
  upgradeFromTarget?: ResolvedTarget;
}

/** The parsed target catalog (matrix/targets.yaml). */
export interface Catalog {
  file: string;
  defaults: { index: IndexConfig; tolerances: Tolerances };
  targets: Map<string, ResolvedTarget>;
  profiles: Map<string, Profile>;
  /**
   * Targets of built-in backends whose adapter package is not installed (an installed copy without
   * the optional adapters; registry `missingDrivers`): target name → why, naming the package to
   * install. Not in `targets`; a profile may name them (the run leaves them out and says so).
   */
  unavailable: Map<string, string>;
}

/** Options of `loadCatalog`. */
export interface LoadCatalogOptions {
  /**
   * A catalog file that `file` extends (a user's memory-matrix.yaml over the built-in catalog,
   * `CATALOG_FILE`): the base's targets and profiles come first, and `file`'s are added to them,
   * one of the same name replacing the base's; `defaults` is the base's unless `file` gives it.
   * The result is validated as one catalog, errors naming `file`. A base profile's `baselines.dir`
   * stays relative to the base file's folder.
   */
  extends?: string;
}

/**
 * Read and validate the catalog (with `opts.extends`, a catalog extending another). Throws
 * GOLDEN_INVALID-like `USAGE` errors naming the file, line and field of the first schema
 * violation (YAML positions from the `yaml` library).
 */
export function loadCatalog(file = CATALOG_FILE, opts: LoadCatalogOptions = {}): Catalog {
  const { text, doc } = readCatalogDocument(file);
  /** `file:line` of the node at `at` (or of its nearest existing parent), from the YAML positions. */
  const lineOf = (at: ReadonlyArray<string | number>): number | '?' => {
    for (let n = at.length; n >= 0; n--) {
      const node = doc.getIn(at.slice(0, n), true) as { range?: [number, number] } | undefined;
      if (node?.range) return text.slice(0, node.range[0]).split('\n').length;
    }
    return '?';
  };
  const fail = (at: ReadonlyArray<string | number>, message: string): never => {
    throw new MemoryMatrixError('USAGE', `${file}:${lineOf(at)}: ${at.join('.')}: ${message}`);
  };
  let raw: unknown = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new MemoryMatrixError(
      'USAGE',
      `${file}:1: the catalog is ${raw === null || raw === undefined ? 'empty' : `a ${Array.isArray(raw) ? 'list' : typeof raw}`}; expected a mapping with defaults, targets and profiles`,
    );
  }
  if (opts.extends !== undefined) raw = extendRaw(opts.extends, readCatalogDocument(opts.extends).doc.toJS() as Record<string, unknown>, raw as Record<string, unknown>);
  const unavailable = setAsideMissing(raw as Record<string, unknown>);
  const parsed = catalogSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // An unknown key (zod `unrecognized_keys`) is named with its own line.
    if (issue.code === 'unrecognized_keys')
      fail([...issue.path, issue.keys[0]!], `unknown key ${JSON.stringify(issue.keys[0])}${issue.keys.length > 1 ? ` (and ${issue.keys.slice(1).join(', ')})` : ''}`);
    fail(issue.path, issue.message);
  }
  if (!parsed.success) throw new Error('unreachable');
  const c = parsed.data;
  const targets = new Map<string, ResolvedTarget>();
  for (const [name, t] of Object.entries(c.targets)) {
    const [backend, version] = name.split('@');
    if (!version || backend !== t.backend) {
      throw new MemoryMatrixError('USAGE', `${file}: target ${name} must be named <backend>@<version> with backend ${t.backend}`);
    }
    const at = ['targets', name];
    const driver = driverOf(t.backend);
    const facet = driver[t.provider];
    if (!facet) fail([...at, 'provider'], `driver ${t.backend} does not offer provider ${t.provider} (it offers: ${offeredProviders(driver).join(', ') || 'none'})`);
    if (t.provider === 'embedded' || t.provider === 'local') {
      const engines = Object.keys((t.provider === 'embedded' ? driver.embedded : driver.local)?.engines ?? {});
      if (t.engine === undefined || !engines.includes(t.engine))
        fail([...at, 'engine'], `driver ${t.backend} has no ${t.provider} engine ${JSON.stringify(t.engine ?? '')} (known: ${engines.join(', ') || 'none'})`);
    }
    let start: StartEntry | undefined = t.start;
    if (t.provider === 'container') {
      const kind = t.start?.kind ?? driver.container!.kind;
      if (kind !== driver.container!.kind) fail([...at, 'start', 'kind'], `container kind ${kind} belongs to another driver; ${t.backend} targets run as ${driver.container!.kind}`);
      start = { timeoutMs: driver.container!.defaultStartTimeoutMs, ...t.start, kind };
    }
    let driverOptions: unknown = undefined;
    if (driver.adapterOptions) {
      const o = driver.adapterOptions.safeParse(t.adapterOptions ?? {});
      if (!o.success) {
        const issue = o.error.issues[0]!;
        if (issue.code === 'unrecognized_keys') fail([...at, 'adapterOptions', ...issue.path, issue.keys[0]!], `unknown adapter option ${JSON.stringify(issue.keys[0])} of driver ${t.backend}`);
        fail([...at, 'adapterOptions', ...issue.path], issue.message);
      }
      driverOptions = o.success ? o.data : undefined;
    } else if (t.adapterOptions !== undefined) {
      fail([...at, 'adapterOptions'], `driver ${t.backend} takes no adapterOptions`);
    }
    targets.set(name, {
      ...t,
      ...(start !== undefined ? { start } : {}),
      driverOptions,
      name,
      version,
      index: t.index ?? c.defaults.index,
      tolerances: { ...DEFAULT_TOLERANCES, ...c.defaults.tolerances, ...t.tolerances },
      capabilities: { ...driver.capabilities, ...faultCapabilities(t, start), ...t.capabilities },
    });
  }
  for (const t of targets.values()) {
    if (t.upgradeFrom === undefined) continue;
    const from = targets.get(t.upgradeFrom);
    if (!from || from.backend !== t.backend || !(from.capabilities.faults || (from.durability !== undefined && localFaultSupported(from)))) {
      throw new MemoryMatrixError(
        'USAGE',
        `${file}: target ${t.name}: upgradeFrom ${t.upgradeFrom} must name a ${t.backend} target of this catalog with durability configurations (a container target, or a local Chroma target)`,
      );
    }
    t.upgradeFromTarget = from;
  }
  const profiles = new Map(Object.entries(c.profiles));
  for (const [pname, p] of profiles) {
    for (const t of [...p.targets, ...(p.fallbackTargets ?? [])]) {
      if (!targets.has(t) && !unavailable.has(t)) throw new MemoryMatrixError('USAGE', `${file}: profile ${pname} names unknown target ${t}`);
    }
    const at = ['profiles', pname];
    if (p.checks && p.excludeChecks) fail([...at, 'excludeChecks'], 'give either checks (the checks that run) or excludeChecks (the checks left out), not both');
    if (p.excludedRunIn !== undefined) {
      const other = profiles.get(p.excludedRunIn);
      if (!other) fail([...at, 'excludedRunIn'], `unknown profile ${JSON.stringify(p.excludedRunIn)} (profiles: ${[...profiles.keys()].join(', ')})`);
      const left = CHECKS.filter((ch) => !profileRuns(p, ch.id)).map((ch) => ch.id);
      const missed = left.filter((id) => !profileRuns(other!, id));
      if (missed.length) fail([...at, 'excludedRunIn'], `profile ${p.excludedRunIn} does not run ${missed.join(', ')} either, so they would run nowhere`);
    }
  }
  return { file, defaults: { index: c.defaults.index, tolerances: { ...DEFAULT_TOLERANCES, ...c.defaults.tolerances } }, targets, profiles, unavailable };
}

/** The catalog file's text and YAML document; USAGE naming the file (and line) when it cannot be read or parsed. */
function readCatalogDocument(file: string): { text: string; doc: ReturnType<typeof parseDocument> } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MemoryMatrixError('USAGE', `cannot read target catalog ${file}: ${(e as Error).message}`, { cause: e });
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    throw new MemoryMatrixError('USAGE', `${file}:${doc.errors[0].linePos?.[0].line ?? '?'}: ${doc.errors[0].message}`);
  }
  return { text, doc };
}

/** `ext` over `base` (LoadCatalogOptions.extends): targets and profiles merged by name, ext's winning; base profiles' `baselines.dir` made absolute from `baseFile`'s folder. */
function extendRaw(baseFile: string, base: Record<string, unknown>, ext: Record<string, unknown>): Record<string, unknown> {
  const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const baseProfiles = Object.fromEntries(
    Object.entries(isMap(base.profiles) ? base.profiles : {}).map(([name, p]) => {
      if (!isMap(p) || !isMap(p.baselines) || typeof p.baselines.dir !== 'string') return [name, p];
      return [name, { ...p, baselines: { ...p.baselines, dir: path.resolve(path.dirname(baseFile), p.baselines.dir) } }];
    }),
  );
  const merge = (key: 'targets' | 'profiles', b: unknown): unknown => (key in ext ? (isMap(ext[key]) ? { ...(isMap(b) ? b : {}), ...ext[key] } : ext[key]) : b);
  return { ...base, ...ext, defaults: 'defaults' in ext ? ext.defaults : base.defaults, targets: merge('targets', base.targets), profiles: merge('profiles', baseProfiles) };
}

/**
 * Take the targets of built-in backends whose adapter package is not installed (registry
 * `missingDrivers`: an installed copy without the optional adapters) out of the raw catalog before
 * it is validated (their container kinds, engines and adapter options are the missing driver's to
 * judge) and return them, target name → why, naming the package to install. Nothing in the
 * repository, where every adapter is installed.
 */
function setAsideMissing(raw: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const targets = raw.targets;
  if (targets === null || typeof targets !== 'object' || Array.isArray(targets)) return out;
  const kept: Record<string, unknown> = {};
  for (const [name, t] of Object.entries(targets as Record<string, unknown>)) {
    const backend = (t as { backend?: unknown } | null)?.backend;
    const pkg = typeof backend === 'string' ? missingDrivers().get(backend) : undefined;
    if (pkg === undefined) kept[name] = t;
    else out.set(name, `its adapter package ${pkg} is not installed (npm install ${pkg})`);
  }
  raw.targets = kept;
  return out;
}

/**
 * Whether a profile's check tier includes the check `id` (`C03`): every check when the profile
 * declares neither `checks` nor `excludeChecks`.
 */
export function profileRuns(profile: Profile, id: string): boolean {
  if (profile.checks) return profile.checks.includes(id);
  if (profile.excludeChecks) return !profile.excludeChecks.includes(id);
  return true;
}

/**
 * `faults`: a target with `durability:` that the fault machinery can start, kill and restart — a
 * container target whose container kind has fault controls (its driver's `container.faults`), or
 * an embedded target whose engine has a `faultProcess` (the store in a process of its own: SQLite);
 * `upgrade`: additionally names `upgradeFrom`.
 */
function faultCapabilities(t: TargetEntry, start: StartEntry | undefined): Pick<Capabilities, 'faults' | 'upgrade'> {
  const container = t.provider === 'container' && start?.kind !== undefined && findContainerKind(start.kind)?.kind.faults !== undefined;
  const embedded = t.provider === 'embedded' && localFaultSupported({ provider: t.provider, backend: t.backend, engine: t.engine });
  const faults = t.durability !== undefined && (container || embedded);
  return { faults, upgrade: faults && t.upgradeFrom !== undefined };
}

/**
 * Look up a target; UNKNOWN_TARGET lists the known names. `<backend>@url=<url>` names an existing
 * server (url provider of a driver that offers it) with the catalog's default index and
 * tolerances; its report name is `<backend>@url(host:port/db)`, without credentials.
 */
export function resolveTarget(catalog: Catalog, name: string): ResolvedTarget {
  const u = parseUrlTarget(name);
  if (u) {
    return {
      name: urlTargetName(u.backend, u.url),
      backend: u.backend,
      version: 'url',
      provider: 'url',
      url: u.url,
      expect: {},
      index: catalog.defaults.index,
      tolerances: catalog.defaults.tolerances,
      capabilities: driverOf(u.backend).capabilities,
      driverOptions: driverOf(u.backend).adapterOptions?.parse({}),
    };
  }
  const t = catalog.targets.get(name);
  const why = catalog.unavailable.get(name);
  if (!t && why !== undefined) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `target ${name}: ${why}`);
  if (!t) {
    throw new MemoryMatrixError(
      'UNKNOWN_TARGET',
      `unknown target "${name}" (not in ${path.relative(process.cwd(), catalog.file) || catalog.file}); known targets: ${[...catalog.targets.keys()].join(', ')}`,
    );
  }
  return t;
}
