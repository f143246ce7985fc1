import Table from 'cli-table3';
import { MemoryMatrixError } from '@memory-matrix/spec';
import type { Catalog, ResolvedTarget } from '@memory-matrix/targets';

/** One row of `targets`: what a user needs to pick a `--backend`. */
export interface TargetRow {
  /** `backend@version`, what `--backend` takes. */
  target: string;
  provider: ResolvedTarget['provider'];
  /** The Docker image (container), the engine (embedded, local) or the server target (a client target). */
  runs: string;
  /** Profiles that name the target (`name*` when only in its fallbackTargets, used without Docker). */
  profiles: string[];
}

/**
 * The rows of `targets` for `catalog`, in catalog order; with `profile`, only the targets that
 * profile names (its targets, then its fallbackTargets not already listed). Throws USAGE naming
 * the known profiles when `profile` is not one. Pure: no I/O.
 */
export function targetRows(catalog: Catalog, profile?: string): TargetRow[] {
  let names = [...catalog.targets.keys()];
  if (profile !== undefined) {
    const p = catalog.profiles.get(profile);
    if (!p) throw new MemoryMatrixError('USAGE', `unknown profile "${profile}"; known profiles: ${[...catalog.profiles.keys()].join(', ')}`);
    const wanted = profileTargets(catalog, profile);
    names = names.filter((n) => wanted.has(n));
  }
  return names.map((name) => {
    const t = catalog.targets.get(name)!;
    const profiles = [...catalog.profiles].flatMap(([pn, p]) => (p.targets.includes(name) ? [pn] : (p.fallbackTargets ?? []).includes(name) ? [`${pn}*`] : []));
    return { target: name, provider: t.provider, runs: whatRuns(t), profiles };
  });
}

/**
 * What a target runs, for the table: a client target's server; a container's registry image, and
 * its offline image (built from Debian packages by `images build`) when it has a recipe; an
 * embedded or local target's engine; a URL target the server the user gives.
 */
function whatRuns(t: ResolvedTarget): string {
  if (t.serverTarget) return `client over ${t.serverTarget.name}`;
  if (t.provider === 'url') return 'a server you give (--backend <backend>@url=…)';
  if (t.provider !== 'container') return t.engine ?? '';
  return [t.image, t.offline ? `offline: ${t.offline.tag} (Debian ${t.offline.suite})` : undefined].filter(Boolean).join('; ');
}

/**
 * `memory-matrix targets [--profile P]`: prints the targets `--backend` takes (table: target,
 * provider, what it runs, profiles), then the built-in targets (of that profile) whose adapter
 * package is not installed, with why. Returns the exit status (0); throws USAGE on an unknown profile.
 */
export function targetsCommand(catalog: Catalog, print: (line: string) => void, profile?: string): number {
  const rows = targetRows(catalog, profile);
  const table = new Table({ head: ['target', 'provider', 'runs', 'profiles'], style: { head: [], border: [] } });
  for (const r of rows) table.push([r.target, r.provider, r.runs, r.profiles.join(', ')]);
  print(table.toString());
  print(
    `${rows.length} target(s)${profile ? ` in profile ${profile}` : ''}; container targets need a Docker engine; "name*": in that profile only when no Docker engine answers (its fallbackTargets).`,
  );
  const shown = profile === undefined ? undefined : profileTargets(catalog, profile);
  for (const [name, why] of catalog.unavailable) if (!shown || shown.has(name)) print(`not installed: ${name}: ${why}`);
  return 0;
}

/** The targets profile `profile` (known to `catalog`) names: its targets and its fallbackTargets. */
function profileTargets(catalog: Catalog, profile: string): Set<string> {
  const p = catalog.profiles.get(profile)!;
  return new Set([...p.targets, ...(p.fallbackTargets ?? [])]);
}
