import { existsSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN_DATA_DIR } from '@memory-matrix/golden-data';
import {
  datasetNamesIn,
  didYouMean,
  datasetFilterSet,
  filterSetPath,
  loadGoldenDataset,
  LOAD_ORDER_METHOD,
  MemoryMatrixError,
  parseLoadSeed,
  hostCalibration,
  limitOverrides,
  LIMIT_ENV,
  type CheckDefinition,
  type GoldenDataset,
} from '@memory-matrix/spec';
import { dockerStatus, removeLeftoverVolumes, removeRunContainers, startParallelism, startTimeoutScale, type ResolvedTarget } from '@memory-matrix/targets';
import { releaseBaselines, type ReleaseBaselines } from '../baseline/release';
import { loadExpectation } from '../golden';
import type { MatrixReport } from '../report/model';
import { embeddedMode } from '../cell-child/protocol';
import { resolveParallelism, type Parallelism } from '../parallel';
import { dockerMissingMessage } from './docker-missing';
import { catalogFile, runCatalog, checkTier, parseRepeat, parseShard, resolveChecks, selectTargets, type CheckTier } from '../select';
import { TOOL_VERSION, displayPath } from '../version';
import { checkedTimeZone } from '../time-zone';
import type { RunOptions } from './options';

/**
 * Resolve `--dataset`: a path to a folder (it contains `/` or starts with `.`), or a dataset name:
 * `golden-data/<name>` of the working directory when that folder exists (a user's own `sample`
 * output, in the folder `memory-matrix init` makes), else the shipped golden data
 * (`@memory-matrix/golden-data`: agent-memories; in the repository, its golden-data/ folder).
 * Throws GOLDEN_MISSING naming both places and every dataset in them when a name is in neither
 * (outside the repository; inside it, loading the missing folder says so).
 */
export function datasetDir(spec: string): string {
  if (spec.includes('/') || spec.startsWith('.')) return path.resolve(spec);
  const own = path.resolve('golden-data', spec);
  if (existsSync(own)) return own;
  const shipped = path.join(GOLDEN_DATA_DIR, spec);
  const ownRoot = path.resolve('golden-data');
  // In the repository both are one folder: the dataset loader's own message lists it.
  if (existsSync(shipped) || ownRoot === path.resolve(GOLDEN_DATA_DIR)) return shipped;
  const all = [...new Set([...datasetNamesIn(ownRoot), ...datasetNamesIn(GOLDEN_DATA_DIR)])].sort();
  const hint = didYouMean(spec, all);
  throw new MemoryMatrixError(
    'GOLDEN_MISSING',
    `--dataset ${spec}: no dataset of that name in ${ownRoot} (yours: \`memory-matrix sample\` writes there) or in the shipped ones (${GOLDEN_DATA_DIR}); ${hint ? `${hint} ` : ''}the datasets are ${all.join(', ') || 'none'}`,
  );
}

/** What a run was asked for, resolved and checked before any store is started (`planRun`). */
export interface RunPlan {
  targets: ResolvedTarget[];
  /** The profile whose check tier applies: `--profile`, else `default` when no `--backend` is given. */
  tierProfile: string | undefined;
  tier: CheckTier;
  /** The checks to run in every cell (`resolveChecks`). */
  checks: CheckDefinition[];
  parallel: Parallelism;
  /** How embedded cells run (cell-child/protocol.ts); undefined when the run has none. */
  embedded: 'child' | 'inprocess' | undefined;
  docker: Awaited<ReturnType<typeof dockerStatus>>;
  /** When no Docker engine answers: per selected target that needs one, the cause its cell reports (docker-missing.ts) instead of trying to start it. */
  dockerMissing: Map<string, string>;
  repeat: number;
  loadSeed: number;
  dataset: GoldenDataset;
  exp: ReturnType<typeof loadExpectation>;
  baselines: ReleaseBaselines;
}

/**
 * Resolve a run's selection and inputs, in this order, recording each into `report` as it is
 * known and printing through `out`: the user's catalog, `--shard` / `--repeat` / `--load-seed`,
 * the names in `--check`, Docker (removing an earlier dead run's containers and volumes), the targets, the check tier,
 * the parallelism, the checks, the golden dataset and its expectation, the release baselines.
 * Nothing is started or written to a store. Throws USAGE (bad flag or environment value, `--repeat`
 * without C05), GOLDEN_MISSING, and whatever loading the catalog, dataset or expectation throws.
 */
export async function planRun(opts: RunOptions, report: MatrixReport, out: (line: string) => void): Promise<RunPlan> {
  const userCatalog = catalogFile();
  // Recorded before it is read: a catalog that fails to load is named too. (Appended: the older keys keep their order.)
  if (userCatalog) report.catalog = { file: displayPath(userCatalog).startsWith('..') ? userCatalog : displayPath(userCatalog) }; // outside the repository: absolute
  const catalog = runCatalog();
  const shard = parseShard(opts.shard);
  const repeat = parseRepeat(opts.repeat);
  const loadSeed = parseLoadSeed(opts.loadSeed);
  report.loadOrder = { seed: loadSeed, method: LOAD_ORDER_METHOD };
  resolveChecks(opts.checks); // a mistyped --check is USAGE before Docker is asked or anything is printed
  const docker = await dockerStatus();
  // How slow the host is now (spec host.ts): recorded; each process's time limits use its own current figure.
  // A bad MM_HOST_FACTOR or MM_TIME_ZONE (kept by the CLI: time-zone.ts) is a USAGE error here, recorded in the reports.
  report.host = { docker: docker.available, dockerReason: docker.reason, calibration: hostCalibration(), timeZone: checkedTimeZone() };
  if (docker.available) {
    // Left-overs of a crashed earlier run (its process is gone): Ryuk cannot run here.
    const removed = await removeRunContainers();
    if (removed.length) out(`removed ${removed.length} container(s) left by an earlier run that died`);
    const volumes = await removeLeftoverVolumes(); // fault instances' data volumes (C15, C16, C23)
    if (volumes.length) out(`removed ${volumes.length} volume(s) left by an earlier run that died`);
  }
  const { targets, why, leftOut } = selectTargets(catalog, { backends: opts.backends, profile: opts.profile ?? 'default', docker: docker.available, shard });
  report.skippedTargets.push(...leftOut); // named in every report (console and report.md: `skipped target …`)
  out(`memory-matrix ${TOOL_VERSION}: ${targets.length} target(s) from ${why}${docker.available ? '' : ` (Docker: ${docker.reason})`}`);
  const cfg = catalog.config;
  if (cfg) out(`config ${cfg.file}: adapters ${cfg.adapters.join(', ') || 'none'}${cfg.replaced.length ? `; replaces the built-in ${cfg.replaced.join(', ')}` : ''}`);
  const tierProfile = opts.backends.length ? opts.profile : (opts.profile ?? 'default');
  const tier = checkTier(catalog, tierProfile);
  if (tier.why) out(tier.why);
  const parallel = resolveParallelism(opts.parallel, process.env.MM_PARALLEL, targets);
  startTimeoutScale(); // USAGE now, not at the first start, when MM_START_TIMEOUT_SCALE / MM_START_PARALLEL are set wrong
  startParallelism();
  // USAGE now when MM_SETUP_TIMEOUT_MS / MM_LOAD_TIMEOUT_MS / MM_CHECK_TIMEOUT_MS is set wrong; said when set.
  const limits = Object.entries(limitOverrides()).map(([k, v]) => `${k} ${v} ms (${LIMIT_ENV[k as keyof typeof LIMIT_ENV]})`);
  if (limits.length) out(`time limits of every target for this run: ${limits.join(', ')}`);
  const embedded = targets.some((t) => t.provider === 'embedded') ? embeddedMode(targets.length, process.env.MM_EMBEDDED_INPROCESS) : undefined;
  const embeddedWhy = { child: '; embedded cells each in a child process', inprocess: '; embedded cells in this process, alone, after the others' };
  out(`cells at once: ${parallel.cells} (${parallel.why}${embedded && parallel.cells > 1 ? embeddedWhy[embedded] : ''})`);
  const checks = resolveChecks(opts.checks, tier);
  if (repeat > 1 && (!checks.some((c) => c.id === 'C05') || tier.skip.has('C05')))
    throw new MemoryMatrixError(
      'USAGE',
      `--repeat ${repeat}: only C05 (ann-recall) replays its queries n times, and this run does not run C05${tier.skip.has('C05') ? ` (${tier.skip.get('C05')})` : ' (--check leaves it out)'}; add C05 to --check or drop --repeat`,
    );

  const dataset = loadGoldenDataset(datasetDir(opts.dataset));
  const m = dataset.manifest;
  report.dataset = {
    name: m.name,
    version: String(m.version),
    sha256: dataset.datasetSha256,
    dir: displayPath(dataset.dir),
    memories: dataset.memories.length,
    queries: dataset.queries.length,
    dim: m.dim,
    metric: m.metric,
  };
  // C31's golden filter set, read before any cell starts: a malformed one is GOLDEN_INVALID (exit 2), none skips C31 naming the path.
  let runTier = tier;
  if (checks.some((c) => c.id === 'C31') && !tier.skip.has('C31') && datasetFilterSet(dataset) === null)
    runTier = { ...tier, skip: new Map([...tier.skip, ['C31', `dataset ${m.name} has no filter set (${displayPath(filterSetPath(dataset))})`]]) };
  // The recorded expectation carries the boundary tie group of the widest tieEpsilon in the catalog.
  const tieEpsilon = Math.max(...[...catalog.targets.values()].map((t) => t.tolerances.tieEpsilon));
  const exp = loadExpectation(dataset, { update: opts.updateGolden, tieEpsilon });
  report.expectation = { file: displayPath(exp.file), source: exp.expectation.header.source, sha256: exp.sha256 };
  if (opts.updateGolden) out(`recorded ${exp.expectation.entries.length} oracle expectations in ${report.expectation.file}`);

  out(`golden load order: ${LOAD_ORDER_METHOD}, seed ${loadSeed} (replay it with --load-seed ${loadSeed})`);
  const baselines = releaseBaselines(catalog, tierProfile, targets, dataset, opts.backends.length === 0);
  for (const l of baselines.lines) out(l);
  const dockerMissing = new Map<string, string>();
  if (!docker.available) for (const t of targets) if (t.provider === 'container') dockerMissing.set(t.name, dockerMissingMessage(t, docker.reason, catalog.targets.values()));
  return { targets, tierProfile, tier: runTier, checks, parallel, embedded, docker, dockerMissing, repeat, loadSeed, dataset, exp, baselines };
}
