import { existsSync } from 'node:fs';
import path from 'node:path';
import { MemoryMatrixError } from '@memory-matrix/spec';
import { z } from 'zod';
import { loadDriverModule } from './driver-module';
import { driverNames, findDriver, registerDriver } from './registry';
import { limitMsSchema, limitsSchema } from './target';
import { failOnIssues, isLimitIssue, readYamlMapping, type YamlFail } from './yaml-file';

/**
 * A user's `memory-matrix.yaml`: the settings of a repository that runs memory-matrix on its own
 * memory code. It EXTENDS the built-in catalog (matrix/targets.yaml):
 *
 * ```yaml
 * adapters:                                  # driver name → module (path relative to this file, or a package name)
 *   own-memory: ./matrix-adapter.ts          # TypeScript is loaded without a build step
 *   # or { module: ./matrix-adapter.ts, limits: { loadTimeoutMs: 1800000 } }: time limits of every target of the driver
 * targets:                                   # the catalog's target schema; client targets name a server target
 *   own-memory@pglite-pg18: { backend: own-memory, server: pgvector@pglite-pg18, capabilities: { history: false } }
 * profiles:                                  # the catalog's profile schema
 *   own: { targets: [own-memory@pglite-pg18] }
 * ```
 *
 * A target or profile named like a built-in one REPLACES it (the run says so): a repository may
 * pin its own `pr-gate`, or another expected version of a built-in target, without copying the
 * catalog. Errors name this file, the line and the field, like the catalog's (exit 2).
 */

/** The file name a run looks for in its working directory. */
export const USER_CONFIG_FILE = 'memory-matrix.yaml';

/** One `adapters:` entry, loaded. */
export interface UserAdapter {
  /** The driver's name (the key, equal to the module's `driver.name`). */
  name: string;
  /** The module as written in the file (`./matrix-adapter.ts`, a package name). */
  spec: string;
  /** The module's resolved file. */
  file: string;
  /** `limits:` of the entry (`{ module, limits }` form): the time limits of every target of this driver, under each target's own `limits`. */
  limits?: z.infer<typeof limitsSchema>;
}

/** A loaded memory-matrix.yaml: its adapters registered, its targets and profiles for `loadCatalog(…, { config })`. */
export interface UserConfig {
  /** Absolute path of the file. */
  file: string;
  adapters: UserAdapter[];
  /** Target entries as written (validated by `loadCatalog` with the catalog's schema, errors naming this file). */
  targets: Record<string, unknown>;
  /** Profile entries as written (likewise). */
  profiles: Record<string, unknown>;
  /** USAGE `<file>:<line>: <path>: <message>` for a node of this file. */
  fail: YamlFail;
}

/** The time limits of a target entry (`limits:`, `start:`); the rest of the entry is the catalog's to validate (catalog.ts). */
const targetLimitsSchema = z
  .object({
    limits: z.object(limitsSchema.shape).passthrough().optional(),
    start: z.object({ timeoutMs: limitMsSchema.optional(), setupTimeoutMs: limitMsSchema.optional() }).passthrough().optional(),
  })
  .passthrough();

/** A target entry's bad time limits, checked with the adapters' so that one error names every bad limit of this file (yaml-file.ts `failOnIssues`). */
const targetEntry = z.unknown().superRefine((v, ctx) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
  const r = targetLimitsSchema.safeParse(v);
  if (!r.success) for (const i of r.error.issues.filter(isLimitIssue)) ctx.addIssue(i as z.IssueData);
});

/** The top level of memory-matrix.yaml; the entries of `targets` and `profiles` are the catalog's schema (catalog.ts). */
export const userConfigSchema = z
  .object({
    adapters: z
      .record(
        z.string().regex(/^[a-z][a-z0-9-]*$/, 'an adapter name is a driver name: [a-z][a-z0-9-]*'),
        z.union([
          z.string().min(1, 'give the module: a path (./…, relative to this file) or a package name'),
          z.object({ module: z.string().min(1, 'give the module: a path (./…, relative to this file) or a package name'), limits: limitsSchema.optional() }).strict(),
        ]),
      )
      .default({}),
    targets: z.record(targetEntry).default({}),
    profiles: z.record(z.unknown()).default({}),
  })
  .strict();

/**
 * `memory-matrix.yaml` in `dir`, when there is one; undefined otherwise.
 */
export function findUserConfig(dir: string): string | undefined {
  const f = path.join(dir, USER_CONFIG_FILE);
  return existsSync(f) ? f : undefined;
}

/**
 * Read a memory-matrix.yaml, load each of its `adapters:` modules (driver-module.ts: TypeScript
 * without a build step, `@memory-matrix/*` from this installation when the user's folder has none)
 * and register their drivers. Pass the result to `loadCatalog(CATALOG_FILE, { config })`, which
 * validates its targets and profiles. Throws USAGE naming the file, line and field: not readable,
 * not YAML, an unknown top-level key, a module that does not exist, fails to load, exports no
 * driver or breaks the driver contract (the member), a driver named otherwise than its key or like
 * a built-in driver, a `client.servers` entry that is not a registered driver. Loading the same
 * file twice in a process registers nothing twice.
 */
export function loadUserConfig(file: string): UserConfig {
  const abs = path.resolve(file);
  const y = readYamlMapping(abs, { name: 'memory-matrix config', short: 'config', expected: 'a mapping with adapters, targets and profiles' });
  const parsed = userConfigSchema.safeParse(y.raw);
  if (!parsed.success) failOnIssues(parsed.error.issues, y.fail, userConfigSchema);
  const c = parsed.data!;
  const adapters: UserAdapter[] = [];
  const loaded = Object.entries(c.adapters).map(([name, entry]) => {
    const spec = typeof entry === 'string' ? entry : entry.module;
    const where = `${abs}:${y.lineOf(['adapters', name])}: adapters.${name}`;
    const { driver: d, file: moduleFile } = loadDriverModule(spec, path.dirname(abs), where);
    if (d.name !== name)
      throw new MemoryMatrixError('USAGE', `${where}: module ${moduleFile} exports driver ${JSON.stringify(d.name)}: name the adapter as its driver (adapters: { ${d.name}: ${spec} })`);
    const had = findDriver(name);
    if (had && had !== d) throw new MemoryMatrixError('USAGE', `${where}: ${name} is already a registered driver (${had.description}); give your driver another name`);
    try {
      registerDriver(d);
    } catch (err) {
      throw new MemoryMatrixError('USAGE', `${where}: ${(err as Error).message}`, { cause: err });
    }
    adapters.push({ name, spec, file: moduleFile, ...(typeof entry !== 'string' && entry.limits ? { limits: entry.limits } : {}) });
    return { where, d };
  });
  for (const { where, d } of loaded) {
    for (const s of d.client?.servers ?? []) {
      if (!findDriver(s))
        throw new MemoryMatrixError('USAGE', `${where}: driver ${d.name}: client.servers entry ${JSON.stringify(s)} is not a registered driver (registered: ${driverNames().join(', ')})`);
    }
  }
  return { file: abs, adapters, targets: c.targets, profiles: c.profiles, fail: y.fail };
}
