import { DEFAULT_TOLERANCES, type IndexConfig, type Tolerances } from '@memory-matrix/spec';
import { driverOf } from './registry';
import type { ResolvedTarget, TargetEntry } from './target';
import { resolveTargetIndex } from './target-index';
import type { YamlFail } from './yaml-file';

/*
 * A catalog target's driver options and the resolution of a client target (`server:`) over its
 * resolved server target (catalog.ts loadCatalog). Catalog errors go through `fail`, which names
 * the file and line of the key (yaml-file.ts).
 */

type Fail = YamlFail;

/** The target's `adapterOptions` parsed by its driver's schema (defaults applied); a catalog error naming the line otherwise. */
export function parseDriverOptions(driver: ReturnType<typeof driverOf>, t: TargetEntry, at: string[], fail: Fail): unknown {
  if (!driver.adapterOptions) {
    if (t.adapterOptions !== undefined) fail([...at, 'adapterOptions'], `driver ${t.backend} takes no adapterOptions`);
    return undefined;
  }
  const o = driver.adapterOptions.safeParse(t.adapterOptions ?? {});
  if (!o.success) {
    const issue = o.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') fail([...at, 'adapterOptions', ...issue.path, issue.keys[0]!], `unknown adapter option ${JSON.stringify(issue.keys[0])} of driver ${t.backend}`);
    fail([...at, 'adapterOptions', ...issue.path], issue.message);
  }
  return o.success ? o.data : undefined;
}

/** Keys a client target takes from its server and may not give itself. */
const SERVER_KEYS = ['provider', 'engine', 'image', 'offline', 'start', 'durability', 'upgradeFrom'] as const;

/**
 * A client target (`server:`): the client driver's capabilities, adapterOptions, expect (its own
 * package versions), index, tolerances and knownFailures over everything that starts the server,
 * taken from the resolved server target. `faults` / `upgrade` are the server's (C15, C16 and C23
 * fault the server under the client). Catalog errors name the line: the driver is not a client,
 * the server is unknown, itself a client, or of a backend the client does not speak to, or the
 * target gives a key that belongs to its server.
 */
export function resolveClientTarget(name: string, t: TargetEntry, servers: Map<string, ResolvedTarget>, defaults: { index: IndexConfig; tolerances: Partial<Tolerances> }, fail: Fail): ResolvedTarget {
  const at = ['targets', name];
  const driver = driverOf(t.backend);
  const client = driver.client;
  if (!client) fail([...at, 'server'], `driver ${t.backend} is not a client driver (no client facet); give a provider instead of server`);
  for (const k of SERVER_KEYS) if (t[k] !== undefined) fail([...at, k], `a client target takes ${k} from its server ${t.server} (remove it here)`);
  const server = servers.get(t.server!);
  if (!server || server.serverTarget) {
    fail(
      [...at, 'server'],
      `${JSON.stringify(t.server)} is not a server target of this catalog (server targets: ${[...servers.values()]
        .filter((s) => !s.serverTarget)
        .map((s) => s.name)
        .join(', ')})`,
    );
  }
  if (!client!.servers.includes(server!.backend)) fail([...at, 'server'], `driver ${t.backend} runs over ${client!.servers.join(', ')} servers, not ${server!.backend} (${server!.name})`);
  const s = server!;
  return {
    ...t,
    name,
    version: name.split('@')[1]!,
    provider: s.provider,
    ...(s.engine !== undefined ? { engine: s.engine } : {}),
    ...(s.image !== undefined ? { image: s.image } : {}),
    ...(s.offline !== undefined ? { offline: s.offline } : {}),
    ...(s.start !== undefined ? { start: s.start } : {}),
    ...(s.durability !== undefined ? { durability: s.durability } : {}),
    serverTarget: s,
    driverOptions: parseDriverOptions(driver, t, at, fail),
    index: resolveTargetIndex(driver, t.index, { from: `server ${s.name}`, index: s.index, vectors: t.capabilities?.vectors ?? driver.capabilities.vectors }, at, fail),
    tolerances: { ...DEFAULT_TOLERANCES, ...defaults.tolerances, ...s.tolerances, ...t.tolerances },
    capabilities: { ...driver.capabilities, faults: s.capabilities.faults, upgrade: s.capabilities.upgrade, ...t.capabilities },
  };
}
