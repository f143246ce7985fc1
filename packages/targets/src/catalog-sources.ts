import { readFileSync } from 'node:fs';
import path from 'node:path';
import { missingDrivers } from './registry';
import type { UserConfig } from './user-config';

/*
 * What goes into a catalog's raw mapping before it is validated (catalog.ts loadCatalog): the
 * user's targets and profiles (memory-matrix.yaml) over the catalog file's, and the targets of
 * built-in backends whose adapter package is not installed, set aside with how to install it.
 */

/** Whether the catalog file itself (before the user's entries) names `name` in `section`. */
export function baseHas(raw: Record<string, unknown>, section: 'targets' | 'profiles', name: string): boolean {
  const m = raw[section];
  return m !== null && typeof m === 'object' && Object.hasOwn(m, name);
}

/** The catalog's raw mapping with the user's targets and profiles added (same name: the user's replaces the catalog's). */
export function mergeUserEntries(raw: Record<string, unknown>, user: UserConfig): Record<string, unknown> {
  const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  // A catalog whose own sections are malformed keeps them: its schema error is the one to report.
  // A user profile's baselines.dir is relative to the user's file (the catalog's own: to the catalog file's folder, baseline/release.ts).
  const userProfiles = Object.fromEntries(
    Object.entries(user.profiles).map(([name, p]) => {
      if (!isMap(p) || !isMap(p.baselines) || typeof p.baselines.dir !== 'string') return [name, p];
      return [name, { ...p, baselines: { ...p.baselines, dir: path.resolve(path.dirname(user.file), p.baselines.dir) } }];
    }),
  );
  return {
    ...raw,
    targets: isMap(raw.targets) ? { ...raw.targets, ...user.targets } : raw.targets,
    profiles: isMap(raw.profiles) ? { ...raw.profiles, ...userProfiles } : raw.profiles,
  };
}

/** This package's version (its package.json), read by the first `installHint`. */
let ownVersion: string | undefined;

/**
 * How to install adapter package `pkg` beside an installed memory-matrix: the packages are not on
 * the npm registry yet (docs/own-repository.md), so its packed tarball, named as
 * `npm pack` names it (`@memory-matrix/adapter-sqlite` → `memory-matrix-adapter-sqlite-<version>.tgz`,
 * the version of this package, which every package of a release shares).
 */
function installHint(pkg: string): string {
  ownVersion ??= (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const version = ownVersion;
  const tarball = `${pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
  return `not on the npm registry yet: npm install --save-dev <dir>/${tarball}, packed with bash .ci/pack.sh <dir> in a clone of the repository`;
}

/**
 * Take the targets of built-in backends whose adapter package is not installed (registry
 * `missingDrivers`: an installed copy without the optional adapters) out of the raw catalog before
 * it is validated (their container kinds, engines and adapter options are the missing driver's to
 * judge) and return them, target name → why, naming the package to install. Nothing in the
 * repository, where every adapter is installed.
 */
export function setAsideMissing(raw: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const targets = raw.targets;
  if (targets === null || typeof targets !== 'object' || Array.isArray(targets)) return out;
  const kept: Record<string, unknown> = {};
  for (const [name, t] of Object.entries(targets as Record<string, unknown>)) {
    const backend = (t as { backend?: unknown } | null)?.backend;
    const pkg = typeof backend === 'string' ? missingDrivers().get(backend) : undefined;
    if (pkg === undefined) kept[name] = t;
    else out.set(name, `its adapter package ${pkg} is not installed (${installHint(pkg)})`);
  }
  raw.targets = kept;
  return out;
}
