import path from 'node:path';
import { CHECKS, DEFAULT_TOLERANCES, didYouMean, MemoryMatrixError, offeredProviders, type Capabilities, type IndexConfig, type Tolerances } from '@memory-matrix/spec';
import { baseHas, mergeUserEntries, setAsideMissing } from './catalog-sources';
import { checkRef } from './check-ref';
import { parseDriverOptions, resolveClientTarget } from './client-target';
import { localFaultSupported } from './faults/local-instance';
import { driverOf, findContainerKind } from './registry';
import { indexSchema, targetSchema, tolerancesSchema, type ResolvedTarget, type StartEntry, type TargetEntry } from './target';
import { resolveTargetIndex, urlTargetIndex } from './target-index';
import { parseUrlTarget, urlTargetName } from './url';
import type { UserConfig } from './user-config';
import { failOnIssues, readYamlMapping, type YamlFail } from './yaml-file';
import { z } from 'zod';
import { CATALOG_FILE } from '@memory-matrix/catalog';

/** The default catalog file: the built-in catalog, `targets.yaml` of `@memory-matrix/catalog` (the repository's matrix/ folder). */
export { CATALOG_FILE };
export type { OfflineRecipe, ResolvedTarget, TargetEntry } from './target';

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

export type Profile = z.infer<typeof profileSchema>;

/** The parsed target catalog (matrix/targets.yaml). */
export interface Catalog {
  file: string;
  defaults: { index: IndexConfig; tolerances: Tolerances };
  targets: Map<string, ResolvedTarget>;
  profiles: Map<string, Profile>;
  /** The user's memory-matrix.yaml this catalog was loaded with: its adapters (driver names) and the built-in targets and profiles (`profile <name>`) it replaces. */
  config?: { file: string; adapters: string[]; replaced: string[] };
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
   * A user's memory-matrix.yaml, loaded (user-config.ts `loadUserConfig`: its adapters are
   * registered): its targets and profiles are added to the catalog's, one of the same name
   * replacing the catalog's; errors about them name that file and line.
   */
  config?: UserConfig;
}

/**
 * Read and validate the catalog (and `opts.config`'s targets and profiles over it). Throws
 * GOLDEN_INVALID-like `USAGE` errors naming the file, line and field of the first schema
 * violation (YAML positions from the `yaml` library) — the user's file for its own entries.
 */
export function loadCatalog(file = CATALOG_FILE, opts: LoadCatalogOptions = {}): Catalog {
  const base = readYamlMapping(file, { name: 'target catalog', short: 'catalog', expected: 'a mapping with defaults, targets and profiles' });
  const user = opts.config;
  /** The user's file fails for its own targets and profiles (`at` = [targets|profiles, name, …]), the catalog's otherwise. */
  const fromUser = (at: ReadonlyArray<string | number>): boolean =>
    user !== undefined && (at[0] === 'targets' || at[0] === 'profiles') && at.length > 1 && Object.hasOwn(at[0] === 'targets' ? user.targets : user.profiles, String(at[1]));
  const fail: Fail = (at, message) => (fromUser(at) ? user!.fail(at, message) : base.fail(at, message));
  const fileOf = (section: 'targets' | 'profiles', name: string): string => (fromUser([section, name]) ? user!.file : file);
  const raw = user ? mergeUserEntries(base.raw, user) : { ...base.raw };
  const unavailable = setAsideMissing(raw);
  const parsed = catalogSchema.safeParse(raw);
  if (!parsed.success) failOnIssues(parsed.error.issues, fail, catalogSchema);
  if (!parsed.success) throw new Error('unreachable');
  const c = parsed.data;
  const targets = new Map<string, ResolvedTarget>();
  const entries = Object.entries(c.targets);
  for (const [name, t] of entries) {
    const [backend, version] = name.split('@');
    if (!version || backend !== t.backend) {
      throw new MemoryMatrixError('USAGE', `${fileOf('targets', name)}: target ${name} must be named <backend>@<version> with backend ${t.backend}`);
    }
    if (t.server !== undefined) continue; // client targets: resolved below, over their server
    const at = ['targets', name];
    const driver = driverOf(t.backend);
    if (t.provider === undefined)
      fail([...at, 'provider'], `give the provider that starts ${name} (${offeredProviders(driver).join(', ') || 'none offered'}), or server: <target> for a client driver`);
    const provider = t.provider!;
    const facet = driver[provider];
    if (!facet) fail([...at, 'provider'], `driver ${t.backend} does not offer provider ${provider} (it offers: ${offeredProviders(driver).join(', ') || 'none'})`);
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
    const driverOptions = parseDriverOptions(driver, t, at, fail);
    targets.set(name, {
      ...t,
      provider,
      ...(start !== undefined ? { start } : {}),
      driverOptions,
      name,
      version,
      index: resolveTargetIndex(driver, t.index, { from: 'defaults', index: c.defaults.index, vectors: t.capabilities?.vectors ?? driver.capabilities.vectors }, at, fail),
      tolerances: { ...DEFAULT_TOLERANCES, ...c.defaults.tolerances, ...t.tolerances },
      capabilities: { ...driver.capabilities, ...faultCapabilities({ ...t, provider }, start), ...t.capabilities },
    });
  }
  for (const [name, t] of entries) {
    if (t.server !== undefined) targets.set(name, resolveClientTarget(name, t, targets, c.defaults, fail));
  }
  // memory-matrix.yaml `adapters: { <driver>: { module, limits } }`: the driver's limits under each target's own.
  for (const a of user?.adapters ?? []) for (const t of targets.values()) if (a.limits && t.backend === a.name) t.limits = { ...a.limits, ...t.limits };
  for (const t of targets.values()) {
    if (t.upgradeFrom === undefined || t.serverTarget) continue;
    const from = targets.get(t.upgradeFrom);
    if (!from || from.backend !== t.backend || !(from.capabilities.faults || (from.durability !== undefined && localFaultSupported(from)))) {
      throw new MemoryMatrixError(
        'USAGE',
        `${fileOf('targets', t.name)}: target ${t.name}: upgradeFrom ${t.upgradeFrom} must name a ${t.backend} target of this catalog with durability configurations (a container target, or a local Chroma target)`,
      );
    }
    t.upgradeFromTarget = from;
  }
  const profiles = new Map(Object.entries(c.profiles));
  for (const [pname, p] of profiles) {
    for (const key of ['targets', 'fallbackTargets'] as const) {
      (p[key] ?? []).forEach((t, i) => {
        if (!targets.has(t) && !unavailable.has(t)) fail(['profiles', pname, key, i], `profile ${pname} names unknown target ${t}`);
      });
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
  const replaced = user
    ? [
        ...Object.keys(user.targets).filter((n) => baseHas(base.raw, 'targets', n)),
        ...Object.keys(user.profiles)
          .filter((n) => baseHas(base.raw, 'profiles', n))
          .map((n) => `profile ${n}`),
      ]
    : [];
  return {
    file,
    ...(user ? { config: { file: user.file, adapters: user.adapters.map((a) => a.name), replaced } } : {}),
    defaults: { index: c.defaults.index, tolerances: { ...DEFAULT_TOLERANCES, ...c.defaults.tolerances } },
    targets,
    profiles,
    unavailable,
  };
}

type Fail = YamlFail;

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
function faultCapabilities(t: TargetEntry & { provider: ResolvedTarget['provider'] }, start: StartEntry | undefined): Pick<Capabilities, 'faults' | 'upgrade'> {
  const container = t.provider === 'container' && start?.kind !== undefined && findContainerKind(start.kind)?.kind.faults !== undefined;
  const embedded = t.provider === 'embedded' && localFaultSupported({ provider: t.provider, backend: t.backend, engine: t.engine });
  const faults = t.durability !== undefined && (container || embedded);
  return { faults, upgrade: faults && t.upgradeFrom !== undefined };
}

/**
 * Look up a target; UNKNOWN_TARGET lists the known names, after the closest ones ("did you mean
 * …?") or, for a bare backend name, its targets. `<backend>@url=<url>` names an existing
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
      index: urlTargetIndex(driverOf(u.backend), catalog.defaults.index, urlTargetName(u.backend, u.url), catalog.file),
      tolerances: catalog.defaults.tolerances,
      capabilities: driverOf(u.backend).capabilities,
      driverOptions: driverOf(u.backend).adapterOptions?.parse({}),
    };
  }
  const t = catalog.targets.get(name);
  const why = catalog.unavailable.get(name);
  if (!t && why !== undefined) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `target ${name}: ${why}`);
  if (!t) {
    const known = [...catalog.targets.keys()];
    const ofBackend = name.includes('@') ? [] : known.filter((k) => k.startsWith(`${name}@`));
    const hint = ofBackend.length ? `${name} is a backend; name one of its targets: ${ofBackend.join(', ')}` : didYouMean(name, known);
    throw new MemoryMatrixError(
      'UNKNOWN_TARGET',
      `unknown target "${name}" (not in ${[catalog.file, ...(catalog.config ? [catalog.config.file] : [])].map((f) => path.relative(process.cwd(), f) || f).join(' or ')})${hint ? `; ${hint}` : ''}${hint.endsWith('?') ? ' ' : '; '}known targets: ${known.join(', ')}`,
    );
  }
  return t;
}
