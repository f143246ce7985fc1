import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadGoldenDataset, MemoryMatrixError, type Expectation, type GoldenDataset } from '@memory-matrix/spec';
import { installGuard, parseUrlTarget, removeRunContainers, resolveTarget, type Catalog, type ResolvedTarget } from '@memory-matrix/targets';
import { loadExpectation } from '../golden';
import { datasetDir } from '../run';
import { runCatalog } from '../select';
import type { DiffThresholds } from './verdict';

/** The golden dataset, its oracle expectation and that file's sha256 (what a recording needs). */
export interface GoldenInputs {
  dataset: GoldenDataset;
  expectation: Expectation;
  expectationSha256: string;
}

/** The catalog of this run (MM_CATALOG or matrix/targets.yaml; USAGE naming file:line on schema errors). */
export function baselineCatalog(): Catalog {
  return runCatalog();
}

/**
 * Load `--dataset` (a folder or a name under golden-data/) and its recorded oracle expectation,
 * as `memory-matrix run` does (golden.ts): GOLDEN_MISSING / GOLDEN_INVALID / GOLDEN_CHECKSUM naming the file.
 */
export function loadGoldenInputs(catalog: Catalog, spec: string): GoldenInputs {
  const dataset = loadGoldenDataset(datasetDir(spec));
  const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
  const exp = loadExpectation(dataset, { update: false, tieEpsilon });
  return { dataset, expectation: exp.expectation, expectationSha256: exp.sha256 };
}

/**
 * A diff input: a catalog target (or `backend@url=…`) to record live, else a baseline file. A
 * name that is neither a catalog target nor an existing file nor `*.json` is UNKNOWN_TARGET
 * listing the catalog's targets.
 */
export function classifyInput(catalog: Catalog, spec: string): { kind: 'target'; target: ResolvedTarget } | { kind: 'file'; file: string } {
  if (catalog.targets.has(spec) || parseUrlTarget(spec)) return { kind: 'target', target: resolveTarget(catalog, spec) };
  if (spec.endsWith('.json') || existsSync(spec)) return { kind: 'file', file: path.resolve(spec) };
  return { kind: 'target', target: resolveTarget(catalog, spec) };
}

/**
 * The diff thresholds of a profile (`profiles.<name>.diff` in the catalog). USAGE naming the
 * profile and the catalog file when the profile is unknown or declares none.
 */
export function profileThresholds(catalog: Catalog, profile: string): DiffThresholds {
  const p = catalog.profiles.get(profile);
  if (!p) throw new MemoryMatrixError('USAGE', `--profile ${profile}: unknown profile; known profiles: ${[...catalog.profiles.keys()].join(', ')}`);
  if (!p.diff) {
    const withDiff = [...catalog.profiles].filter(([, x]) => x.diff).map(([n]) => n);
    throw new MemoryMatrixError('USAGE', `--profile ${profile}: ${catalog.file} declares no diff thresholds for it (profiles with them: ${withDiff.join(', ') || 'none'})`);
  }
  return p.diff;
}

/**
 * Before starting any container: removal of containers left by an earlier run that died (as
 * `memory-matrix run` does), when a Docker engine answers (`docker`: targets `dockerStatus`) and a
 * container target is selected; installs the disposal guard so this process's containers go on
 * exit and Ctrl-C.
 */
export async function prepareProviders(targets: ResolvedTarget[], docker: boolean, log: (l: string) => void): Promise<void> {
  installGuard();
  if (docker && targets.some((t) => t.provider === 'container')) {
    const removed = await removeRunContainers();
    if (removed.length) log(`removed ${removed.length} container(s) left by an earlier run that died`);
  }
}
