import { existsSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { capabilitiesSchema, checkDeclaredIndexes, MemoryMatrixError, type BackendDriver } from '@memory-matrix/spec';
import { findDriverPackages } from './discovery';

/**
 * Loading a driver module that lives outside this workspace: a user's own memory module named in
 * `memory-matrix.yaml` `adapters:` (user-config.ts) or in `MM_DRIVERS` (registry.ts).
 *
 * - TypeScript is loaded without a build step: a `.ts` / `.mts` / `.cts` module is compiled on
 *   require by tsx (already in effect when the CLI runs through `tsx/cjs`; registered here otherwise).
 * - `@memory-matrix/*` imports resolve to the runner's own copies when the user's folder has none
 *   installed (their resolution is tried first, so a user's installed copy wins): the driver is
 *   written against the public spec API without installing it next to the module.
 * - What the module exports is checked against the driver contract (spec driver.ts) before the
 *   catalog sees it, and every breach is a USAGE error (exit 2) naming the module file and the member.
 */

/** Extensions tsx compiles. */
const TS_EXTENSIONS = ['.ts', '.mts', '.cts'];

/**
 * Resolve `spec` — a path (starting with `.` or `/`, relative to `baseDir`) or a package name
 * (resolved from `baseDir`'s node_modules) — to a file. Throws USAGE `<where>: module <spec> not
 * found (<absolute path or searched folder>)`.
 */
export function resolveDriverModule(spec: string, baseDir: string, where: string): string {
  const isPath = spec.startsWith('.') || path.isAbsolute(spec);
  const abs = isPath ? path.resolve(baseDir, spec) : spec;
  ensureTypeScript();
  try {
    return require.resolve(abs, { paths: [baseDir] });
  } catch (err) {
    const looked = isPath ? `${abs} does not exist${existsSync(path.dirname(abs)) ? '' : ` (nor does its folder ${path.dirname(abs)})`}` : `no package ${spec} is installed under ${baseDir}`;
    throw new MemoryMatrixError('USAGE', `${where}: module ${spec} not found: ${looked}`, { cause: err });
  }
}

/**
 * Load the driver module `spec` (see `resolveDriverModule`) and return its driver — the `driver`
 * export, else the default export, checked by `checkDriverContract` — and the module's file. Throws USAGE naming `where`
 * and the module's file: not found, fails to load (its error's first line), exports no driver, or
 * a driver that breaks the contract (the missing or malformed member).
 */
export function loadDriverModule(spec: string, baseDir: string, where: string): { driver: BackendDriver<unknown>; file: string } {
  const file = resolveDriverModule(spec, baseDir, where);
  installOwnPackagesFallback();
  let mod: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a user-named module, resolved at run time
    mod = require(file) as Record<string, unknown>;
  } catch (err) {
    throw new MemoryMatrixError('USAGE', `${where}: module ${file} failed to load: ${String((err as Error).message ?? err).split('\n')[0]}`, { cause: err });
  }
  const d = mod?.driver ?? mod?.default;
  if (d === undefined || d === null) {
    const names = Object.keys(mod ?? {}).filter((k) => k !== '__esModule');
    throw new MemoryMatrixError(
      'USAGE',
      `${where}: module ${file} exports no driver: expected \`export const driver = defineDriver({ … })\` (or a default export); it exports ${names.length ? names.join(', ') : 'nothing'}`,
    );
  }
  checkDriverContract(d, `${where}: module ${file}`);
  return { driver: d, file };
}

/**
 * Check that `d` has the members the matrix calls (spec driver.ts `BackendDriver`): `name`
 * (`[a-z][a-z0-9-]*`), `description`, `capabilities` (every flag, valid: spec capabilities.ts),
 * `scores.formula` and `scores.toCanonical`, at least one way to start or reach a server (a
 * `container`, `embedded`, `local`, `url` or `client` facet), and the functions of each facet it
 * has (`client`: `servers` a non-empty list of names, `description`, `preflight`, `connect`), and
 * `indexes` (when given) an object of zod schemas that declares every `capabilities.annIndexes`
 * entry (spec index-config.ts `checkDeclaredIndexes`).
 * Whether `client.servers` names registered drivers is the caller's check (the registry).
 * Throws USAGE `<where>: driver <name>: <member> …`.
 */
export function checkDriverContract(d: unknown, where: string): asserts d is BackendDriver<unknown> {
  if (typeof d !== 'object' || d === null) throw new MemoryMatrixError('USAGE', `${where}: the driver export is ${d === null ? 'null' : typeof d}, not a driver object (defineDriver({ … }))`);
  const o = d as Record<string, unknown>;
  const bad = (member: string, what: string): never => {
    throw new MemoryMatrixError('USAGE', `${where}: driver ${typeof o.name === 'string' ? o.name : '(no name)'}: ${member} ${what}`);
  };
  const isFn = (v: unknown): boolean => typeof v === 'function';
  const get = (p: string): unknown => p.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
  const needFns = (...paths: string[]): void => {
    for (const p of paths) if (!isFn(get(p))) bad(p, get(p) === undefined ? 'is missing (a function)' : `is a ${typeof get(p)}, not a function`);
  };
  if (typeof o.name !== 'string') bad('name', 'is missing (a string, the part before @ of its targets)');
  if (!/^[a-z][a-z0-9-]*$/.test(o.name as string)) bad('name', `${JSON.stringify(o.name)} must match [a-z][a-z0-9-]*`);
  if (typeof o.description !== 'string') bad('description', 'is missing (a string)');
  if (o.capabilities === undefined) bad('capabilities', 'is missing (capabilities({ … }) from @memory-matrix/spec)');
  const caps = capabilitiesSchema.safeParse(o.capabilities);
  if (!caps.success) {
    const issue = caps.error.issues[0]!;
    const key = issue.code === 'unrecognized_keys' ? issue.keys[0]! : issue.path.join('.');
    bad(`capabilities.${key}`, issue.code === 'unrecognized_keys' ? 'is not a capability' : `: ${issue.message} (build them with capabilities({ … }))`);
  }
  if (o.indexes !== undefined) {
    if (typeof o.indexes !== 'object' || o.indexes === null || Array.isArray(o.indexes)) bad('indexes', 'is not an object (index type → its zod schema, e.g. { hnsw: hnswIndexSchema })');
    for (const t of Object.keys(o.indexes as object)) needFns(`indexes.${t}.safeParse`);
  }
  try {
    checkDeclaredIndexes(o.name as string, caps.success ? caps.data.annIndexes : [], o.indexes as Record<string, unknown> | undefined);
  } catch (e) {
    throw new MemoryMatrixError('USAGE', `${where}: ${(e as Error).message}`);
  }
  if (typeof get('scores.formula') !== 'string') bad('scores.formula', 'is missing (a string: the native → canonical formula and its source)');
  needFns('scores.toCanonical');
  const facets = ['container', 'embedded', 'local', 'url', 'client'].filter((f) => o[f] !== undefined);
  if (facets.length === 0) bad('client', 'is missing: a driver needs a client facet (a module over a server target) or a container, embedded, local or url facet');
  if (o.container !== undefined) needFns('container.probe', 'container.versions', 'container.connect');
  if (o.url !== undefined) needFns('url.open');
  for (const f of ['embedded', 'local'] as const) {
    if (o[f] === undefined) continue;
    const engines = get(`${f}.engines`);
    if (typeof engines !== 'object' || engines === null || Object.keys(engines).length === 0) bad(`${f}.engines`, 'is missing (engines by name)');
    // By key, not by a dotted path: engine names hold dots (`chroma-bindings-1.0`).
    for (const [e, engine] of Object.entries(engines as Record<string, { preflight?: unknown } | null>)) {
      const fn = engine?.preflight;
      if (!isFn(fn)) bad(`${f}.engines.${e}.preflight`, fn === undefined ? 'is missing (a function)' : `is a ${typeof fn}, not a function`);
    }
  }
  if (o.client !== undefined) {
    const servers = get('client.servers');
    if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === 'string'))
      bad('client.servers', 'is missing (a non-empty list of the server drivers it speaks to, e.g. [pgvector, redis])');
    if (typeof get('client.description') !== 'string') bad('client.description', 'is missing (a string)');
    needFns('client.preflight', 'client.connect');
  }
}

/** Register tsx's CommonJS hook when nothing compiles TypeScript in this process yet (the CLI under `tsx/cjs` already does). */
function ensureTypeScript(): void {
  const exts = (Module as unknown as { _extensions: Record<string, unknown> })._extensions;
  if (TS_EXTENSIONS.every((e) => e in exts)) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the TypeScript loader, only when a TypeScript module is named
  (require('tsx/cjs/api') as { register: () => unknown }).register();
}

let fallbackInstalled = false;

/**
 * Let `@memory-matrix/<pkg>` imports of modules outside this workspace resolve to this
 * installation's packages when their own resolution finds none (a user's folder without the
 * packages installed). Node's resolution is tried first; only a MODULE_NOT_FOUND of an
 * `@memory-matrix/` request falls back: resolved from this package (which depends on spec and
 * catalog), to this package itself, or to a driver package found (discovery.ts, e.g.
 * `@memory-matrix/adapter-pgvector`). Installed once per process.
 */
export function installOwnPackagesFallback(): void {
  if (fallbackInstalled) return;
  fallbackInstalled = true;
  type Resolve = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;
  const M = Module as unknown as { _resolveFilename: Resolve };
  const original = M._resolveFilename;
  const self = path.resolve(__dirname, '..');
  let driverDirs: Map<string, string> | undefined;
  M._resolveFilename = function (this: unknown, request, parent, isMain, options) {
    try {
      return original.call(this, request, parent, isMain, options);
    } catch (err) {
      if (!request.startsWith('@memory-matrix/') || (err as { code?: string }).code !== 'MODULE_NOT_FOUND') throw err;
      if (request === '@memory-matrix/targets') return require.resolve(self);
      try {
        return require.resolve(request, { paths: [__dirname] });
      } catch {
        driverDirs ??= new Map(findDriverPackages().found.map((p) => [p.name, p.dir]));
        const dir = driverDirs.get(request);
        if (dir !== undefined) return require.resolve(dir);
        throw err; // not one of ours either: the user's own error
      }
    }
  };
}
