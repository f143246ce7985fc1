import path from 'node:path';
import { CHECKS, didYouMean, MemoryMatrixError, selectChecks, type CheckDefinition } from '@memory-matrix/spec';
import { loadCatalog, loadUserConfig, profileRuns, resolveTarget, type Catalog, type ResolvedTarget } from '@memory-matrix/targets';

/** `i/n` (1-based i) → indices; USAGE on anything else. */
export function parseShard(spec: string | undefined): { index: number; count: number } | null {
  if (spec === undefined) return null;
  const m = /^(\d+)\/(\d+)$/.exec(spec);
  const i = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || i < 1 || i > n) throw new MemoryMatrixError('USAGE', `--shard "${spec}": expected i/n with 1 ≤ i ≤ n, e.g. --shard 2/3`);
  return { index: i, count: n };
}

/**
 * The target catalog file: `MM_CATALOG` (a path, relative to the working directory) when set —
 * e.g. a copy of matrix/targets.yaml with another expected version or index — else the
 * repository's matrix/targets.yaml. The CLI and the jest matrix both read it through here.
 */
export function catalogFile(): string | undefined {
  const f = process.env.MM_CATALOG;
  return f ? path.resolve(f) : undefined;
}

/**
 * The user's memory-matrix.yaml of this run: `MM_CONFIG` (an absolute path, or relative to the
 * working directory), which the CLI sets from `--config FILE` or from a memory-matrix.yaml in the
 * folder it runs in (cli.ts), so that child cells read the same file. Undefined: none.
 */
export function configFile(): string | undefined {
  const f = process.env.MM_CONFIG;
  return f ? path.resolve(f) : undefined;
}

/**
 * The catalog of this run: `catalogFile()` (MM_CATALOG or matrix/targets.yaml) extended by
 * `configFile()` (its adapters registered, its targets and profiles added). Throws USAGE naming
 * the file, line and field (catalog.ts, user-config.ts).
 */
export function runCatalog(): Catalog {
  const config = configFile();
  return loadCatalog(catalogFile(), config ? { config: loadUserConfig(config) } : {});
}

/** Most repeats `--repeat` accepts (each rebuilds the ANN index of every vector cell). */
export const MAX_REPEAT = 20;

/** `--repeat n` (C05 index-path replays, c05-repeat.ts): an integer 1..MAX_REPEAT; default 1; USAGE otherwise. */
export function parseRepeat(spec: string | undefined): number {
  if (spec === undefined) return 1;
  if (!/^\d+$/.test(spec) || Number(spec) < 1 || Number(spec) > MAX_REPEAT) {
    throw new MemoryMatrixError('USAGE', `--repeat "${spec}": expected an integer from 1 to ${MAX_REPEAT} (how many times C05 rebuilds the ANN index and replays the queries), e.g. --repeat 3`);
  }
  return Number(spec);
}

/**
 * Which targets a run covers: the `--backend` list when given (each must be in the catalog),
 * else the profile's targets (its `fallbackTargets` when no Docker engine answers and the profile
 * has them). A profile's targets whose adapter package is not installed (`catalog.unavailable`:
 * an installed copy without an optional adapter) are left out and named in `why`; USAGE when that
 * leaves none. A `--backend` naming one is TARGET_UNAVAILABLE (resolveTarget). A shard takes every
 * n-th target of the sorted list (deterministic: cell order is the target name order), so the
 * union of all shards is the unsharded run. `leftOut`: the profile's targets not run, each with its
 * reason (report.json `skippedTargets`, printed as `skipped target …` by the console and report.md):
 * without Docker those of its `targets` not in its `fallbackTargets`, and those whose adapter is not
 * installed; empty for `--backend`. Every shard lists them all (merge keeps one of each).
 */
export function selectTargets(
  catalog: Catalog,
  opts: { backends: string[]; profile: string; docker: boolean; shard: { index: number; count: number } | null },
): { targets: ResolvedTarget[]; why: string; leftOut: Array<{ target: string; reason: string }> } {
  let names: string[];
  let why: string;
  const leftOut: Array<{ target: string; reason: string }> = [];
  if (opts.backends.length) {
    names = [...new Set(opts.backends)];
    why = '--backend';
  } else {
    const p = catalog.profiles.get(opts.profile);
    if (!p) throw new MemoryMatrixError('USAGE', `unknown profile "${opts.profile}"; known profiles: ${[...catalog.profiles.keys()].join(', ')}`);
    if (!opts.docker && p.fallbackTargets) {
      names = p.fallbackTargets;
      why = `profile ${opts.profile}: no Docker engine answers, so its embedded/local targets`;
      for (const t of p.targets.filter((n) => !names.includes(n)))
        leftOut.push({ target: t, reason: `no Docker engine answers: profile ${opts.profile} runs its fallbackTargets (${names.join(', ')}) instead of its targets` });
    } else {
      names = p.targets;
      why = `profile ${opts.profile}`;
    }
    const absent = names.filter((n) => catalog.unavailable.has(n));
    if (absent.length) {
      names = names.filter((n) => !absent.includes(n));
      for (const n of absent) leftOut.push({ target: n, reason: catalog.unavailable.get(n)! });
      const byReason = new Map<string, string[]>();
      for (const n of absent) byReason.set(catalog.unavailable.get(n)!, [...(byReason.get(catalog.unavailable.get(n)!) ?? []), n]);
      const left = [...byReason].map(([reason, ts]) => `${ts.join(', ')}: ${reason}`).join('; ');
      if (names.length === 0) throw new MemoryMatrixError('USAGE', `profile ${opts.profile}: no target can run: ${left}`);
      why += ` (left out: ${left})`;
    }
  }
  let targets = names.map((n) => resolveTarget(catalog, n));
  if (why === '--backend') why = `--backend ${targets.map((t) => t.name).join(' ')}`;
  if (opts.shard) {
    const sorted = [...targets].sort((a, b) => a.name.localeCompare(b.name));
    targets = sorted.filter((_, i) => i % opts.shard!.count === opts.shard!.index - 1);
    why += `, shard ${opts.shard.index}/${opts.shard.count}`;
  }
  return { targets, why, leftOut };
}

/** The checks a profile leaves out, with the reason each is reported under, and a line for the console. */
export interface CheckTier {
  /** Check id (`C15`) → skip reason, e.g. `profile pr-gate: runs in release`. Empty: every check runs. */
  skip: Map<string, string>;
  /** `checks of profile pr-gate: C15, C16, C19, C23 left to release`, or '' when the profile leaves none out. */
  why: string;
}

/**
 * The check tier of `profile` (its `checks` or `excludeChecks` in the catalog): every check it
 * does not run maps to `profile <name>: runs in <excludedRunIn>` (or `…: not in its checks` when
 * the profile names no other). Undefined profile: nothing left out. `--check` narrows the run
 * further on top of this (a check both selected and left out is reported as skipped with this
 * reason). Throws USAGE for an unknown profile, listing the known ones.
 */
export function checkTier(catalog: Catalog, profile: string | undefined): CheckTier {
  if (profile === undefined) return { skip: new Map(), why: '' };
  const p = catalog.profiles.get(profile);
  if (!p) throw new MemoryMatrixError('USAGE', `unknown profile "${profile}"; known profiles: ${[...catalog.profiles.keys()].join(', ')}`);
  const reason = `profile ${profile}: ${p.excludedRunIn ? `runs in ${p.excludedRunIn}` : 'not in its checks'}`;
  const left = CHECKS.filter((c) => !profileRuns(p, c.id)).map((c) => c.id);
  return {
    skip: new Map(left.map((id) => [id, reason])),
    why: left.length ? `checks of profile ${profile}: ${left.join(', ')} left ${p.excludedRunIn ? `to ${p.excludedRunIn}` : 'out'} (reported as skipped)` : '',
  };
}

/**
 * The checks `--check` names (ids such as `C03` or names such as `topk-exact`, case-insensitive),
 * in catalogue order; every check when `selection` is empty. Throws USAGE naming the unknown
 * entries (with the closest names of a mistyped name, or the id of an id without its zero padding,
 * `C1` → C01: "did you mean …?") and listing the
 * catalogue, and USAGE when `tier` (a profile's check tier) leaves out every selected check
 * (such a run would check nothing and still exit 0).
 */
export function resolveChecks(selection: readonly string[], tier?: CheckTier): CheckDefinition[] {
  const checks = selectChecks(selection);
  const known = checks.flatMap((c) => [c.id.toLowerCase(), c.name]);
  const unknown = selection.filter((c) => !known.includes(c.toLowerCase()));
  if (unknown.length || (selection.length && checks.length === 0)) {
    // A mistyped name gets the closest names; an id written without its zero padding (C1, c001) the
    // id of that number; another id (C99) only the list of checks.
    const names = CHECKS.map((c) => c.name);
    const show = (n: string): string => `${CHECKS.find((c) => c.name === n)!.id} ${n}`;
    const hints: string[] = [];
    for (const u of unknown) {
      const same = /^c\d+$/i.test(u) ? CHECKS.find((c) => Number(c.id.slice(1)) === Number(u.slice(1))) : undefined;
      const h = same ? `did you mean ${same.id} ${same.name}?` : /^c\d+$/i.test(u) ? '' : didYouMean(u, names, show);
      if (h) hints.push(unknown.length > 1 ? `${JSON.stringify(u)}: ${h}` : h);
    }
    throw new MemoryMatrixError(
      'USAGE',
      `--check ${unknown.map((u) => JSON.stringify(u)).join(', ')}: no such check; ${hints.map((h) => `${h} `).join('')}checks are ${CHECKS.map((c) => `${c.id} ${c.name}`).join(', ')}`,
    );
  }
  if (tier && selection.length && checks.every((c) => tier.skip.has(c.id))) {
    throw new MemoryMatrixError(
      'USAGE',
      `--check ${selection.join(', ')}: every selected check is left out by the check tier (${tier.skip.get(checks[0]!.id)}); choose the profile that runs it with --profile, or omit --profile with --backend`,
    );
  }
  return checks;
}
